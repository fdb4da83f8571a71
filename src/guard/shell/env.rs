//! Environment variables that decide which hooks git runs, or whether they do anything: the
//! ones git reads its configuration from on every run (`GIT_CONFIG_PARAMETERS`,
//! `GIT_CONFIG_COUNT`/`KEY_n`) are refused wherever they are set; the ones that point git, a
//! hook manager or the shim at other files (`HOME`, `GIT_CONFIG_GLOBAL`, `PATH`, `HUSKY=0`,
//! `SKIP`, ...) are refused when the same script runs a git command that runs hooks
//! (`HOME=/tmp/h git commit`, `export HUSKY=0; git commit`), and left alone otherwise
//! (`HOME=$PWD/.home npm test`). Variables set to literal values are also kept for `$NAME`.

use super::args::{is_assignment, program};
use super::expand::{self, Expansion};
use super::lex::{self, Word};
use super::{Ctx, written};

/// Variables that change which hooks run, or whether they do anything, with why.
const HOOK_VARIABLES: &[(&str, &str)] = &[
    (
        "GIT_CONFIG_GLOBAL",
        "points git at another global configuration, which can set core.hooksPath",
    ),
    (
        "GIT_CONFIG_SYSTEM",
        "points git at another system configuration, which can set core.hooksPath",
    ),
    ("GIT_CONFIG", "points git at another configuration file, which can set core.hooksPath"),
    ("GIT_EXEC_PATH", "puts other programs in place of git's own commands"),
    ("HOME", "points git and husky at another home, whose configuration can replace the hooks"),
    ("XDG_CONFIG_HOME", "points git and husky at other configuration, which can replace the hooks"),
    ("PATH", "can put another program in place of git or patchgate for the hooks"),
    ("HUSKY", "turns husky's hooks off"),
    ("LEFTHOOK", "turns lefthook's hooks off"),
    ("LEFTHOOK_EXCLUDE", "skips lefthook's commands by name"),
    ("LEFTHOOK_CONFIG", "gives lefthook another configuration"),
    ("SKIP", "skips the pre-commit framework's hooks by id"),
];

/// The hook variables a script set, and whether it runs a git command that runs hooks.
#[derive(Debug, Default)]
pub(super) struct HookEnv {
    /// Each hook variable set: its name and the command that set it.
    set: Vec<(&'static str, String)>,
    /// Whether a git command that runs hooks (`commit`, `merge`, `push`, ...) runs.
    pub runs_hooks: bool,
}

impl HookEnv {
    pub fn merge(&mut self, other: Self) {
        self.set.extend(other.set);
        self.runs_hooks |= other.runs_hooks;
    }
}

/// Note what `command` sets: hook variables (prefix assignments, `env`, `export` and the like,
/// standalone assignments), and variables the rest of the script may use.
pub(super) fn note(command: &lex::Command, ctx: &mut Ctx) {
    let words = &command.words;
    if let [first, name, word_in, values @ ..] = words.as_slice()
        && first.text == "for"
        && word_in.text == "in"
    {
        loop_values(&name.text, values, ctx);
        return;
    }
    let is_standalone = !words.is_empty() && words.iter().all(is_assignment);
    let declares = program(words)
        .is_some_and(|(p, _)| matches!(p, "export" | "declare" | "typeset" | "local" | "readonly"));
    let assignments: Vec<&Word> = if is_standalone || declares {
        words.iter().filter(|w| is_assignment(w)).collect()
    } else {
        prefix_assignments(words)
    };
    for word in &assignments {
        let name = word.text.split_once('=').map_or("", |(n, _)| n);
        if let Some((name, _)) = HOOK_VARIABLES.iter().find(|(v, _)| *v == name) {
            ctx.hooks.set.push((name, written(command)));
        }
    }
    if is_standalone || declares {
        for word in assignments {
            remember(word, ctx);
        }
    }
}

/// `NAME=value` for later `$NAME`: literal values are kept, others forget the name.
fn remember(word: &Word, ctx: &mut Ctx) {
    let Some((name, value)) = word.text.split_once('=') else { return };
    let value = if word.is_literal {
        Some(value.to_owned())
    } else {
        match expand::expand(value, &ctx.scope) {
            Expansion::Words(mut values) if values.len() == 1 => values.pop(),
            _ => None,
        }
    };
    match value {
        Some(value) => ctx.scope.vars.insert(name.to_owned(), vec![value]),
        None => ctx.scope.vars.remove(name),
    };
}

/// `for NAME in WORDS`: `$NAME` stands for each word (when every one is known).
fn loop_values(name: &str, values: &[Word], ctx: &mut Ctx) {
    let known: Option<Vec<String>> =
        values.iter().map(|w| w.is_literal.then(|| w.text.clone())).collect();
    match known {
        Some(values) if !values.is_empty() => ctx.scope.vars.insert(name.to_owned(), values),
        _ => ctx.scope.vars.remove(name),
    };
}

/// The assignments before the program, also past wrappers (`sudo`, `env A=b`, `nice`).
fn prefix_assignments(words: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    for word in words {
        if is_assignment(word) {
            out.push(word);
        } else if !(word.text.starts_with('-')
            || matches!(word.text.as_str(), "env" | "sudo" | "doas" | "nice" | "nohup" | "time"))
        {
            break;
        }
    }
    out
}

/// Settings that point git at other hooks from the environment or the config, wherever they
/// appear: `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`/`KEY`, and any word naming
/// `core.hooksPath` (`git config core.hooksPath /dev/null`).
pub(super) fn hooks_redirect(command: &lex::Command, ctx: &mut Ctx) {
    let found = command.words.iter().find(|w| {
        let text = w.text.to_ascii_lowercase();
        text.contains("core.hookspath")
            || ["git_config_parameters=", "git_config_count=", "git_config_key_"]
                .iter()
                .any(|v| text.starts_with(v) || text.contains(&format!(" {v}")))
    });
    if let Some(word) = found {
        let reason = format!(
            "sets '{}', which can point git at other hooks than the repository's; commit with \
             the repository's hooks",
            word.text
        );
        ctx.refuse(written(command), reason);
    }
}

/// At the end of the script: a hook variable set where a git command that runs hooks runs.
pub(super) fn finish(ctx: &mut Ctx) {
    if !ctx.hooks.runs_hooks {
        return;
    }
    if let Some((name, command)) = ctx.hooks.set.first().cloned() {
        let why = HOOK_VARIABLES.iter().find(|(v, _)| *v == name).map_or("", |(_, why)| *why);
        let reason = format!(
            "sets {name} for a script that runs a git command with hooks; {name} {why}. Run git \
             with the environment it has"
        );
        ctx.refuse(command, reason);
    }
}
