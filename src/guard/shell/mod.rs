//! File operands of shell commands, and the commands that walk around the gate.
//!
//! [`analyse`] splits a script into simple commands ([`lex`]), reads what the script itself says
//! about its words ([`expand`]: variables it set, brace lists, globs matched against the
//! directory as the shell would, the git directory), strips what only wraps a command
//! (assignments, `sudo`, `env`, `time`, `then`/`do`), follows `cd X &&`, and asks the
//! per-command rules ([`command`], [`git`], [`write`], [`indirect`]) which words are files and
//! what the command does with them. What a command runs besides its words is read too: command
//! and process substitutions, heredocs and pipes fed to a shell or to `apply_patch`, `eval`,
//! `xargs`, shell scripts run from a file ([`indirect`]). Hook-environment variables (`HOME`,
//! `GIT_CONFIG_GLOBAL`, `HUSKY`, ...) set for a git command that runs hooks are refused ([`env`]).
//!
//! Anything it does not understand is left alone: a false deny costs the agent a turn. What a
//! program other than the shell does (a Python script, a Makefile, `npm run`) is never seen;
//! the commit hook and the server's check judge what it changed.

mod args;
mod command;
mod env;
mod expand;
mod git;
mod indirect;
mod lex;
#[cfg(test)]
mod tests;
mod write;

use super::{DenyCode, PathArg, Role, protect};
use expand::{Expansion, Scope};
use lex::{RedirectKind, Sep, Word};
use std::path::{Path, PathBuf};

/// Scripts inside scripts (`bash -c`, substitutions, `eval`, script files) read at most this
/// deep; a deeper one is refused rather than left unread.
const MAX_DEPTH: usize = 8;

/// What a shell command means to the guard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShellPlan {
    /// File operands, in command order.
    pub operands: Vec<PathArg>,
    /// Why the command walks around the gate (skips hooks with `git commit --no-verify`,
    /// changes patchgate's policy, names the git directory through a glob), when it does.
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
    /// `HOOK_BYPASS` (the command skips the hooks, or runs what the guard cannot read),
    /// `PROTECTED_PATH` (it changes what configures the gate) or `INVALID_AGENT_INPUT` (it
    /// names the git directory through a glob or a substitution).
    pub code: DenyCode,
    /// The command as written, for the message.
    pub command: String,
    /// Why it is refused and what to do instead.
    pub reason: String,
    /// The argument-rejection pattern, for `INVALID_AGENT_INPUT` (`git_dir`).
    pub pattern: Option<crate::contract::RejectedPattern>,
    /// For `PROTECTED_PATH`: the protected entry it changes.
    pub entry: Option<&'static str>,
}

/// What a command reads on standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Stdin {
    /// The agent's own (no pipe, no heredoc).
    Inherited,
    /// Text the script gives it: a heredoc, a here-string, or what `echo`/`printf`/`cat` before
    /// a pipe print.
    Text(String),
    /// Another command's output, which only running it would tell.
    Unknown,
}

/// State while walking one script.
pub(super) struct Ctx {
    /// The directory relative operands resolve against; `None` after `cd` to somewhere unknown.
    cwd: Option<PathBuf>,
    plan: ShellPlan,
    /// Variables the script set.
    scope: Scope,
    /// The standard input of the command being analysed.
    stdin: Stdin,
    /// How many scripts this one is nested in.
    depth: usize,
    /// Hook-environment variables set, and git commands that run hooks, so far.
    hooks: env::HookEnv,
}

impl Ctx {
    fn new(cwd: Option<PathBuf>, depth: usize, scope: Scope) -> Self {
        let plan = ShellPlan { is_read_only: true, ..ShellPlan::default() };
        Self { cwd, plan, scope, stdin: Stdin::Inherited, depth, hooks: env::HookEnv::default() }
    }

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
        self.scope.pwd = self.cwd.as_ref().map(|c| c.display().to_string());
    }

    /// A script run in the current directory (`bash -c`, a substitution, `eval`, a heredoc fed
    /// to a shell): its operands, findings and hook environment become this script's.
    fn nested(&mut self, script: &str) {
        self.nested_as(script, true);
    }

    /// A script the command runs whose file operands are not this command line's to check (a
    /// script file: it may create what it uses): only its findings count.
    fn nested_findings(&mut self, script: &str) {
        self.nested_as(script, false);
    }

    fn nested_as(&mut self, script: &str, keeps_operands: bool) {
        if self.depth >= MAX_DEPTH {
            let reason = format!(
                "runs scripts nested more than {MAX_DEPTH} deep, further than patchgate reads; \
                 run the innermost commands themselves"
            );
            self.refuse(script.chars().take(80).collect(), reason);
            return;
        }
        let mut inner = Ctx::new(self.cwd.clone(), self.depth + 1, self.scope.clone());
        inner.run(script);
        self.plan.is_read_only &= inner.plan.is_read_only;
        if keeps_operands {
            self.plan.operands.extend(inner.plan.operands);
        }
        self.plan.is_discovery |= inner.plan.is_discovery;
        self.hooks.merge(inner.hooks);
        if let Some(finding) = inner.plan.bypass
            && self.plan.bypass.is_none()
        {
            self.plan.bypass = Some(finding);
        }
        self.plan.manager_writes.extend(inner.plan.manager_writes);
    }

    fn refuse(&mut self, command: String, reason: String) {
        self.refuse_as(DenyCode::HookBypass, command, reason);
    }

    fn refuse_as(&mut self, code: DenyCode, command: String, reason: String) {
        if self.plan.bypass.is_none() {
            self.plan.bypass =
                Some(ShellFinding { code, command, reason, pattern: None, entry: None });
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
        let is_writer = args::program(&command.words).is_some_and(|(program, args)| {
            let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
            !protect::is_reader(program, &args)
        });
        let named =
            command.words.iter().filter(|_| is_writer).filter_map(|w| protect::named(&w.text));
        let entries: Vec<&'static str> = redirected.chain(named).collect();
        for entry in entries {
            self.changes_protected(entry, written(command));
        }
    }

    /// `command` changes the protected `entry`: refused now for the policy, recorded for a
    /// hook manager (refused later where that manager runs patchgate).
    pub(super) fn changes_protected(&mut self, entry: &'static str, command: String) {
        let reason = protect::reason(entry);
        if crate::path::is_hook_manager(entry) {
            let code = DenyCode::ProtectedPath;
            let entry = Some(entry);
            let finding = ShellFinding { code, command, reason, pattern: None, entry };
            self.plan.manager_writes.push(finding);
        } else {
            self.refuse_as(DenyCode::ProtectedPath, command, reason);
        }
    }

    /// Refuse a word that names the git directory through a glob or a substitution (`.gi?`,
    /// `$(git rev-parse --git-dir)`): the path checks see only literal words.
    fn git_dir_glob(&mut self, raw: &str, expansion: &Expansion) {
        let names_git = match expansion {
            Expansion::Globs(globs) => globs.iter().any(|g| g.has_component_matching(".git")),
            Expansion::Words(_) | Expansion::Unknown => false,
        };
        if names_git && self.plan.bypass.is_none() {
            self.plan.bypass = Some(ShellFinding {
                code: DenyCode::InvalidAgentInput,
                command: raw.to_owned(),
                reason: "names the git directory (the glob matches '.git'), which agents may \
                         never touch; use git commands"
                    .to_owned(),
                pattern: Some(crate::contract::RejectedPattern::GitDir),
                entry: None,
            });
        }
    }

    /// The command with its words and redirection targets expanded where the script says
    /// what they are ([`expand`]), each value a literal word.
    fn expanded(&mut self, mut command: lex::Command) -> lex::Command {
        let mut words = Vec::with_capacity(command.words.len());
        for word in std::mem::take(&mut command.words) {
            words.extend(self.expand_word(word));
        }
        command.words = words;
        for (_, target) in &mut command.redirects {
            let mut values = self.expand_word(target.clone());
            if values.len() == 1 {
                *target = values.remove(0);
            }
        }
        command
    }

    fn expand_word(&mut self, word: Word) -> Vec<Word> {
        if word.is_literal {
            return vec![word];
        }
        let expansion = expand::expand(&word.text, &self.scope);
        self.git_dir_glob(&word.text, &expansion);
        let literal = |text: String| Word { text, is_literal: true };
        match expansion {
            Expansion::Words(values) => values.into_iter().map(literal).collect(),
            Expansion::Globs(globs) => {
                let Some(cwd) = &self.cwd else { return vec![word] };
                let paths: Vec<String> = globs.iter().flat_map(|g| g.paths(cwd)).collect();
                if paths.is_empty() { vec![word] } else { paths.into_iter().map(literal).collect() }
            }
            Expansion::Unknown => vec![word],
        }
    }

    /// Analyse `script`, command by command.
    fn run(&mut self, script: &str) {
        let mut piped: Option<Stdin> = None;
        for (command, sep) in lex::lex(script) {
            let command = self.expanded(command);
            self.stdin = match (command.stdin_text(), piped.take()) {
                (Some(text), _) => Stdin::Text(text.to_owned()),
                (None, piped) => {
                    indirect::stdin_file(&command, self).or(piped).unwrap_or(Stdin::Inherited)
                }
            };
            self.plan.is_read_only &= only_reads(&command);
            for (kind, target) in &command.redirects {
                match kind {
                    RedirectKind::Write => self.add(target, Role::Create),
                    RedirectKind::Read => self.add(target, Role::Existing),
                    RedirectKind::Other | RedirectKind::HereString => {}
                }
            }
            indirect::substitutions(&command, self);
            self.simple(&command, matches!(sep, Sep::And | Sep::Seq));
            if sep == Sep::Pipe {
                piped = Some(indirect::stdout_of(&command, self));
            }
        }
    }
}

impl Ctx {
    /// The rules for one simple command, its words expanded and its standard input known.
    fn simple(&mut self, command: &lex::Command, is_chained: bool) {
        env::note(command, self);
        command::dispatch(&command.words, is_chained, self);
        // After the per-command rules, whose reasons are more specific.
        env::hooks_redirect(command, self);
        self.protect(command);
    }

    /// A command line another command runs (`xargs`, `find -exec`), with no standard input.
    fn run_words(&mut self, words: Vec<Word>) {
        let stdin = std::mem::replace(&mut self.stdin, Stdin::Inherited);
        let command = lex::Command { words, ..lex::Command::default() };
        self.simple(&command, false);
        self.stdin = stdin;
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
    let Some((program, args)) = args::program(&command.words) else { return !writes };
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
    let scope = Scope { pwd: Some(cwd.display().to_string()), ..Scope::default() };
    let mut ctx = Ctx::new(Some(cwd.to_owned()), 0, scope);
    ctx.run(script);
    env::finish(&mut ctx);
    ctx.plan
}
