//! `git` command lines that skip the repository's hooks: `commit --no-verify`/`-n`,
//! `merge`/`push`/`am`/`rebase --no-verify`, any hook-running command under
//! `-c core.hooksPath=...` (or `--config-env`), which points git at other hooks, and the
//! plumbing that commits without hooks (`commit-tree`, `update-ref`).

use super::Ctx;
use super::lex::Word;

/// Subcommands that run hooks `-c core.hooksPath` would replace.
const HOOK_RUNNERS: &[&str] = &["commit", "merge", "am", "push", "rebase", "cherry-pick", "revert"];
/// Subcommands with a long `--no-verify` (their `-n` means something else).
const NO_VERIFY_LONG: &[&str] = &["merge", "push", "am", "rebase", "commit"];
/// `git commit` short options whose value follows (attached or as the next word).
const COMMIT_SHORT_VALUES: &str = "mFCctSu";

pub(super) fn check(args: &[Word], ctx: &mut Ctx) {
    let (sub_at, redirects_hooks) = global_options(args);
    let Some(sub) = args.get(sub_at) else { return };
    let rest = &args[sub_at + 1..];
    let sub = sub.text.as_str();
    let written = || {
        let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        format!("git {}", words.join(" "))
    };
    if matches!(sub, "commit-tree" | "update-ref") {
        let reason = "writes a commit or moves a branch without running the repository's git \
                      hooks; use 'git commit'";
        ctx.refuse(written(), reason.into());
    } else if redirects_hooks && HOOK_RUNNERS.contains(&sub) {
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
    }
}

/// Index of the subcommand, and whether a global option redirects hooks.
fn global_options(args: &[Word]) -> (usize, bool) {
    let mut at = 0;
    let mut redirects = false;
    while let Some(word) = args.get(at) {
        let text = word.text.as_str();
        match text {
            "-c" | "--config-env" => {
                let value = args.get(at + 1).map_or("", |w| w.text.as_str());
                redirects |= names_hooks_path(value);
                at += 2;
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" => at += 2,
            _ if text.starts_with("--config-env=") => {
                redirects |= names_hooks_path(&text["--config-env=".len()..]);
                at += 1;
            }
            _ if text.starts_with('-') => at += 1,
            _ => break,
        }
    }
    (at, redirects)
}

fn names_hooks_path(setting: &str) -> bool {
    let key = setting.split('=').next().unwrap_or("");
    key.eq_ignore_ascii_case("core.hooksPath")
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
