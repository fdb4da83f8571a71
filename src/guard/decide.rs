//! The guard's decision, apart from the world: which argument of a call is refused and why, as
//! data. The file system is asked only through [`Facts`] (where a path stands, what it names in
//! the workspace), so the decision is a function of the call and those answers; `run` is the
//! shell around it (policy, repository, listing and suggestions, the session counter).

use super::check::{self, Missing, Rejection, Standing};
use super::shell::{self, ShellFinding};
use super::{PathArg, Role, ToolCall, ToolKind, envelope, manifest, protect};
use crate::config::{LimitExceeded, Limits, check_limit};
use crate::contract::ArgPolicy;
use std::io;
use std::path::PathBuf;

/// What the file system says about path arguments.
pub(super) trait Facts {
    /// Where `arg` stands (containment, then existence as its role needs), after the earlier
    /// arguments of the same call.
    fn standing(&mut self, arg: &PathArg) -> io::Result<Standing>;
    /// The workspace-relative path `arg` names (its directory resolved, its last component
    /// not followed), when it is inside the workspace.
    fn workspace_relative(&self, arg: &PathArg) -> Option<String>;
    /// The workspace-relative path a write to `arg` lands in: every link followed, dangling
    /// ones too, when that is inside the workspace.
    fn resolved_relative(&self, arg: &PathArg) -> Option<String>;
    /// The workspace's `package.json`, when husky installs the repository's hooks (a `.husky`
    /// directory at the root).
    fn husky_manifest(&self) -> Option<String>;
    /// Whether the hook manager whose protected entry is `entry` runs patchgate in the
    /// workspace (true for `.patchgate.toml`, and whenever that cannot be read).
    fn runs_gate(&self, entry: &str) -> bool;
}

/// Why a call is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// The command skips the hooks, or changes what configures the gate.
    Command(ShellFinding),
    /// A hallucination pattern in an argument (traversal, encodings, `.git`, ...).
    Pattern(PathArg, Rejection),
    /// A write to what configures the gate (`.patchgate.toml`, hook managers).
    Protected(PathArg, &'static str),
    /// The argument resolves outside the workspace and the extra roots.
    Outside(PathArg, PathBuf),
    /// The argument (or the parent of a new file) does not exist.
    Missing(PathArg, Missing),
    /// The command, the patch or a path argument is over a `[limits]` setting.
    Limit(Option<PathArg>, LimitExceeded),
}

/// The decision on one call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Verdict {
    /// `None`: allowed.
    pub refusal: Option<Refusal>,
    /// The call lists or searches (it resets the hallucination counter).
    pub is_discovery: bool,
    /// Some argument named something that exists (or a legitimate new file).
    pub is_real: bool,
    /// The call only reads: a reading tool, a discovery, or a shell command of readers.
    pub is_read_only: bool,
}

/// Every path argument of the call, expanded from shell commands and patch envelopes.
struct Plan {
    operands: Vec<PathArg>,
    finding: Option<ShellFinding>,
    manager_writes: Vec<ShellFinding>,
    is_discovery: bool,
    is_read_only: bool,
}

fn expand(call: &ToolCall) -> Plan {
    let is_discovery = call.kind == ToolKind::Discovery;
    let is_read_only = matches!(call.kind, ToolKind::Read | ToolKind::Discovery);
    let operands = call.paths.clone();
    let mut plan =
        Plan { operands, finding: None, manager_writes: Vec::new(), is_discovery, is_read_only };
    if let Some(patch) = &call.patch {
        plan.operands.extend(envelope::paths(patch, &call.cwd));
    }
    if let Some(command) = &call.command {
        // `apply_patch <<'EOF' ... EOF` (Codex runs its patch tool through the shell too) is a
        // command like any other: its envelope is its heredoc, and what follows it is read.
        let analysed = shell::analyse(command, &call.command_dir);
        plan.operands.extend(analysed.operands);
        plan.finding = analysed.bypass;
        plan.manager_writes = analysed.manager_writes;
        plan.is_discovery |= analysed.is_discovery;
        plan.is_read_only = analysed.is_read_only;
    }
    plan
}

/// Decide on `call`: its size first (before a command or patch is analysed), then the command
/// (hook bypasses, protected paths), then the arguments' lengths and patterns (before anything
/// touches the file system), then writes to protected entries, then containment and existence,
/// argument by argument.
pub(super) fn decide(
    call: &ToolCall,
    facts: &mut dyn Facts,
    limits: &Limits,
) -> io::Result<Verdict> {
    let refuse = |mut verdict: Verdict, refusal| {
        verdict.refusal = Some(refusal);
        Ok(verdict)
    };
    if let Err(e) = check_sizes(call, limits) {
        return refuse(Verdict::default(), Refusal::Limit(None, e));
    }
    let plan = expand(call);
    let mut verdict = Verdict {
        is_discovery: plan.is_discovery,
        is_read_only: plan.is_read_only,
        ..Verdict::default()
    };
    let gated =
        plan.manager_writes.into_iter().find(|w| w.entry.is_none_or(|e| facts.runs_gate(e)));
    if let Some(finding) = plan.finding.or(gated) {
        return refuse(verdict, Refusal::Command(finding));
    }
    if let Some(refusal) = missing_shell_dir(call, facts)? {
        return refuse(verdict, refusal);
    }
    let policy = ArgPolicy::builtin();
    for arg in &plan.operands {
        if let Err(e) = check_path(arg, limits) {
            return refuse(verdict, Refusal::Limit(Some(arg.clone()), e));
        }
        if let Some(rejection) = check::reject_pattern(policy, &arg.raw) {
            return refuse(verdict, Refusal::Pattern(arg.clone(), rejection));
        }
    }
    if let Some((arg, entry)) = protected_write(call, &plan.operands, facts) {
        return refuse(verdict, Refusal::Protected(arg, entry));
    }
    if let Some(arg) = husky_manifest_write(call, &plan.operands, facts) {
        return refuse(verdict, Refusal::Protected(arg, manifest::HUSKY_SETTINGS));
    }
    for arg in &plan.operands {
        let standing = facts
            .standing(arg)
            .map_err(|e| io::Error::new(e.kind(), format!("'{}': {e}", arg.raw)))?;
        match standing {
            Standing::Fine { is_real } => verdict.is_real |= is_real,
            Standing::Outside(real) => return refuse(verdict, Refusal::Outside(arg.clone(), real)),
            Standing::Missing(missing) => {
                return refuse(verdict, Refusal::Missing(arg.clone(), missing));
            }
        }
    }
    Ok(verdict)
}

/// The command and the patch envelope against `[limits]`, before either is analysed.
fn check_sizes(call: &ToolCall, limits: &Limits) -> Result<(), LimitExceeded> {
    if let Some(command) = &call.command {
        check_limit("command_bytes", limits.command_bytes, command.len(), || {
            "the length in bytes of the shell command".to_owned()
        })?;
    }
    if let Some(patch) = &call.patch {
        check_limit("patch_bytes", limits.patch_bytes, patch.len(), || {
            "the size in bytes of the patch".to_owned()
        })?;
    }
    Ok(())
}

/// One path argument against `[limits]` (as validate checks the paths a patch names).
fn check_path(arg: &PathArg, limits: &Limits) -> Result<(), LimitExceeded> {
    let head = || arg.raw.chars().take(60).collect::<String>();
    check_limit("path_bytes", limits.path_bytes, arg.raw.len(), || {
        format!("the length in bytes of the path '{}...'", head())
    })?;
    check_limit("path_depth", limits.path_depth, arg.raw.split('/').count(), || {
        format!("the number of components of the path '{}...'", head())
    })
}

/// A shell command whose working directory does not exist (Codex runs its shell in the
/// payload's `cwd`, which the model may have made up): the command cannot run there.
fn missing_shell_dir(call: &ToolCall, facts: &mut dyn Facts) -> io::Result<Option<Refusal>> {
    let is_explicit = call.paths.iter().any(|p| p.role == Role::Directory);
    if call.kind != ToolKind::Shell || call.command.is_none() || is_explicit {
        return Ok(None);
    }
    let raw = call.command_dir.to_string_lossy().into_owned();
    let arg = PathArg { raw, role: Role::Directory, base: PathBuf::from("/") };
    match facts.standing(&arg)? {
        Standing::Missing(missing) => Ok(Some(Refusal::Missing(arg, missing))),
        _ => Ok(None),
    }
}

/// Whether `arg` is written: every argument of a file tool that writes, the operands a shell
/// command creates, changes or removes.
fn is_write(call: &ToolCall, arg: &PathArg) -> bool {
    match call.kind {
        ToolKind::Write => true,
        ToolKind::Shell => !matches!(arg.role, Role::Existing | Role::Directory | Role::Entry),
        _ => false,
    }
}

/// A write to `package.json` in a repository whose hooks husky installs (and runs patchgate): by a file tool, when
/// the manifest it leaves changes husky's settings; by a shell command, always (its content is
/// unseen).
fn husky_manifest_write(
    call: &ToolCall,
    operands: &[PathArg],
    facts: &dyn Facts,
) -> Option<PathArg> {
    let names = |arg: &&PathArg| {
        let rel = [facts.workspace_relative(arg), facts.resolved_relative(arg)];
        rel.iter().flatten().any(|r| r == manifest::MANIFEST)
    };
    let arg = operands.iter().filter(|a| is_write(call, a)).find(names)?;
    let before = facts.husky_manifest().filter(|_| facts.runs_gate(".husky"))?;
    if call.kind == ToolKind::Write {
        let after = manifest::after(&call.input, &before)?;
        return manifest::changes_husky(&before, &after).then(|| arg.clone());
    }
    Some(arg.clone())
}

/// A write (a file tool, or a shell operand the command creates or removes) to an entry that
/// configures the gate.
fn protected_write(
    call: &ToolCall,
    operands: &[PathArg],
    facts: &dyn Facts,
) -> Option<(PathArg, &'static str)> {
    operands.iter().filter(|a| is_write(call, a)).find_map(|arg| {
        let entry = if arg.role == Role::Extract {
            protect::protected_below(&facts.workspace_relative(arg)?)?
        } else {
            // The entry as named, and, through a link, the file the write lands in.
            let named = facts.workspace_relative(arg).and_then(|rel| protect::protected(&rel));
            named.or_else(|| protect::protected(&facts.resolved_relative(arg)?))?
        };
        facts.runs_gate(entry).then(|| (arg.clone(), entry))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::{DenyCode, Protocol};
    use std::path::Path;

    /// A world where `existing` paths exist under `/w` and nothing else does.
    struct World {
        existing: Vec<&'static str>,
        /// The hook managers' entries that run patchgate.
        gated: Vec<&'static str>,
    }

    impl Facts for World {
        fn standing(&mut self, arg: &PathArg) -> io::Result<Standing> {
            let real = check::lexical_join(&arg.base, &arg.raw);
            if !real.starts_with("/w") {
                return Ok(Standing::Outside(real));
            }
            if self.existing.iter().any(|e| real == Path::new("/w").join(e)) {
                return Ok(Standing::Fine { is_real: true });
            }
            let ancestor = PathBuf::from("/w");
            Ok(Standing::Missing(Missing { real, ancestor, is_parent_gone: false }))
        }

        fn workspace_relative(&self, arg: &PathArg) -> Option<String> {
            let real = check::lexical_join(&arg.base, &arg.raw);
            Some(real.strip_prefix("/w").ok()?.to_str()?.to_owned())
        }

        fn resolved_relative(&self, arg: &PathArg) -> Option<String> {
            self.workspace_relative(arg)
        }

        fn husky_manifest(&self) -> Option<String> {
            None
        }

        fn runs_gate(&self, entry: &str) -> bool {
            !crate::path::is_hook_manager(entry) || self.gated.contains(&entry)
        }
    }

    fn call(kind: ToolKind, paths: &[&str], command: Option<&str>) -> ToolCall {
        let role = if kind == ToolKind::Write { Role::Create } else { Role::Existing };
        let paths = paths
            .iter()
            .map(|p| PathArg { raw: (*p).to_owned(), role, base: PathBuf::from("/w") })
            .collect();
        ToolCall {
            protocol: Protocol::Generic,
            stage: crate::guard::Stage::PreTool,
            input: serde_json::Value::Null,
            is_cline_sdk: false,
            session: None,
            roots: Vec::new(),
            cwd: PathBuf::from("/w"),
            tool_name: "tool".to_owned(),
            kind,
            paths,
            command: command.map(str::to_owned),
            command_dir: PathBuf::from("/w"),
            patch: None,
        }
    }

    fn refusal(call: &ToolCall) -> Option<Refusal> {
        refusal_in(call, &[])
    }

    fn refusal_in(call: &ToolCall, gated: &[&'static str]) -> Option<Refusal> {
        let existing = vec!["", "src/a.rs", ".patchgate.toml", ".pre-commit-config.yaml"];
        let mut world = World { existing, gated: gated.to_vec() };
        decide(call, &mut world, &Limits::default()).expect("the world answers").refusal
    }

    #[test]
    fn the_decision_needs_no_file_system() {
        assert_eq!(refusal(&call(ToolKind::Read, &["src/a.rs"], None)), None);
        assert!(matches!(
            refusal(&call(ToolKind::Read, &["src/b.rs"], None)),
            Some(Refusal::Missing(..))
        ));
        assert!(matches!(
            refusal(&call(ToolKind::Read, &["/etc/passwd"], None)),
            Some(Refusal::Outside(..))
        ));
        assert!(matches!(
            refusal(&call(ToolKind::Read, &["../x"], None)),
            Some(Refusal::Pattern(..))
        ));
        assert!(matches!(
            refusal(&call(ToolKind::Write, &[".patchgate.toml"], None)),
            Some(Refusal::Protected(_, ".patchgate.toml"))
        ));
        let bypass = call(ToolKind::Shell, &[], Some("git commit --no-verify -m x"));
        assert!(matches!(refusal(&bypass), Some(Refusal::Command(_))));
    }

    #[test]
    fn a_hook_manager_is_protected_where_it_runs_patchgate() {
        let config = ".pre-commit-config.yaml";
        let edit = call(ToolKind::Write, &[config], None);
        assert_eq!(refusal_in(&edit, &[]), None, "a manager that runs only linters");
        assert!(matches!(refusal_in(&edit, &[config]), Some(Refusal::Protected(_, _))));
        let removal = call(ToolKind::Shell, &[], Some("rm .pre-commit-config.yaml"));
        assert_eq!(refusal_in(&removal, &[]), None);
        assert!(matches!(refusal_in(&removal, &[config]), Some(Refusal::Command(_))));
        // An ungated manager's file written first does not hide what follows it.
        let script = "echo x > .pre-commit-config.yaml && git commit --no-verify -m x";
        assert!(matches!(refusal_in(&call(ToolKind::Shell, &[], Some(script)), &[]),
            Some(Refusal::Command(f)) if f.code == DenyCode::HookBypass));
        let both = "rm .pre-commit-config.yaml lefthook.yml";
        let gated = refusal_in(&call(ToolKind::Shell, &[], Some(both)), &["lefthook.yml"]);
        assert!(matches!(gated, Some(Refusal::Command(f)) if f.entry == Some("lefthook.yml")));
        // The policy itself, always.
        let policy = call(ToolKind::Shell, &[], Some("rm .patchgate.toml"));
        assert!(matches!(refusal_in(&policy, &[]), Some(Refusal::Command(_))));
    }
}
