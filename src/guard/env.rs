//! What one call is judged against: the workspace roots, the repository, `[guard]` and
//! `[limits]` of its `.patchgate.toml`, and where the session state and the file-list cache
//! live. Also the session record of calls that need nothing else (after-call and session
//! events).

use super::session::{Event, Store};
use super::{GuardError, GuardPolicy, Options, ToolCall, ToolKind};
use crate::config::{Config, Limits};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The filesystem and policy one call is judged against.
pub(super) struct Env {
    /// Canonical workspace roots.
    pub workspace: Vec<PathBuf>,
    /// Workspace roots and extra roots: where paths may point.
    pub allowed: Vec<PathBuf>,
    pub repo: Option<git2::Repository>,
    /// Canonical root of the suggestions' file list.
    pub list_root: PathBuf,
    pub cwd_real: Option<PathBuf>,
    pub policy: GuardPolicy,
    pub limits: Limits,
    pub state_dir: Option<PathBuf>,
}

impl Env {
    pub fn load(call: &ToolCall, options: &Options) -> Result<Self, GuardError> {
        let start = start_dir(call, options);
        let repo = crate::repo::discover(Some(&start)).ok();
        let workdir = repo.as_ref().and_then(git2::Repository::workdir).map(Path::to_path_buf);
        let roots = match (&options.repo, &workdir) {
            (Some(dir), _) => vec![dir.clone()],
            (None, _) if !call.roots.is_empty() => call.roots.clone(),
            (None, dir) => vec![dir.clone().unwrap_or(start)],
        };
        let workspace = roots.iter().map(|r| canonical_root(r)).collect::<Result<Vec<_>, _>>()?;
        let (policy, limits) = load_policy(&workspace[0])?;
        let mut allowed = workspace.clone();
        allowed.extend(policy.extra_roots.iter().filter_map(|r| std::fs::canonicalize(r).ok()));
        let list_root = match workdir.as_deref().map(std::fs::canonicalize) {
            Some(Ok(dir)) => dir,
            _ => workspace[0].clone(),
        };
        let state_dir = options.state_dir.clone().or_else(|| default_state_dir(repo.as_ref()));
        let cwd_real = std::fs::canonicalize(&call.cwd).ok();
        Ok(Self { workspace, allowed, repo, list_root, cwd_real, policy, limits, state_dir })
    }

    /// `path` as the agent should read it: relative to its working directory when below it
    /// and the agent used relative paths, else absolute.
    pub fn show(&self, path: &Path, as_absolute: bool) -> String {
        let relative = self.cwd_real.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok());
        match relative {
            Some(rel) if !as_absolute && rel.as_os_str().is_empty() => ".".into(),
            Some(rel) if !as_absolute => rel.display().to_string(),
            _ => path.display().to_string(),
        }
    }

    /// Note that files may appear or go (a call that writes runs): the snapshot of the files
    /// on disk is checked again at the next miss.
    pub fn mark_tree_stale(&self) {
        if let Some(state) = &self.state_dir {
            super::tree::mark_stale(&super::tree::location(state, &self.list_root));
        }
    }

    /// Note what `call` writes for the next miss: a file tool's paths, where they land (the
    /// directories holding them are checked); a shell command's effects are unseen, so every
    /// directory is.
    pub fn note_writes(&self, call: &ToolCall) {
        let Some(state) = &self.state_dir else { return };
        let dir = super::tree::location(state, &self.list_root);
        let landing = |arg: &super::PathArg| {
            let real = super::check::resolve_all(arg).ok()?;
            real.strip_prefix(&self.list_root).ok()?.to_str().map(str::to_owned)
        };
        // Only a call whose every written path is a path argument: a patch envelope's files
        // (Codex `apply_patch`) and a command's are not.
        let by_path =
            call.kind == ToolKind::Write && call.patch.is_none() && call.command.is_none();
        let written: Option<Vec<String>> = if by_path && !call.paths.is_empty() {
            call.paths.iter().map(landing).collect()
        } else {
            None
        };
        match written {
            Some(paths) => super::tree::note_written(&dir, &paths),
            None => super::tree::mark_stale(&dir),
        }
    }

    /// Apply `event` to the call's session; the count after it (`None` without a session or a
    /// place to keep it).
    pub fn record(&self, call: &ToolCall, event: &Event) -> Result<Option<u32>, String> {
        let Some((store, session)) = self.store(call) else { return Ok(None) };
        let state = store.record(session, event).map_err(|e| e.to_string())?;
        Ok(Some(state.count))
    }

    /// Take the message the call's session keeps for the model (a correction's, for the
    /// after-call event of the corrected call).
    pub fn take_note(&self, call: &ToolCall) -> Result<Option<String>, String> {
        let Some((store, session)) = self.store(call) else { return Ok(None) };
        store.take_note(session).map_err(|e| e.to_string())
    }

    fn store<'c>(&self, call: &'c ToolCall) -> Option<(Store, &'c str)> {
        let (Some(session), Some(dir)) = (&call.session, &self.state_dir) else { return None };
        let ttl = Duration::from_secs(self.policy.session_ttl_hours.saturating_mul(3600));
        Some((Store::new(dir.clone(), ttl), session))
    }
}

/// Where the workspace is looked for: `--repo`, the payload's first root, else its working
/// directory (or that directory's closest existing ancestor: a made-up one).
fn start_dir(call: &ToolCall, options: &Options) -> PathBuf {
    let start = options.repo.clone().or_else(|| call.roots.first().cloned());
    nearest_existing(start.as_deref().unwrap_or(&call.cwd))
}

/// The session store and policy of a call that needs nothing else (after-call and session
/// events): what [`Env::load`] would find, without failing on a broken policy.
pub(super) fn session_only(call: &ToolCall, options: &Options) -> Env {
    let start = start_dir(call, options);
    let repo = crate::repo::discover(Some(&start)).ok();
    let root = repo.as_ref().and_then(git2::Repository::workdir).unwrap_or(&start).to_owned();
    let (policy, limits) = load_policy(&root).unwrap_or_default();
    let state_dir = options.state_dir.clone().or_else(|| default_state_dir(repo.as_ref()));
    // As `load` resolves it: the snapshot of the files on disk is found by this path.
    let list_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    Env {
        workspace: vec![root.clone()],
        allowed: vec![root.clone()],
        repo,
        list_root,
        cwd_real: None,
        policy,
        limits,
        state_dir,
    }
}

/// The `[limits]` in force before a payload is read (so before its working directory is
/// known): those of the repository at `--repo`, else around the current directory, where
/// every agent runs its hooks; the defaults when there is none or its policy is broken (the
/// call is then refused for that reason once read).
#[must_use]
pub fn payload_limits(options: &Options) -> Limits {
    let start = match &options.repo {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
    };
    let repo = crate::repo::discover(Some(&start)).ok();
    let root = repo.as_ref().and_then(git2::Repository::workdir).unwrap_or(&start);
    load_policy(root).map(|(_, limits)| limits).unwrap_or_default()
}

/// `path`, or its closest existing ancestor (a made-up working directory).
fn nearest_existing(path: &Path) -> PathBuf {
    path.ancestors().find(|p| p.exists()).unwrap_or(Path::new("/")).to_path_buf()
}

fn canonical_root(root: &Path) -> Result<PathBuf, GuardError> {
    std::fs::canonicalize(root).map_err(|e| {
        GuardError::Environment(format!(
            "the workspace root '{}' cannot be resolved ({e}); run the hook inside the project",
            root.display()
        ))
    })
}

fn load_policy(root: &Path) -> Result<(GuardPolicy, Limits), GuardError> {
    let config = Config::load(root).map_err(|e| GuardError::Environment(e.to_string()))?;
    let policy = config.section("guard").map_err(|e| GuardError::Environment(e.to_string()))?;
    Ok((policy, config.limits()))
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
