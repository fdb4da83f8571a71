//! A [`Refusal`] worded for the agent: the denial's code, message and fields, with the
//! closest existing directory's listing and the likely intended paths for a missing one.

use super::check::{self, Missing};
use super::decide::Refusal;
use super::env::Env;
use super::suggest::{Index, suggest_all};
use super::{Denial, DenyCode, PathArg, Role, files, protect, tree};
use crate::config::LimitExceeded;
use crate::contract::RejectedPattern;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How a missing path's message ends (before any advice on creating its directory).
pub(super) const BLOCKED: &str = "The tool call was blocked; retry with an existing path";
/// The same, for a call that reads several files and reads the others.
const PARTLY_BLOCKED: &str = "This file was not read (the others were); retry it with an \
                              existing path";

/// A missing path argument and the existing entries it most likely meant (absolute, best
/// first, at least two when two exist, so "exactly one" can be told apart).
#[derive(Clone, Debug)]
pub(super) struct Missed {
    pub arg: PathArg,
    /// The path resolved, for the counter's similarity test.
    pub real: String,
    pub suggested: Vec<PathBuf>,
}

/// The denial for `refusal`, and the missing argument when that is the reason.
pub(super) fn word(refusal: Refusal, env: &Env) -> (Denial, Option<Missed>) {
    let denial = match refusal {
        Refusal::Command(finding) => {
            let code = finding.code;
            let message = format!("{}: '{}' {}.", code.as_str(), finding.command, finding.reason);
            let mut denial = Denial::simple(code, message, None);
            denial.rejected_pattern = finding.pattern;
            denial
        }
        Refusal::Pattern(arg, rejection) => pattern_denial(&arg, &rejection),
        Refusal::Protected(arg, entry) => {
            let reason = if arg.role == Role::Extract {
                protect::unseen_reason(entry)
            } else {
                protect::reason(entry)
            };
            let message = format!("PROTECTED_PATH: '{}' {reason}.", arg.raw);
            Denial::simple(DenyCode::ProtectedPath, message, Some(arg.raw))
        }
        Refusal::Outside(arg, real) => outside_denial(&arg, &real, env),
        Refusal::Limit(arg, exceeded) => limit_denial(arg.map(|a| a.raw), &exceeded),
        Refusal::Missing(arg, missing) => {
            let (suggested, unread) = suggestions(env, &missing, wants_directory(&arg));
            let denial = missing_denial(&arg, &missing, (&suggested, unread), env);
            let real = missing.real.display().to_string();
            return (denial, Some(Missed { arg, real, suggested }));
        }
    };
    (denial, None)
}

/// An argument, command or payload over a `[limits]` setting.
pub(super) fn limit_denial(path: Option<String>, exceeded: &LimitExceeded) -> Denial {
    let message = format!(
        "INVALID_AGENT_INPUT: {exceeded} (rejected pattern: {}). The tool call was blocked.",
        RejectedPattern::LimitExceeded
    );
    let mut denial = Denial::simple(DenyCode::InvalidAgentInput, message, path);
    denial.rejected_pattern = Some(RejectedPattern::LimitExceeded);
    denial
}

/// An argument-rejection pattern in an argument.
fn pattern_denial(arg: &PathArg, rejection: &check::Rejection) -> Denial {
    let message = if rejection.message.contains(rejection.pattern.as_str()) {
        format!("INVALID_AGENT_INPUT: {}.", rejection.message)
    } else {
        format!(
            "INVALID_AGENT_INPUT: {} (rejected pattern: {}).",
            rejection.message, rejection.pattern
        )
    };
    let mut denial = Denial::simple(DenyCode::InvalidAgentInput, message, Some(arg.raw.clone()));
    denial.rejected_pattern = Some(rejection.pattern);
    denial
}

fn outside_denial(arg: &PathArg, real: &Path, env: &Env) -> Denial {
    let roots: Vec<String> = env.workspace.iter().map(|r| r.display().to_string()).collect();
    let message = format!(
        "PATH_OUTSIDE_WORKSPACE: '{}' resolves to '{}', outside the workspace ({}). Use a path \
         inside the workspace; a directory agents may use outside it belongs in [guard] \
         extra_roots of .patchgate.toml.",
        arg.raw,
        real.display(),
        roots.join(", ")
    );
    Denial::simple(DenyCode::PathOutsideWorkspace, message, Some(arg.raw.clone()))
}

/// The denial of a missing path, `suggested` found with `unread` directories of the tree not
/// read yet.
fn missing_denial(
    arg: &PathArg,
    missing: &Missing,
    (suggested, unread): (&[PathBuf], usize),
    env: &Env,
) -> Denial {
    let as_absolute = Path::new(&arg.raw).is_absolute();
    let (listing, omitted) =
        check::listing(&missing.ancestor, env.policy.listing_limit).unwrap_or_default();
    let suggestions: Vec<String> = suggested
        .iter()
        .take(env.policy.suggestion_limit)
        .map(|p| env.show(p, as_absolute))
        .collect();
    let parent = env.show(&missing.ancestor, as_absolute);
    let link = dangling_link(missing).map(|(link, target)| (env.show(&link, as_absolute), target));
    let message = if let Some(link) = &link {
        link_message(arg, link, &parent, (&listing, omitted), &suggestions)
    } else {
        let found = Found { suggestions: &suggestions, unread };
        missing_message(arg, missing, &parent, (&listing, omitted), &found)
    };
    Denial {
        code: DenyCode::PathNotFound,
        message,
        path: Some(arg.raw.clone()),
        parent: Some(parent),
        parent_listing: listing,
        parent_listing_omitted: omitted,
        suggestions,
        rejected_pattern: None,
    }
}

/// Whether a missing argument names a directory: a directory argument, or a file-or-directory
/// argument whose last component has no extension.
fn wants_directory(arg: &PathArg) -> bool {
    match arg.role {
        Role::Directory | Role::Extract => true,
        Role::Entry => {
            let name = arg.raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            !name.trim_start_matches('.').contains('.')
        }
        _ => false,
    }
}

/// The suggestions for a missing path, as shown, and how many directories of the tree were not
/// read for them (a walk outside a repository that is not complete yet).
struct Found<'a> {
    suggestions: &'a [String],
    unread: usize,
}

impl Found<'_> {
    /// What the answer says of the unread part: nothing once the walk is complete.
    fn part(&self) -> String {
        match self.unread {
            0 => String::new(),
            1 => "1 directory".to_owned(),
            n => format!("{n} directories"),
        }
    }
}

fn missing_message(
    arg: &PathArg,
    missing: &Missing,
    parent: &str,
    (listing, omitted): (&[String], usize),
    found: &Found<'_>,
) -> String {
    let suggestions = found.suggestions;
    let kind = if wants_directory(arg) { "directory" } else { "file" };
    let what = if missing.is_parent_gone { "the directory of " } else { "" };
    let mut text = format!("PATH_NOT_FOUND: {what}'{}' does not exist. ", arg.raw);
    let more = if omitted > 0 { format!(" (and {omitted} more)") } else { String::new() };
    let contents = if listing.is_empty() { "nothing".to_owned() } else { listing.join(", ") };
    let _ = write!(
        text,
        "The closest existing directory is '{parent}', which contains: {contents}{more}. "
    );
    let part = found.part();
    if suggestions.is_empty() && part.is_empty() {
        let _ = write!(
            text,
            "No similarly named {kind} exists in the repository; search for it (glob, grep) \
             before retrying. "
        );
    } else if suggestions.is_empty() {
        let _ = write!(
            text,
            "No similarly named {kind} was found in the part of the tree read so far ({part} \
             not read yet); search for it (glob, grep) before retrying. "
        );
    } else if part.is_empty() {
        let _ = write!(text, "Did you mean: {}? ", suggestions.join(", "));
    } else {
        let _ = write!(
            text,
            "Did you mean: {}? (Found in the part of the tree read so far, {part} not read \
             yet: if none is meant, search for it with glob or grep.) ",
            suggestions.join(", ")
        );
    }
    text.push_str(BLOCKED);
    if missing.is_parent_gone {
        text.push_str(", or create the directory first if a new one is intended");
    }
    text.push('.');
    text
}

/// The first symbolic link on the missing part of the path, and its target: a link whose
/// target is missing (the link itself exists, so the file list names it).
fn dangling_link(missing: &Missing) -> Option<(PathBuf, PathBuf)> {
    let below = missing.real.strip_prefix(&missing.ancestor).ok()?;
    let mut path = missing.ancestor.clone();
    for component in below.components() {
        path.push(component);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if meta.file_type().is_symlink() {
            return Some((path.clone(), std::fs::read_link(&path).ok()?));
        }
    }
    None
}

/// A path that is (or goes through) a link whose target is missing: suggesting the path
/// itself would send the agent back to it, so the link is named and what would fix it.
fn link_message(
    arg: &PathArg,
    (link, target): &(String, PathBuf),
    parent: &str,
    (listing, omitted): (&[String], usize),
    suggestions: &[String],
) -> String {
    let subject = if link.ends_with(arg.raw.trim_end_matches('/')) {
        format!("'{}' is a symbolic link", arg.raw)
    } else {
        format!("'{}' goes through '{link}', a symbolic link", arg.raw)
    };
    let more = if omitted > 0 { format!(" (and {omitted} more)") } else { String::new() };
    let contents = if listing.is_empty() { "nothing".to_owned() } else { listing.join(", ") };
    let mut text = format!(
        "PATH_NOT_FOUND: {subject} to '{}', which does not exist. The closest existing \
         directory is '{parent}', which contains: {contents}{more}. ",
        target.display()
    );
    if !suggestions.is_empty() {
        let _ = write!(text, "Other similarly named files: {}. ", suggestions.join(", "));
    }
    text.push_str(
        "The tool call was blocked; use the link only once its target exists, or point it at \
         an existing file.",
    );
    text
}

/// Absolute paths of the likely intended entries, at least two when two exist (empty when the
/// path is outside the repository or the file list is unavailable), and how many directories
/// of the tree they were not looked for in yet.
fn suggestions(env: &Env, missing: &Missing, want_dir: bool) -> (Vec<PathBuf>, usize) {
    let Ok(relative) = missing.real.strip_prefix(&env.list_root) else { return (Vec::new(), 0) };
    let Some(relative) = relative.to_str() else { return (Vec::new(), 0) };
    let kind = if want_dir { files::Kind::Dirs } else { files::Kind::Files };
    let (lists, unread) = file_lists(env, kind, relative);
    let lists: Vec<&Index> = lists.iter().collect();
    // The file list names a dangling link as a file: never suggest the path that was missing.
    let suggested = suggest_all(&lists, relative, env.policy.suggestion_limit.max(2) + 1)
        .iter()
        .map(|s| env.list_root.join(s))
        .filter(|s| *s != missing.real)
        .take(env.policy.suggestion_limit.max(2))
        .collect();
    (suggested, unread)
}

/// The lists a miss at `near` (relative) is matched against: the git index's files, and the
/// files on disk it does not list (outside a repository, every file on disk); with how many
/// directories of the tree are not read yet ([`tree::walk_budget`]).
fn file_lists(env: &Env, kind: files::Kind, near: &str) -> (Vec<Index>, usize) {
    let mut lists = Vec::new();
    // Read once for both lists, at its first use.
    let tracked = env.repo.as_ref().map(files::tracked);
    if let Some(tracked) = &tracked {
        let state = env.state_dir.as_deref();
        lists.extend(files::from_git(tracked, state, kind).unwrap_or_default());
    }
    let walk = tree::Walk {
        root: &env.list_root,
        tracked: tracked.as_ref(),
        extra_rules: env.repo.iter().map(|r| r.commondir().join("info/exclude")).collect(),
        // In a repository the index lists most files, and the rest are walked at once.
        budget: env.repo.is_none().then(tree::walk_budget),
        near,
    };
    let on_disk = match &env.state_dir {
        Some(state) => tree::index(&tree::location(state, &env.list_root), &walk, kind),
        None => Some(tree::OnDisk { indexes: vec![kind.index(&tree::files(&walk))], unread: 0 }),
    };
    let unread = on_disk.as_ref().map_or(0, |on_disk| on_disk.unread);
    lists.extend(on_disk.into_iter().flat_map(|on_disk| on_disk.indexes));
    (lists, unread)
}

/// `denial` worded for a call that still reads its other files (Cline's `read_files`, which
/// reads each file on its own).
pub(super) fn partly_blocked(mut denial: Denial) -> Denial {
    denial.message = denial.message.replace(BLOCKED, PARTLY_BLOCKED);
    denial
}
