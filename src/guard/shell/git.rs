//! `git` command lines that walk around the repository's hooks:
//!
//! - skipping them: `commit --no-verify`/`-n`, `merge`/`push`/`am`/`rebase --no-verify`;
//! - pointing git at other hooks or commands: `-c core.hooksPath=...` (or `--config-env`) on a
//!   command that runs hooks, `-c alias.*`/`include.*`/`includeIf.*` on any, and `git config`
//!   writing `alias.*`, `include.*`, `includeIf.*` (an alias or an included file can hold
//!   `commit --no-verify` or `core.hooksPath`) or opening the editor;
//! - making commits no hook sees: `commit-tree`, `update-ref`, `fast-import`, `replay`,
//!   `replace`, `filter-branch`, `stash create`/`store`, and moving a branch onto a stash commit
//!   (`reset --soft stash@{0}`, `merge stash`, `cherry-pick -m 1 stash`): `git stash` records
//!   the worktree as commits without hooks, so a branch moved there carries undeclared changes;
//! - `git apply` of a patch that changes what configures the gate.

use super::lex::Word;
use super::{Ctx, Stdin, write};

/// Subcommands that run hooks `-c core.hooksPath` would replace.
const HOOK_RUNNERS: &[&str] =
    &["commit", "merge", "am", "push", "rebase", "cherry-pick", "revert", "pull"];
/// Subcommands with a long `--no-verify` (their `-n` means something else).
const NO_VERIFY_LONG: &[&str] = &["merge", "push", "am", "rebase", "commit"];
/// `git commit` short options whose value follows (attached or as the next word).
const COMMIT_SHORT_VALUES: &str = "mFCctSu";
/// Plumbing that writes commits or moves refs without any hook.
const HOOKLESS: &[&str] = &[
    "commit-tree",
    "update-ref",
    "fast-import",
    "replay",
    "replace",
    "filter-branch",
    "filter-repo",
];
/// Subcommands that make a commit from, or move a branch to, the revisions they are given.
const REF_MOVERS: &[&str] = &[
    "reset",
    "merge",
    "cherry-pick",
    "rebase",
    "revert",
    "branch",
    "switch",
    "checkout",
    "pull",
    "push",
    "fetch",
    "worktree",
];

/// What the global options (before the subcommand) say.
struct Globals {
    /// Where the subcommand is.
    sub_at: usize,
    /// Whether `-c core.hooksPath=...` is given.
    redirects_hooks: bool,
    /// A `-c` setting that defines an alias or includes a file.
    alias_or_include: Option<String>,
}

pub(super) fn check(args: &[Word], ctx: &mut Ctx) {
    let globals = global_options(args);
    let Some(sub) = args.get(globals.sub_at) else { return };
    let rest = &args[globals.sub_at + 1..];
    let sub = sub.text.as_str();
    let written = || {
        let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        format!("git {}", words.join(" "))
    };
    if HOOK_RUNNERS.contains(&sub) {
        ctx.hooks.runs_hooks = true;
    }
    if let Some(setting) = globals.alias_or_include {
        let reason = format!(
            "sets '{setting}' for this command: an alias or an included configuration file can \
             run 'commit --no-verify' or set core.hooksPath; run git without it"
        );
        ctx.refuse(written(), reason);
    } else if HOOKLESS.contains(&sub)
        || sub == "stash" && first_operand_is(rest, &["create", "store"])
    {
        let reason = "writes commits or moves branches without running the repository's git \
                      hooks; use 'git commit'";
        ctx.refuse(written(), reason.into());
    } else if globals.redirects_hooks && HOOK_RUNNERS.contains(&sub) {
        let reason = "sets core.hooksPath for this command, which replaces the repository's \
                      git hooks; run it without -c core.hooksPath";
        ctx.refuse(written(), reason.into());
    } else if NO_VERIFY_LONG.contains(&sub) && skips_verify(sub, rest) {
        let reason = format!(
            "skips the repository's git hooks; run 'git {sub}' without --no-verify{} and fix \
             what the hooks report",
            if sub == "commit" { "/-n" } else { "" }
        );
        ctx.refuse(written(), reason);
    } else if REF_MOVERS.contains(&sub) && names_stash(sub, rest) {
        let reason = "takes a stash commit, which git recorded without running the hooks, into \
                      a branch; apply the stash ('git stash pop') and commit with 'git commit'";
        ctx.refuse(written(), reason.into());
    } else if sub == "config" {
        config(rest, ctx, written());
    } else if sub == "apply" {
        apply(rest, ctx);
    }
}

fn first_operand_is(rest: &[Word], names: &[&str]) -> bool {
    rest.iter().find(|w| !w.text.starts_with('-')).is_some_and(|w| names.contains(&w.text.as_str()))
}

/// Where the subcommand is, and what `-c`/`--config-env` set.
fn global_options(args: &[Word]) -> Globals {
    let mut globals = Globals { sub_at: 0, redirects_hooks: false, alias_or_include: None };
    let note = |globals: &mut Globals, setting: &str| {
        globals.redirects_hooks |= names_hooks_path(setting);
        if is_alias_or_include(setting.split('=').next().unwrap_or("")) {
            globals.alias_or_include.get_or_insert_with(|| setting.to_owned());
        }
    };
    let mut at = 0;
    while let Some(word) = args.get(at) {
        let text = word.text.as_str();
        match text {
            "-c" | "--config-env" => {
                let value = args.get(at + 1).map_or("", |w| w.text.as_str());
                note(&mut globals, value);
                at += 2;
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" => at += 2,
            _ if text.starts_with("--config-env=") => {
                note(&mut globals, &text["--config-env=".len()..]);
                at += 1;
            }
            _ if text.starts_with("-c") && text.len() > 2 => {
                note(&mut globals, &text[2..]);
                at += 1;
            }
            _ if text.starts_with('-') => at += 1,
            _ => break,
        }
    }
    globals.sub_at = at;
    globals
}

fn names_hooks_path(setting: &str) -> bool {
    let key = setting.split('=').next().unwrap_or("");
    key.eq_ignore_ascii_case("core.hooksPath")
}

/// `alias.*`, `include.*`, `includeIf.*` (git's keys ignore case in their sections).
fn is_alias_or_include(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    ["alias.", "include.", "includeif."].iter().any(|p| key.starts_with(p))
}

/// `git config`: a write of an alias or an include, or the editor (which can write anything).
fn config(rest: &[Word], ctx: &mut Ctx, written: String) {
    let words: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
    let reads = [
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "-l",
        "--list",
        "--get-color",
        "--get-colorbool",
    ];
    let operands: Vec<&str> = words.iter().copied().filter(|w| !w.starts_with('-')).collect();
    if words.iter().any(|w| matches!(*w, "-e" | "--edit")) || operands.first() == Some(&"edit") {
        let reason = "opens git's configuration in an editor, which can set anything there \
                      (core.hooksPath, aliases); set one key with 'git config KEY VALUE'";
        ctx.refuse(written, reason.into());
        return;
    }
    let is_read = words.iter().any(|w| reads.contains(w))
        || matches!(operands.first(), Some(&("get" | "list")))
        || operands.len() == 1;
    if let Some(key) = operands.iter().find(|k| is_alias_or_include(k))
        && !is_read
    {
        let reason = format!(
            "sets '{key}': an alias or an included configuration file can run 'commit \
             --no-verify' or set core.hooksPath; ask the user to change git's configuration"
        );
        ctx.refuse(written, reason);
    }
}

/// Whether the revisions given name a stash commit (`stash`, `stash@{0}`, `refs/stash`,
/// `stash^`, `+stash:main`).
fn names_stash(sub: &str, rest: &[Word]) -> bool {
    // `git checkout stash@{0} -- FILE` copies files out of it; the commit that follows runs
    // the hooks.
    if sub == "checkout" && rest.iter().any(|w| w.text == "--") {
        return false;
    }
    rest.iter()
        .filter(|w| !w.text.starts_with('-'))
        .any(|w| w.text.trim_start_matches('+').split(':').any(is_stash))
}

fn is_stash(revision: &str) -> bool {
    let rest = revision.strip_prefix("refs/").unwrap_or(revision);
    rest.strip_prefix("stash")
        .is_some_and(|after| after.is_empty() || after.starts_with(['@', '^', '~']))
}

/// `git apply`: the patch's targets, from its files or standard input, must not be what
/// configures the gate; `--check`, `--stat` and the like only read.
fn apply(rest: &[Word], ctx: &mut Ctx) {
    let only_reads = ["--check", "--stat", "--numstat", "--summary"];
    let words: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
    if words.iter().any(|w| only_reads.contains(w)) && !words.contains(&"--apply") {
        return;
    }
    let directory = words.iter().find_map(|w| w.strip_prefix("--directory="));
    let files: Vec<&Word> = rest.iter().filter(|w| !w.text.starts_with('-')).collect();
    ctx.add_all(files.iter().copied(), crate::guard::Role::Existing);
    let text = if files.is_empty() {
        match &ctx.stdin {
            Stdin::Text(text) => Some(text.clone()),
            Stdin::Inherited => return,
            Stdin::Unknown => None,
        }
    } else if files.iter().any(|f| !f.is_literal) {
        None
    } else {
        // A file that cannot be read makes git fail; its operand check says why.
        let texts: Option<Vec<String>> = files.iter().map(|f| write::read_patch(f, ctx)).collect();
        Some(texts.map_or_else(String::new, |t| t.concat()))
    };
    let text = match (text, directory) {
        (Some(text), Some(dir)) => Some(text.replace("+++ b/", &format!("+++ b/{dir}/"))),
        (text, _) => text,
    };
    write::applies(text.as_deref(), None, "git apply", ctx);
}

/// Whether the options end up skipping hooks (a later `--verify` undoes `--no-verify`).
fn skips_verify(sub: &str, args: &[Word]) -> bool {
    let mut skips = false;
    let mut at = 0;
    while let Some(word) = args.get(at) {
        at += 1;
        let text = word.text.as_str();
        if text == "--" {
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            if long.len() >= "no-veri".len() && "no-verify".starts_with(long) {
                skips = true;
            } else if long.len() >= "veri".len() && "verify".starts_with(long) {
                skips = false;
            }
        } else if sub == "commit" && text.starts_with('-') && text.len() > 1 {
            let (has_n, takes_next) = short_cluster(&text[1..]);
            skips |= has_n;
            at += usize::from(takes_next);
        }
    }
    skips
}

/// `-an`, `-nm msg`: whether `n` is one of the flags (before any option that takes the rest of
/// the cluster as its value), and whether the next word is a value.
fn short_cluster(cluster: &str) -> (bool, bool) {
    let mut has_n = false;
    for (i, c) in cluster.char_indices() {
        if c == 'n' {
            has_n = true;
        }
        if COMMIT_SHORT_VALUES.contains(c) {
            let is_last = i + 1 == cluster.len();
            // `-u` and `-S` take only attached values.
            return (has_n, is_last && !matches!(c, 'u' | 'S'));
        }
    }
    (has_n, false)
}
