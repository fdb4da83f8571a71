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

use super::{PathArg, Role};
use lex::{RedirectKind, Sep, Word};
use std::path::{Path, PathBuf};

/// What a shell command means to the guard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShellPlan {
    /// File operands, in command order.
    pub operands: Vec<PathArg>,
    /// Why the command skips git hooks, when it does (`git commit --no-verify`).
    pub bypass: Option<ShellFinding>,
    /// Whether some command lists or searches (`ls`, `find`, `grep`, `rg`).
    pub is_discovery: bool,
}

/// A refusal the command line earns without looking at any file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellFinding {
    /// The command as written, for the message.
    pub command: String,
    /// Why it is refused and what to do instead.
    pub reason: String,
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
        self.plan.operands.extend(inner.operands);
        self.plan.is_discovery |= inner.is_discovery;
        if let Some(finding) = inner.bypass {
            self.refuse(finding.command, finding.reason);
        }
    }

    fn refuse(&mut self, command: String, reason: String) {
        if self.plan.bypass.is_none() {
            self.plan.bypass = Some(ShellFinding { command, reason });
        }
    }
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
    let mut ctx = Ctx { cwd: Some(cwd.to_owned()), plan: ShellPlan::default() };
    for (command, sep) in lex::lex(script) {
        for (kind, target) in &command.redirects {
            match kind {
                RedirectKind::Write => ctx.add(target, Role::Create),
                RedirectKind::Read => ctx.add(target, Role::Existing),
                RedirectKind::Other => {}
            }
        }
        let is_cd_chain = matches!(sep, Sep::And | Sep::Seq);
        command::dispatch(&command.words, is_cd_chain, &mut ctx);
    }
    ctx.plan
}
