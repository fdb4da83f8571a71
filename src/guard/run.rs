//! The I/O shell around [`super::decide`]: `parse_call` -> `Env::load` (roots, policy,
//! repository) -> `decide` through the file-system [`Checker`] -> the refusal worded with the
//! parent's listing and suggestions -> `finish` (the session counter).

use super::check::{self, Checker, Missing, Standing};
use super::decide::{Facts, Refusal, decide};
use super::session::{Event, Store};
use super::suggest::suggest;
use super::{
    Denial, DenyCode, GuardError, GuardPolicy, OnError, Outcome, PathArg, Protocol, Role, ToolCall,
    ToolKind, files, parse_call, protect, strategy_shift_instruction,
};
use super::{Reply, Stage, post_tool, replacement};
use crate::config::Config;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How the guard is run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The payload's protocol; `None` detects it.
    pub protocol: Option<Protocol>,
    /// The workspace root (`--repo`); default: the payload's roots, else the repository around
    /// the call's working directory, else that directory.
    pub repo: Option<PathBuf>,
    /// Where session files and the file-list cache live; default: `<gitdir>/patchgate/guard`,
    /// else `$XDG_STATE_HOME/patchgate/guard`.
    pub state_dir: Option<PathBuf>,
}

/// Judge one payload. Never fails: what cannot be evaluated is denied (writes always, reads
/// per `[guard] on_error_read`).
#[must_use]
pub fn run(stdin: &[u8], options: &Options) -> Outcome {
    let fallback = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    match parse_call(stdin, options.protocol, &fallback) {
        Ok(call) => run_call(&call, options),
        Err(e) => {
            let detected = serde_json::from_slice(stdin).ok().and_then(|v| Protocol::detect(&v));
            deny_error(options.protocol.or(detected), &e)
        }
    }
}

/// Judge one normalised call.
#[must_use]
pub fn run_call(call: &ToolCall, options: &Options) -> Outcome {
    let protocol = Some(call.protocol);
    match &call.stage {
        Stage::Other => return quiet(protocol),
        Stage::SessionBoundary => return session_boundary(call, options),
        Stage::PostTool { .. } => return post_tool::run(call, options),
        Stage::PreTool if call.kind == ToolKind::Unknown => return outcome(protocol, None),
        Stage::PreTool => {}
    }
    let env = match Env::load(call, options) {
        Ok(env) => env,
        Err(e) => return on_error(call, &GuardPolicy::default(), &e),
    };
    match evaluate(call, &env) {
        Ok(decision) => finish(call, &env, decision),
        Err(e) => on_error(call, &env.policy, &e),
    }
}

pub(super) fn outcome(protocol: Option<Protocol>, denial: Option<Denial>) -> Outcome {
    Outcome {
        protocol,
        reply: Reply::PreTool,
        replacement: None,
        denial,
        hallucination_count: 0,
        strategy_shift: false,
        instruction: None,
        notes: Vec::new(),
    }
}

/// An answer that changes nothing (events the guard does not judge).
pub(super) fn quiet(protocol: Option<Protocol>) -> Outcome {
    Outcome { reply: Reply::Quiet, ..outcome(protocol, None) }
}

/// A session started or ended: whatever streak it had is over.
fn session_boundary(call: &ToolCall, options: &Options) -> Outcome {
    let mut answer = quiet(Some(call.protocol));
    if let Err(e) = record(call, options, &Event::Reset) {
        answer.notes.push(format!("session state unavailable: {e}"));
    }
    answer
}

/// Apply `event` to the call's session, when it has one and a place to keep it; the count
/// after it (`None` without a session).
pub(super) fn record(
    call: &ToolCall,
    options: &Options,
    event: &Event,
) -> Result<Option<u32>, String> {
    let Some(session) = &call.session else { return Ok(None) };
    let start = options.repo.clone().or_else(|| call.roots.first().cloned());
    let start = nearest_existing(start.as_deref().unwrap_or(&call.cwd));
    let repo = crate::repo::discover(Some(&start)).ok();
    let root = repo.as_ref().and_then(git2::Repository::workdir).unwrap_or(&start);
    let policy = load_policy(root).unwrap_or_default();
    let state_dir = options.state_dir.clone().or_else(|| default_state_dir(repo.as_ref()));
    let Some(dir) = state_dir else { return Ok(None) };
    let ttl = Duration::from_secs(policy.session_ttl_hours.saturating_mul(3600));
    let state = Store::new(dir, ttl).record(session, event).map_err(|e| e.to_string())?;
    Ok(Some(state.count))
}

/// `path`, or its closest existing ancestor (a made-up working directory).
fn nearest_existing(path: &Path) -> PathBuf {
    path.ancestors().find(|p| p.exists()).unwrap_or(Path::new("/")).to_path_buf()
}

fn deny_error(protocol: Option<Protocol>, e: &GuardError) -> Outcome {
    let message = format!(
        "GUARD_ERROR: patchgate could not check this tool call ({e}); the call was blocked \
         because the guard fails closed. Fix the hook setup or the repository's .patchgate.toml."
    );
    outcome(protocol, Some(Denial::simple(DenyCode::GuardError, message, None)))
}

fn on_error(call: &ToolCall, policy: &GuardPolicy, e: &GuardError) -> Outcome {
    if call.kind.is_write() || policy.on_error_read == OnError::Deny {
        return deny_error(Some(call.protocol), e);
    }
    let mut allowed = outcome(Some(call.protocol), None);
    allowed.notes.push(format!("guard skipped (on_error_read = \"allow\"): {e}"));
    allowed
}

/// The filesystem and policy one call is judged against.
struct Env {
    /// Canonical workspace roots.
    workspace: Vec<PathBuf>,
    /// Workspace roots and extra roots: where paths may point.
    allowed: Vec<PathBuf>,
    repo: Option<git2::Repository>,
    /// Canonical root of the suggestions' file list.
    list_root: PathBuf,
    cwd_real: Option<PathBuf>,
    policy: GuardPolicy,
    state_dir: Option<PathBuf>,
}

impl Env {
    fn load(call: &ToolCall, options: &Options) -> Result<Self, GuardError> {
        let start = options.repo.clone().or_else(|| call.roots.first().cloned());
        let start = nearest_existing(start.as_deref().unwrap_or(&call.cwd));
        let repo = crate::repo::discover(Some(&start)).ok();
        let workdir = repo.as_ref().and_then(git2::Repository::workdir).map(Path::to_path_buf);
        let roots = match (&options.repo, &workdir) {
            (Some(dir), _) => vec![dir.clone()],
            (None, _) if !call.roots.is_empty() => call.roots.clone(),
            (None, dir) => vec![dir.clone().unwrap_or(start)],
        };
        let workspace = roots.iter().map(|r| canonical_root(r)).collect::<Result<Vec<_>, _>>()?;
        let policy = load_policy(&workspace[0])?;
        let mut allowed = workspace.clone();
        allowed.extend(policy.extra_roots.iter().filter_map(|r| std::fs::canonicalize(r).ok()));
        let list_root = match workdir.as_deref().map(std::fs::canonicalize) {
            Some(Ok(dir)) => dir,
            _ => workspace[0].clone(),
        };
        let state_dir = options.state_dir.clone().or_else(|| default_state_dir(repo.as_ref()));
        let cwd_real = std::fs::canonicalize(&call.cwd).ok();
        Ok(Self { workspace, allowed, repo, list_root, cwd_real, policy, state_dir })
    }

    /// `path` as the agent should read it: relative to its working directory when below it
    /// and the agent used relative paths, else absolute.
    fn show(&self, path: &Path, as_absolute: bool) -> String {
        let relative = self.cwd_real.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok());
        match relative {
            Some(rel) if !as_absolute && rel.as_os_str().is_empty() => ".".into(),
            Some(rel) if !as_absolute => rel.display().to_string(),
            _ => path.display().to_string(),
        }
    }
}

fn canonical_root(root: &Path) -> Result<PathBuf, GuardError> {
    std::fs::canonicalize(root).map_err(|e| {
        GuardError::Environment(format!(
            "the workspace root '{}' cannot be resolved ({e}); run the hook inside the project",
            root.display()
        ))
    })
}

fn load_policy(root: &Path) -> Result<GuardPolicy, GuardError> {
    let config = Config::load(root).map_err(|e| GuardError::Environment(e.to_string()))?;
    config.section("guard").map_err(|e| GuardError::Environment(e.to_string()))
}

fn default_state_dir(repo: Option<&git2::Repository>) -> Option<PathBuf> {
    if let Some(repo) = repo {
        return Some(repo.path().join("patchgate").join("guard"));
    }
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("patchgate").join("guard"))
}

/// What the checks found.
#[derive(Debug, Default)]
struct Decision {
    denial: Option<Denial>,
    is_discovery: bool,
    /// Some argument named something that exists (or a legitimate new file).
    is_real: bool,
    /// The resolved missing path, for the counter's similarity test.
    missing: Option<String>,
}

/// Decide (without the file system but through the checker), then word the refusal.
fn evaluate(call: &ToolCall, env: &Env) -> Result<Decision, GuardError> {
    let mut checker = Checker {
        roots: env.allowed.clone(),
        workspace: env.workspace.clone(),
        created: Vec::new(),
    };
    let verdict = decide(call, &mut checker)
        .map_err(|e| GuardError::Environment(format!("cannot inspect {e}")))?;
    let mut decision = Decision {
        is_discovery: verdict.is_discovery,
        is_real: verdict.is_real,
        ..Decision::default()
    };
    decision.denial = verdict.refusal.map(|refusal| match refusal {
        Refusal::Command(finding) => {
            let code = finding.code;
            let message = format!("{}: '{}' {}.", code.as_str(), finding.command, finding.reason);
            Denial::simple(code, message, None)
        }
        Refusal::Pattern(arg, rejection) => pattern_denial(&arg, rejection),
        Refusal::Protected(arg, entry) => {
            let message = format!("PROTECTED_PATH: '{}' {}.", arg.raw, protect::reason(entry));
            Denial::simple(DenyCode::ProtectedPath, message, Some(arg.raw))
        }
        Refusal::Outside(arg, real) => outside_denial(&arg, &real, env),
        Refusal::Missing(arg, missing) => {
            decision.missing = Some(missing.real.display().to_string());
            missing_denial(&arg, &missing, env)
        }
    });
    Ok(decision)
}

/// A seed-003 pattern in an argument.
fn pattern_denial(arg: &PathArg, rejection: check::Rejection) -> Denial {
    let message = if rejection.message.contains(&rejection.pattern) {
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

impl Facts for Checker {
    fn standing(&mut self, arg: &PathArg) -> std::io::Result<Standing> {
        self.check(arg)
    }

    fn workspace_relative(&self, arg: &PathArg) -> Option<String> {
        let resolved = check::resolve_entry(arg).ok()?;
        let rel = self.workspace.iter().find_map(|root| resolved.strip_prefix(root).ok())?;
        rel.to_str().map(str::to_owned)
    }
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

fn missing_denial(arg: &PathArg, missing: &Missing, env: &Env) -> Denial {
    let as_absolute = Path::new(&arg.raw).is_absolute();
    let (listing, omitted) =
        check::listing(&missing.ancestor, env.policy.listing_limit).unwrap_or_default();
    let suggestions: Vec<String> = suggestions(env, missing, wants_directory(arg))
        .iter()
        .map(|p| env.show(p, as_absolute))
        .collect();
    let parent = env.show(&missing.ancestor, as_absolute);
    let message = missing_message(arg, missing, &parent, (&listing, omitted), &suggestions);
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
        Role::Directory => true,
        Role::Entry => {
            let name = arg.raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            !name.trim_start_matches('.').contains('.')
        }
        _ => false,
    }
}

fn missing_message(
    arg: &PathArg,
    missing: &Missing,
    parent: &str,
    (listing, omitted): (&[String], usize),
    suggestions: &[String],
) -> String {
    let kind = if wants_directory(arg) { "directory" } else { "file" };
    let what = if missing.is_parent_gone { "the directory of " } else { "" };
    let mut text = format!("PATH_NOT_FOUND: {what}'{}' does not exist. ", arg.raw);
    let more = if omitted > 0 { format!(" (and {omitted} more)") } else { String::new() };
    let contents = if listing.is_empty() { "nothing".to_owned() } else { listing.join(", ") };
    let _ = write!(
        text,
        "The closest existing directory is '{parent}', which contains: {contents}{more}. "
    );
    if suggestions.is_empty() {
        let _ = write!(
            text,
            "No similarly named {kind} exists in the repository; search for it (glob, grep) \
             before retrying. "
        );
    } else {
        let _ = write!(text, "Did you mean: {}? ", suggestions.join(", "));
    }
    text.push_str("The tool call was blocked; retry with an existing path");
    if missing.is_parent_gone {
        text.push_str(", or create the directory first if a new one is intended");
    }
    text.push('.');
    text
}

/// Absolute paths of the likely intended entries (empty when the path is outside the
/// repository or the file list is unavailable).
fn suggestions(env: &Env, missing: &Missing, want_dir: bool) -> Vec<PathBuf> {
    let Ok(relative) = missing.real.strip_prefix(&env.list_root) else { return Vec::new() };
    let Some(relative) = relative.to_str() else { return Vec::new() };
    let kind = if want_dir { files::Kind::Dirs } else { files::Kind::Files };
    let index = match &env.repo {
        Some(repo) => {
            let query_len = super::suggest::query_len(relative);
            files::from_git(repo, env.state_dir.as_deref(), kind, query_len).unwrap_or_default()
        }
        None => files::from_walk(&env.list_root, kind),
    };
    suggest(&index, relative, env.policy.suggestion_limit)
        .iter()
        .map(|s| env.list_root.join(s))
        .collect()
}

fn finish(call: &ToolCall, env: &Env, decision: Decision) -> Outcome {
    let is_not_found = decision.denial.as_ref().is_some_and(|d| d.code == DenyCode::PathNotFound);
    let event = match decision.missing {
        Some(path) if is_not_found && !decision.is_discovery => Event::Hallucination(path),
        _ if decision.is_discovery || decision.denial.is_none() && decision.is_real => Event::Reset,
        _ => Event::Neutral,
    };
    let mut result = outcome(Some(call.protocol), decision.denial);
    let is_hallucination = matches!(event, Event::Hallucination(_));
    result.hallucination_count = u32::from(is_hallucination);
    if let (Some(session), Some(dir)) = (&call.session, &env.state_dir) {
        let ttl = Duration::from_secs(env.policy.session_ttl_hours.saturating_mul(3600));
        match Store::new(dir.clone(), ttl).record(session, &event) {
            Ok(state) => result.hallucination_count = state.count,
            Err(e) => result.notes.push(format!("session state unavailable: {e}")),
        }
    }
    result.strategy_shift = is_hallucination && result.hallucination_count >= 2;
    result.instruction =
        result.strategy_shift.then(|| strategy_shift_instruction(result.hallucination_count));
    if call.is_cline_sdk {
        result.replacement = result.denial.as_ref().and_then(|d| replacement::input(call, d));
    }
    result
}
