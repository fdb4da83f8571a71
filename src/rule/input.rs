//! What every rule reads: the step, the decoded result, the parsed patch, and the step's globs
//! compiled once.

use super::base_files::BaseFiles;
use crate::patch::{Defect, DefectCode, FilePatch, Operation, Parsed, Patch};
use crate::path::{self, GlobError, PathError, PathSet, RepoPath};
use crate::step::{ExecutorResult, Mode, Step};
use crate::summary::{Base, ChangeSummary};
use std::collections::{HashMap, HashSet};

/// The inputs of [`super::evaluate`]. Pure data: no repository, no I/O. Build it with
/// [`Input::new`], which checks every path once for every rule: the header paths of the patch
/// and of `applyPatch`, and the `filesWritten` and `filesTouched` entries.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The orchestrator's step.
    pub step: &'a Step,
    /// The executor's result, already through [`super::schema::check`].
    pub result: &'a ExecutorResult,
    /// The result's `patch`, parsed; `None` when the result carries no (or an empty) patch.
    pub patch: Option<&'a Parsed<'a>>,
    /// The step's `applyPatch` (the earlier `apply` run), parsed without a defect.
    pub apply_patch: Option<&'a Patch<'a>>,
    /// The step's globs and the repository's excluded paths.
    pub scope: &'a Scope,
    /// The base tree's paths, when there is a repository: what grounds the files a
    /// description names (see [`Input::with_base`]).
    pub base: Option<&'a dyn Base>,
    /// The base tree's files, read once for every rule that scans past the patch.
    pub(crate) base_files: Option<BaseFiles<'a>>,
    /// What the patch does to each file's structure (see [`Input::with_summary`]).
    pub summary: Option<&'a ChangeSummary>,
    /// Every header path of `patch`, checked once.
    paths: Vec<PatchPath<'a, 'a>>,
    /// Every header path of `apply_patch`, checked once.
    apply_paths: Vec<PatchPath<'a, 'a>>,
    /// Each file entry's own path (see [`FilePatch::path`]) in `paths` or `apply_paths`, by the
    /// entry's address.
    own_path: HashMap<usize, Result<RepoPath, PathError>>,
    /// `filesWritten`, each entry checked, in order.
    written: Vec<Result<RepoPath, PathError>>,
    /// `filesTouched`, each entry checked, in order.
    touched: Vec<Result<RepoPath, PathError>>,
    /// Whether `patch` is usable (see [`Input::usable_patch`]).
    is_usable: bool,
}

impl<'a> Input<'a> {
    /// Gather the inputs; `patch` is the result's parsed patch (`None` without one) and
    /// `apply_patch` the step's clean `applyPatch`.
    #[must_use]
    pub fn new(
        step: &'a Step,
        result: &'a ExecutorResult,
        patch: Option<&'a Parsed<'a>>,
        apply_patch: Option<&'a Patch<'a>>,
        scope: &'a Scope,
    ) -> Self {
        let paths = patch.map(|p| patch_paths(&p.patch)).unwrap_or_default();
        let apply_paths = apply_patch.map(patch_paths).unwrap_or_default();
        let own_path = paths
            .iter()
            .chain(&apply_paths)
            .filter(|p| p.raw == p.file.path())
            .map(|p| (address(p.file), p.checked.clone()))
            .collect();
        let check_list = |list: Option<&[String]>| -> Vec<_> {
            list.unwrap_or_default().iter().map(|p| path::check(p)).collect()
        };
        let mut input = Self {
            step,
            result,
            patch,
            apply_patch,
            scope,
            base: None,
            base_files: None,
            summary: None,
            paths,
            apply_paths,
            own_path,
            written: check_list(result.files_written.as_deref()),
            touched: check_list(result.files_touched.as_deref()),
            is_usable: false,
        };
        input.is_usable = input.compute_usable();
        input
    }

    fn compute_usable(&self) -> bool {
        let has_base = self.base.is_some();
        self.patch.is_some_and(|p| p.defects.iter().all(|d| !is_structural(d, has_base)))
            && self.paths.iter().all(|p| p.checked.is_ok())
    }

    /// Ground the description's file names in the base tree: without one, a token that looks
    /// like a path cannot be told from prose, and the rules that read them only take notes.
    #[must_use]
    pub fn with_base(mut self, base: &'a dyn Base) -> Self {
        self.base = Some(base);
        self.base_files = Some(BaseFiles::new(base));
        self.is_usable = self.compute_usable();
        self
    }

    /// The change summary of the usable patch ([`crate::summary::summarize`], computed once
    /// by the caller for every rule, the report and the judge). Without one, the semantic rules
    /// summarise what they need themselves.
    #[must_use]
    pub fn with_summary(mut self, summary: Option<&'a ChangeSummary>) -> Self {
        self.summary = summary;
        self
    }

    /// The patch when it parsed without a structural defect and every header path passes the
    /// path checks: the rules that read file entries and hunks only trust a patch in that state
    /// (any other is the `malformed` rule's business). A context-only hunk is no structural
    /// defect: it is the `zero-impact` rule's.
    #[must_use]
    pub fn usable_patch(&self) -> Option<&'a Patch<'a>> {
        self.patch.filter(|_| self.is_usable).map(|p| &p.patch)
    }

    /// Every path the patch's file entries name (both sides of renames and copies), checked.
    #[must_use]
    pub fn paths(&self) -> &[PatchPath<'a, 'a>] {
        &self.paths
    }

    /// Every path the `applyPatch` entries name, checked.
    #[must_use]
    pub fn apply_paths(&self) -> &[PatchPath<'a, 'a>] {
        &self.apply_paths
    }

    /// A file entry's own path (its new path, the old one of a deletion) as checked once, for an
    /// entry of the patch or of `applyPatch`; `None` when it failed the checks.
    #[must_use]
    pub fn own_path(&self, file: &FilePatch<'_>) -> Option<&RepoPath> {
        match self.own_path.get(&address(file)) {
            Some(checked) => checked.as_ref().ok(),
            None => None,
        }
    }

    /// A file entry's display name: its checked path, or its bytes escaped.
    #[must_use]
    pub fn file_name(&self, file: &FilePatch<'_>) -> String {
        match self.own_path.get(&address(file)) {
            Some(Ok(p)) => p.to_string(),
            Some(Err(_)) => path::display_bytes(file.path()),
            None => file_name(file),
        }
    }

    /// `filesWritten`, each entry checked, in order.
    pub fn written(&self) -> &[Result<RepoPath, PathError>] {
        &self.written
    }

    /// `filesTouched`, each entry checked, in order.
    pub fn touched(&self) -> &[Result<RepoPath, PathError>] {
        &self.touched
    }

    /// The result's mode, when it is one patchgate knows.
    #[must_use]
    pub fn mode(&self) -> Option<Mode> {
        match self.result.mode.as_str() {
            "apply" => Some(Mode::Apply),
            "fix_regression" => Some(Mode::FixRegression),
            _ => None,
        }
    }

    /// Whether the result carries a non-empty patch.
    #[must_use]
    pub fn has_patch(&self) -> bool {
        self.result.patch.as_deref().is_some_and(|p| !p.trim().is_empty())
    }

    /// `filesWritten` entries that pass the path checks, normalised.
    #[must_use]
    pub fn files_written(&self) -> HashSet<RepoPath> {
        self.written.iter().filter_map(|p| p.as_ref().ok().cloned()).collect()
    }

    /// `filesTouched` entries that pass the path checks, normalised.
    #[must_use]
    pub fn files_touched(&self) -> HashSet<RepoPath> {
        self.touched.iter().filter_map(|p| p.as_ref().ok().cloned()).collect()
    }
}

/// A file entry's address: entries are borrowed from their patch for as long as the input
/// lives, so it names one entry.
fn address(file: &FilePatch<'_>) -> usize {
    std::ptr::from_ref(file).addr()
}

/// Whether a parser defect makes the patch unreadable: all but a context-only hunk, and, when
/// there is a base tree to place the hunks by their context, stated ranges that overlap.
#[must_use]
pub fn is_structural(defect: &Defect, has_base: bool) -> bool {
    match defect.code {
        DefectCode::ContextOnlyHunk => false,
        // Stated ranges that overlap are often line numbers an agent got slightly wrong: with a
        // base tree the hunks are placed by their context, and only a real overlap is refused.
        DefectCode::HunkOverlap => !has_base,
        _ => true,
    }
}

/// The step's path policy, compiled: excluded globs (the step's and the repository's),
/// `allowedFiles`, and `applyFiles`.
#[derive(Debug, Clone)]
pub struct Scope {
    /// `excludedPaths`.
    pub excluded: PathSet,
    /// `.patchgate.toml`'s `excluded`, as the policy compiled it.
    pub repo_excluded: PathSet,
    /// `allowedFiles`; `None` allows every path not excluded.
    pub allowed: Option<PathSet>,
    /// `applyFiles` (matched as globs too, so a directory name covers its files).
    pub apply_files: Option<PathSet>,
    /// `allowedFiles` as written: an entry equal to a path names it exactly.
    allowed_names: Vec<String>,
}

impl Scope {
    /// Compile the step's globs, beside the repository's compiled `excluded` list.
    pub fn new(step: &Step, repo_excluded: &PathSet) -> Result<Self, GlobError> {
        Ok(Self {
            excluded: PathSet::excluding(&step.excluded_paths)?,
            repo_excluded: repo_excluded.clone(),
            allowed: step.allowed_files.as_deref().map(PathSet::new).transpose()?,
            apply_files: step.apply_files.as_deref().map(PathSet::new).transpose()?,
            allowed_names: step.allowed_files.clone().unwrap_or_default(),
        })
    }

    /// The first pattern (the step's, then the repository's) that excludes `path`.
    #[must_use]
    pub fn excluded_by(&self, path: &str) -> Option<&str> {
        self.excluded.matching_pattern(path).or_else(|| self.repo_excluded.matching_pattern(path))
    }

    /// Whether `allowedFiles` names `path` itself (not through a glob or a directory).
    #[must_use]
    pub fn names_exactly(&self, path: &str) -> bool {
        self.allowed_names.iter().any(|n| n.trim_start_matches("./") == path)
    }
}

/// One path named by a file entry: both sides of a rename or copy count.
#[derive(Debug, Clone)]
pub struct PatchPath<'p, 'a> {
    /// The entry naming it.
    pub file: &'p FilePatch<'a>,
    /// The path as written (decoded from C quoting), for messages.
    pub raw: &'p [u8],
    /// The path after the safety checks.
    pub checked: Result<RepoPath, PathError>,
}

impl PatchPath<'_, '_> {
    /// What the entry does to this path, as a verb phrase with the path (`creates src/a.rs`,
    /// `renames a file to src/b.rs`), for messages.
    #[must_use]
    pub fn action(&self) -> String {
        let name = self.display();
        let is_source = self.file.old_path.as_deref() == Some(self.raw)
            && self.file.new_path.as_deref() != Some(self.raw);
        match (self.file.operation, is_source) {
            (Operation::Create, _) => format!("creates {name}"),
            (Operation::Delete, _) => format!("deletes {name}"),
            (Operation::Modify, _) => format!("modifies {name}"),
            (Operation::Rename, true) => format!("renames {name}"),
            (Operation::Rename, false) => format!("renames a file to {name}"),
            (Operation::Copy, true) => format!("copies {name}"),
            (Operation::Copy, false) => format!("copies a file to {name}"),
        }
    }

    /// The path for messages: normalised when it passed, escaped bytes otherwise.
    #[must_use]
    pub fn display(&self) -> String {
        match &self.checked {
            Ok(p) => p.to_string(),
            Err(_) => path::display_bytes(self.raw),
        }
    }
}

/// Every path every file entry of `patch` names, in patch order.
#[must_use]
pub fn patch_paths<'p, 'a>(patch: &'p Patch<'a>) -> Vec<PatchPath<'p, 'a>> {
    patch
        .files
        .iter()
        .flat_map(|file| {
            file.paths().into_iter().map(move |raw| PatchPath {
                file,
                raw,
                checked: path::check_bytes(raw),
            })
        })
        .collect()
}

/// At most three names, then how many more: reasons stay short enough to feed back.
#[must_use]
pub fn short_list<S: AsRef<str>>(items: &[S]) -> String {
    const SHOWN: usize = 3;
    let mut out: Vec<&str> = items.iter().take(SHOWN).map(AsRef::as_ref).collect();
    let more = items.len().saturating_sub(SHOWN);
    let tail = format!("and {more} more");
    if more > 0 {
        out.push(&tail);
    }
    out.join(", ")
}

/// The display name of a file entry (its new path, or old for a deletion).
#[must_use]
pub fn file_name(file: &FilePatch<'_>) -> String {
    match path::check_bytes(file.path()) {
        Ok(p) => p.to_string(),
        Err(_) => path::display_bytes(file.path()),
    }
}
