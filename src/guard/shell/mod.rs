//! File operands of shell commands.
//!
//! [`analyse`] splits a script into simple commands ([`lex`]), strips what only wraps a
//! command (assignments, `sudo`, `env`, `time`, `then`/`do`), follows `cd X &&`, and asks the
//! per-command rules ([`command`]) which words are files and what the command does with them.
//! Anything it does not understand is left alone: a false deny costs the agent a turn.

mod command;
mod git;
mod lex;
#[cfg(test)]
mod tests;

use super::{DenyCode, PathArg, Role, protect};
use lex::{RedirectKind, Sep, Word};
use std::path::{Path, PathBuf};

/// What a shell command means to the guard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShellPlan {
    /// File operands, in command order.
    pub operands: Vec<PathArg>,
    /// Why the command skips git hooks, when it does (`git commit --no-verify`), or changes
    /// patchgate's policy.
    pub bypass: Option<ShellFinding>,
    /// Each hook manager's configuration the command changes (`rm .pre-commit-config.yaml`):
    /// refused where that manager runs patchgate, which only the file system tells.
    pub manager_writes: Vec<ShellFinding>,
    /// Whether some command lists or searches (`ls`, `find`, `grep`, `rg`).
    pub is_discovery: bool,
    /// Whether every command only reads (known readers and `cd`, nothing redirected into a
    /// file): what `[guard] correct = "reads"` may rewrite.
    pub is_read_only: bool,
}

/// A refusal the command line earns without looking at any file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellFinding {
    /// `HOOK_BYPASS` (the command skips the hooks) or `PROTECTED_PATH` (it changes what
    /// configures the gate).
    pub code: DenyCode,
    /// The command as written, for the message.
    pub command: String,
    /// Why it is refused and what to do instead.
    pub reason: String,
    /// For `PROTECTED_PATH`: the protected entry it changes.
    pub entry: Option<&'static str>,
}

/// State while walking one script.
pub(super) struct Ctx {
    /// The directory relative operands resolve against; `None` after `cd` to somewhere unknown.
    cwd: Option<PathBuf>,
    plan: ShellPlan,
}

impl Ctx {
    /// Record `word` as a file operand with `role`, unless its value is not known literally.
    fn add(&mut self, word: &Word, role: Role) {
        let text = word.text.as_str();
        if !word.is_literal || text.is_empty() || text == "-" || text.contains("://") {
            return;
        }
        let Some(raw) = expand_tilde(text) else { return };
        let Some(base) = self.cwd.clone() else {
            if Path::new(&raw).is_absolute() {
                self.plan.operands.push(PathArg { raw, role, base: PathBuf::from("/") });
            }
            return;
        };
        self.plan.operands.push(PathArg { raw, role, base });
    }

    /// Record the target of a symbolic link made in `link_dir` (relative to the working
    /// directory): a relative target resolves against the link's directory, not the cwd.
    fn add_link_target(&mut self, word: &Word, link_dir: &Path) {
        let Some(cwd) = self.cwd.clone() else { return };
        self.cwd = Some(cwd.join(link_dir));
        self.add(word, Role::LinkTarget);
        self.cwd = Some(cwd);
    }

    /// Whether `word` names an existing directory (relative to the working directory).
    fn is_dir(&self, word: &Word) -> bool {
        self.cwd.as_ref().is_some_and(|cwd| cwd.join(&word.text).is_dir())
    }

    fn add_all<'a>(&mut self, words: impl IntoIterator<Item = &'a Word>, role: Role) {
        for word in words {
            self.add(word, role);
        }
    }

    /// `cd DIR`: check it, and resolve later operands against it.
    fn change_dir(&mut self, target: Option<&Word>) {
        let Some(word) = target.filter(|w| w.is_literal && w.text != "-") else {
            self.cwd = None;
            return;
        };
        self.add(word, Role::Directory);
        let Some(text) = expand_tilde(&word.text) else {
            self.cwd = None;
            return;
        };
        self.cwd = self.cwd.as_ref().map(|cwd| cwd.join(&text)).or_else(|| {
            let path = PathBuf::from(&text);
            path.is_absolute().then_some(path)
        });
    }

    /// `bash -c SCRIPT`: analyse the inner script in the current directory.
    fn nested(&mut self, script: &Word) {
        if !script.is_literal {
            return;
        }
        let Some(cwd) = self.cwd.clone() else { return };
        let inner = analyse(&script.text, &cwd);
        self.plan.is_read_only &= inner.is_read_only;
        self.plan.operands.extend(inner.operands);
        self.plan.is_discovery |= inner.is_discovery;
        if let Some(finding) = inner.bypass
            && self.plan.bypass.is_none()
        {
            self.plan.bypass = Some(finding);
        }
        self.plan.manager_writes.extend(inner.manager_writes);
    }

    fn refuse(&mut self, command: String, reason: String) {
        self.refuse_as(DenyCode::HookBypass, command, reason);
    }

    fn refuse_as(&mut self, code: DenyCode, command: String, reason: String) {
        if self.plan.bypass.is_none() {
            self.plan.bypass = Some(ShellFinding { code, command, reason, entry: None });
        }
    }

    /// Refuse a command that would change a protected entry: written by a redirect, or named
    /// by a command that is not a known reader (`rm`, `mv`, `mkfifo`, `sed -i`, `python`).
    /// Every entry it changes is recorded: which hook managers run the gate is decided later.
    fn protect(&mut self, command: &lex::Command) {
        let redirected = command
            .redirects
            .iter()
            .filter(|(kind, _)| *kind == RedirectKind::Write)
            .filter_map(|(_, target)| protect::named(&target.text));
        let is_writer = command::program(&command.words).is_some_and(|(program, args)| {
            let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
            !protect::is_reader(program, &args)
        });
        let named =
            command.words.iter().filter(|_| is_writer).filter_map(|w| protect::named(&w.text));
        let entries: Vec<&'static str> = redirected.chain(named).collect();
        for entry in entries {
            let (command, reason) = (written(command), protect::reason(entry));
            if crate::path::is_hook_manager(entry) {
                let code = DenyCode::ProtectedPath;
                let finding = ShellFinding { code, command, reason, entry: Some(entry) };
                self.plan.manager_writes.push(finding);
            } else {
                self.refuse_as(DenyCode::ProtectedPath, command, reason);
            }
        }
    }

    /// Refuse settings that point git at other hooks from the environment or the config:
    /// `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`/`KEY`/`VALUE`, `git config core.hooksPath`.
    fn hooks_redirect(&mut self, command: &lex::Command) {
        let found = command.words.iter().find(|w| {
            let text = w.text.to_ascii_lowercase();
            text.contains("core.hookspath")
                || ["git_config_parameters=", "git_config_count=", "git_config_key_"]
                    .iter()
                    .any(|v| text.starts_with(v) || text.contains(&format!(" {v}")))
        });
        if let Some(word) = found {
            let reason = format!(
                "sets '{}', which can point git at other hooks than the repository's; commit \
                 with the repository's hooks",
                word.text
            );
            self.refuse(written(command), reason);
        }
    }
}

/// A command as the agent wrote it, for messages: its words (an empty one as `''`) and where
/// it writes (`printf '' > .patchgate.toml`).
fn written(command: &lex::Command) -> String {
    let words = command.words.iter().map(|w| if w.text.is_empty() { "''" } else { &w.text });
    let targets = command
        .redirects
        .iter()
        .filter(|(kind, _)| *kind == RedirectKind::Write)
        .map(|(_, target)| format!("> {}", target.text));
    words.map(str::to_owned).chain(targets).collect::<Vec<_>>().join(" ")
}

/// Whether `command` only reads: a known reader (or `cd`), with no redirection into a file.
fn only_reads(command: &lex::Command) -> bool {
    let writes = command.redirects.iter().any(|(kind, _)| *kind == RedirectKind::Write);
    let Some((program, args)) = command::program(&command.words) else { return !writes };
    let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    !writes && (matches!(program, "cd" | "pushd") || protect::is_reader(program, &args))
}

/// `~` and `~/x` as the shell expands them; `~user` is left unknown.
fn expand_tilde(text: &str) -> Option<String> {
    let Some(rest) = text.strip_prefix('~') else {
        return Some(text.to_owned());
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let home = std::env::var("HOME").ok()?;
    Some(format!("{home}{rest}"))
}

/// The file operands, hook bypasses and discovery commands of `script`, run in `cwd`.
#[must_use]
pub fn analyse(script: &str, cwd: &Path) -> ShellPlan {
    let plan = ShellPlan { is_read_only: true, ..ShellPlan::default() };
    let mut ctx = Ctx { cwd: Some(cwd.to_owned()), plan };
    for (command, sep) in lex::lex(script) {
        ctx.plan.is_read_only &= only_reads(&command);
        for (kind, target) in &command.redirects {
            match kind {
                RedirectKind::Write => ctx.add(target, Role::Create),
                RedirectKind::Read => ctx.add(target, Role::Existing),
                RedirectKind::Other => {}
            }
        }
        let is_cd_chain = matches!(sep, Sep::And | Sep::Seq);
        command::dispatch(&command.words, is_cd_chain, &mut ctx);
        // After the per-command rules, whose reasons are more specific.
        ctx.hooks_redirect(&command);
        ctx.protect(&command);
    }
    ctx.plan
}
