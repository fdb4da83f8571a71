//! Hook managers (husky, lefthook, the pre-commit framework): finding them, and where their
//! configuration takes patchgate's command, so `hook install` can say exactly what to add
//! instead of writing shims they would bypass or overwrite.
//!
//! The advice is computed from the configuration as it is: the lefthook entry goes into an
//! existing `pre-commit:` block (its `commands:` or `jobs:`), the pre-commit framework's into
//! the existing `repos:` list, both at the file's own indentation; the husky line goes before
//! the user's own commands. YAML is read line by line (block style, the form these files are
//! written in), which is enough to find a top-level key and its children.

use super::HookName;
use crate::path::{LEFTHOOK_FILES, PRE_COMMIT_CONFIG as PRE_COMMIT_FILE};
use std::path::{Path, PathBuf};

/// A hook manager that owns the repository's hooks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Manager {
    /// husky (`core.hooksPath` under `.husky`, or a `.husky/` folder).
    Husky,
    /// lefthook, with its config file.
    Lefthook(PathBuf),
    /// The pre-commit framework (`.pre-commit-config.yaml`).
    PreCommit,
}

impl Manager {
    /// The manager's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Husky => "husky",
            Self::Lefthook(_) => "lefthook",
            Self::PreCommit => "pre-commit",
        }
    }
}

/// The hook managers present in the worktree at `root`; `hooks_path` is `core.hooksPath`.
#[must_use]
pub fn detect(root: &Path, hooks_path: Option<&str>) -> Vec<Manager> {
    let mut found = Vec::new();
    if hooks_path.is_some_and(|p| p.contains(".husky")) || root.join(".husky").is_dir() {
        found.push(Manager::Husky);
    }
    if let Some(name) = LEFTHOOK_FILES.iter().find(|name| root.join(name).is_file()) {
        found.push(Manager::Lefthook(PathBuf::from(name)));
    }
    if root.join(PRE_COMMIT_FILE).is_file() {
        found.push(Manager::PreCommit);
    }
    found
}

/// What to add to one manager's configuration file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The manager.
    pub manager: &'static str,
    /// The repo-relative file to edit (created when missing).
    pub file: PathBuf,
    /// The exact lines to insert, each ending in a newline.
    pub snippet: String,
    /// Insert after this 1-based line of the file as it is now (0: at the top).
    pub after_line: usize,
    /// Where, in words (`before your own commands`, `under pre-commit: -> commands:`).
    pub placement: String,
    /// What the manager cannot do that the user should know (pre-commit and `git am`).
    pub caveat: Option<String>,
}

/// The advice for every manager, for the client hooks among `hooks`, read from `root`.
#[must_use]
pub fn advise(root: &Path, managers: &[Manager], hooks: &[HookName]) -> Vec<Advice> {
    let client: Vec<HookName> =
        hooks.iter().copied().filter(|h| *h != HookName::PreReceive).collect();
    let read = |file: &Path| std::fs::read_to_string(root.join(file)).unwrap_or_default();
    let mut advice = Vec::new();
    for manager in managers {
        match manager {
            Manager::Husky => {
                for &hook in &client {
                    let file = PathBuf::from(".husky").join(hook.as_str());
                    let text = read(&file);
                    advice.push(husky(hook, file, &text));
                }
            }
            Manager::Lefthook(file) => {
                let mut text = read(file);
                for &hook in &client {
                    let one = lefthook(hook, file.clone(), &text);
                    // Later hooks are placed in the file as the earlier snippets leave it.
                    text = insert(&text, one.after_line, &one.snippet);
                    advice.push(one);
                }
            }
            Manager::PreCommit => {
                advice.push(pre_commit(&client, &read(Path::new(PRE_COMMIT_FILE))));
            }
        }
    }
    advice
}

/// The command a manager runs for `hook`.
fn command(hook: HookName) -> String {
    format!("patchgate hook run {}", hook.as_str())
}

/// `text` with `snippet` inserted after its 1-based line `after` (what the advice asks for).
#[must_use]
pub fn insert(text: &str, after: usize, snippet: &str) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::new();
    let head: Vec<&str> = lines.drain(..after.min(lines.len())).collect();
    for line in head {
        out.push_str(line);
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(snippet);
    for line in lines {
        out.push_str(line);
    }
    out
}

/// husky runs `.husky/<hook>` as a shell script: the gate goes first, so that the user's own
/// commands (which may `exit 0`, or be slow) never run on a commit the gate blocks; only a
/// shebang and husky 4-8's `husky.sh` line stay above it.
fn husky(hook: HookName, file: PathBuf, text: &str) -> Advice {
    let preamble = text
        .lines()
        .enumerate()
        .take_while(|(i, l)| (*i == 0 && l.starts_with("#!")) || l.contains("husky.sh"))
        .count();
    let placement = if text.is_empty() {
        format!("create {} with this line", file.display())
    } else {
        "before your own commands".to_owned()
    };
    Advice {
        manager: "husky",
        snippet: format!("{}\n", command(hook)),
        file,
        after_line: preamble,
        placement,
        caveat: None,
    }
}

fn lefthook(hook: HookName, file: PathBuf, text: &str) -> Advice {
    let lines: Vec<&str> = text.lines().collect();
    let run = command(hook);
    let (after_line, snippet, placement) = match Block::top_level(&lines, hook.as_str()) {
        None => {
            let snippet =
                format!("{}:\n  commands:\n    patchgate:\n      run: {run}\n", hook.as_str());
            (lines.len(), snippet, "at the end".to_owned())
        }
        Some(block) => lefthook_into(&lines, &block, hook, &run),
    };
    Advice { manager: "lefthook", file, snippet, after_line, placement, caveat: None }
}

/// The entry inside an existing `<hook>:` block: a command under `commands:`, a job under
/// `jobs:` (lefthook 1.10's form), or a new `commands:` when the block has neither.
fn lefthook_into(
    lines: &[&str],
    block: &Block,
    hook: HookName,
    run: &str,
) -> (usize, String, String) {
    let step = block.child_indent(lines).unwrap_or(2).max(1);
    let pad = |n: usize| " ".repeat(n);
    let name = hook.as_str();
    if let Some(commands) = block.child(lines, "commands") {
        let at = commands.child_indent(lines).unwrap_or(commands.indent + step);
        let snippet = format!("{}patchgate:\n{}run: {run}\n", pad(at), pad(at + step));
        return (commands.last_line(lines), snippet, format!("under {name}: -> commands:"));
    }
    if let Some(jobs) = block.child(lines, "jobs") {
        let at = jobs.child_indent(lines).unwrap_or(jobs.indent + step);
        let snippet = format!("{}- name: patchgate\n{}  run: {run}\n", pad(at), pad(at));
        return (jobs.last_line(lines), snippet, format!("under {name}: -> jobs:"));
    }
    let snippet = format!(
        "{}commands:\n{}patchgate:\n{}run: {run}\n",
        pad(step),
        pad(2 * step),
        pad(3 * step)
    );
    (block.last_line(lines), snippet, format!("under {name}:"))
}

/// The framework runs hooks from the `repos:` list: a `repo: local` entry running the
/// `patchgate` on `PATH` (from cargo, pip or npm), appended to the list as the file indents it.
fn pre_commit(hooks: &[HookName], text: &str) -> Advice {
    let lines: Vec<&str> = text.lines().collect();
    let caveat = hooks.contains(&HookName::PreApplypatch).then(|| {
        "the pre-commit framework has no pre-applypatch stage, so it cannot gate 'git am'; \
         'patchgate hook install --hooks pre-applypatch --force' adds that hook beside the \
         framework's"
            .to_owned()
    });
    let (after_line, indent, prefix, placement) = match Block::top_level(&lines, "repos") {
        Some(block) => {
            let indent = block.child_indent(&lines).unwrap_or(2);
            (block.last_line(&lines), indent, String::new(), "at the end of repos:".to_owned())
        }
        None => (lines.len(), 2, "repos:\n".to_owned(), "at the end".to_owned()),
    };
    let pad = " ".repeat(indent);
    let mut snippet = prefix;
    for line in [
        "- repo: local",
        "  hooks:",
        "    - id: patchgate",
        "      name: patchgate",
        &format!("      entry: {}", command(HookName::PreCommit)),
        "      language: system",
        "      pass_filenames: false",
        "      always_run: true",
        "      stages: [pre-commit]",
    ] {
        snippet.push_str(&pad);
        snippet.push_str(line);
        snippet.push('\n');
    }
    Advice {
        manager: "pre-commit",
        file: PathBuf::from(PRE_COMMIT_FILE),
        snippet,
        after_line,
        placement,
        caveat,
    }
}

/// A block-style YAML mapping key and the lines below it that belong to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    /// 0-based line of `key:`.
    line: usize,
    /// The key's indentation.
    indent: usize,
    /// 0-based line after the block's last line.
    end: usize,
}

impl Block {
    /// The top-level `key:` (the same key quoted counts too).
    fn top_level(lines: &[&str], key: &str) -> Option<Self> {
        Self::find(lines, key, 0, 0, lines.len())
    }

    /// The child `key:` of this block.
    fn child(&self, lines: &[&str], key: &str) -> Option<Self> {
        let indent = self.child_indent(lines)?;
        Self::find(lines, key, indent, self.line + 1, self.end)
    }

    fn find(lines: &[&str], key: &str, indent: usize, from: usize, to: usize) -> Option<Self> {
        let line = (from..to).find(|&i| {
            let rest = lines[i].strip_prefix(&" ".repeat(indent)).unwrap_or("");
            let is_key = [key.to_owned(), format!("\"{key}\""), format!("'{key}'")]
                .iter()
                .any(|k| rest.strip_prefix(k.as_str()).is_some_and(|r| r.trim_end() == ":"));
            is_key && !rest.starts_with(' ')
        })?;
        let end = (line + 1..to).find(|&i| !is_inside(lines[i], indent)).unwrap_or(to);
        Some(Self { line, indent, end })
    }

    /// The indentation of the block's first content line, when it has one.
    fn child_indent(&self, lines: &[&str]) -> Option<usize> {
        lines[self.line + 1..self.end]
            .iter()
            .find(|l| is_content(l))
            .map(|l| l.len() - l.trim_start().len())
    }

    /// The 1-based number of the block's last content line (its key line when empty), after
    /// which a new child goes (trailing blank lines and comments stay below it).
    fn last_line(&self, lines: &[&str]) -> usize {
        (self.line..self.end).rev().find(|&i| is_content(lines[i])).unwrap_or(self.line) + 1
    }
}

fn is_content(line: &str) -> bool {
    let trimmed = line.trim_start();
    !trimmed.is_empty() && !trimmed.starts_with('#')
}

/// Whether `line` still belongs to a block whose key is indented by `indent`: blank lines,
/// comments, deeper lines, and list items at the key's own indentation (YAML allows
/// `repos:` followed by `- repo: ...` at column 0).
fn is_inside(line: &str, indent: usize) -> bool {
    if !is_content(line) {
        return true;
    }
    let own = line.len() - line.trim_start().len();
    own > indent || (own == indent && (line.trim_start().starts_with("- ") || line.trim() == "-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(manager: &Manager, hooks: &[HookName], file: &str, text: &str) -> Vec<Advice> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        advise(dir.path(), std::slice::from_ref(manager), hooks)
    }

    fn applied(text: &str, advice: &Advice) -> String {
        insert(text, advice.after_line, &advice.snippet)
    }

    #[test]
    fn lefthook_entry_goes_into_the_existing_commands_at_the_file_s_indentation() {
        let text = "pre-commit:\n    parallel: true\n    commands:\n        lint:\n            run: npm run lint\n\n# later\npre-push:\n    commands: {}\n";
        let advice = one(
            &Manager::Lefthook("lefthook.yml".into()),
            &[HookName::PreCommit],
            "lefthook.yml",
            text,
        );
        assert_eq!(advice[0].placement, "under pre-commit: -> commands:");
        assert_eq!(
            applied(text, &advice[0]),
            "pre-commit:\n    parallel: true\n    commands:\n        lint:\n            run: npm run lint\n        patchgate:\n            run: patchgate hook run pre-commit\n\n# later\npre-push:\n    commands: {}\n"
        );
    }

    #[test]
    fn lefthook_jobs_get_a_job_and_a_block_without_either_gets_commands() {
        let jobs = "pre-commit:\n  jobs:\n    - name: lint\n      run: make lint\n";
        let advice = one(
            &Manager::Lefthook("lefthook.yml".into()),
            &[HookName::PreCommit],
            "lefthook.yml",
            jobs,
        );
        assert_eq!(
            applied(jobs, &advice[0]),
            "pre-commit:\n  jobs:\n    - name: lint\n      run: make lint\n    - name: patchgate\n      run: patchgate hook run pre-commit\n"
        );
        let bare = "pre-commit:\n  parallel: true\nother: 1\n";
        let advice = one(
            &Manager::Lefthook("lefthook.yml".into()),
            &[HookName::PreCommit],
            "lefthook.yml",
            bare,
        );
        assert_eq!(
            applied(bare, &advice[0]),
            "pre-commit:\n  parallel: true\n  commands:\n    patchgate:\n      run: patchgate hook run pre-commit\nother: 1\n"
        );
    }

    #[test]
    fn lefthook_without_the_hook_gets_a_new_block_for_each_hook() {
        let text = "pre-push:\n  commands:\n    test:\n      run: make test\n";
        let hooks = [HookName::PreCommit, HookName::PreApplypatch];
        let advice = one(&Manager::Lefthook("lefthook.yml".into()), &hooks, "lefthook.yml", text);
        let both = applied(&applied(text, &advice[0]), &advice[1]);
        assert!(both.ends_with("pre-applypatch:\n  commands:\n    patchgate:\n      run: patchgate hook run pre-applypatch\n"), "{both}");
        assert!(both.contains("make test\npre-commit:\n  commands:\n"), "{both}");
    }

    #[test]
    fn pre_commit_entry_is_appended_to_repos_at_its_indentation() {
        let text = "repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n\nci:\n  autofix: false\n";
        let advice = one(
            &Manager::PreCommit,
            &[HookName::PreCommit, HookName::PreApplypatch],
            PRE_COMMIT_FILE,
            text,
        );
        let merged = applied(text, &advice[0]);
        assert!(merged.starts_with("repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n- repo: local\n  hooks:\n    - id: patchgate\n"), "{merged}");
        assert!(merged.ends_with("\nci:\n  autofix: false\n"), "{merged}");
        assert!(advice[0].caveat.as_deref().is_some_and(|c| c.contains("pre-applypatch")));
    }

    #[test]
    fn husky_line_goes_before_the_user_s_commands_below_a_shebang_and_husky_sh() {
        let v8 = "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\nnpm test\n";
        let advice = one(&Manager::Husky, &[HookName::PreCommit], ".husky/pre-commit", v8);
        assert_eq!(
            applied(v8, &advice[0]),
            "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\npatchgate hook run pre-commit\n\nnpm test\n"
        );
        let v9 = "npm test\nexit 0\n";
        let advice = one(&Manager::Husky, &[HookName::PreCommit], ".husky/pre-commit", v9);
        assert_eq!(applied(v9, &advice[0]), "patchgate hook run pre-commit\nnpm test\nexit 0\n");
    }

    #[test]
    fn a_key_inside_another_block_or_a_longer_key_is_not_the_block() {
        let text = "pre-commit-msg:\n  x: 1\nremotes:\n  pre-commit:\n    commands: {}\n";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(Block::top_level(&lines, "pre-commit"), None);
    }
}
