//! The executor output contract's `validateFilePaths`: keep the paths an agent reported that are
//! safe and exist under the root, and say why each other one was filtered.

use crate::finding::{PathErrorCode, code_union, codes};
use crate::path::check;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;

codes! {
    /// Why `paths` filters a path that passes the path checks.
    FilterReason {
        /// The path does not exist under the root (or is a dangling link).
        NotFound => "not_found",
        /// A symbolic link leads out of the root.
        OutsideRoot => "outside_root",
        /// The same path is listed twice.
        Duplicate => "duplicate",
    }
}

code_union! {
    /// Why a path was filtered: a path check's code or a [`FilterReason`].
    FilterCode {
        /// A path check (`absolute_path`, `home_dir`, `path_traversal`, `git_dir`, ...).
        Path(PathErrorCode),
        /// The path passes the checks but is not kept.
        Filter(FilterReason),
    }
    "Why a path was filtered: a path check's code, `not_found`, `outside_root` or `duplicate`."
}

/// One filtered path and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FilteredPath {
    /// The path as the agent wrote it.
    pub path: String,
    /// Stable reason: a path check's (`absolute_path`, `home_dir`, `path_traversal`, `git_dir`,
    /// ...), `not_found`, `outside_root` (a symbolic link leads out of the root) or `duplicate`.
    pub code: FilterCode,
    /// One lowercase line saying why.
    pub reason: String,
}

/// The outcome of filtering one list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PathFilter {
    /// The kept paths, normalised (`./src//a.rs` becomes `src/a.rs`), in input order.
    pub kept: Vec<String>,
    /// The filtered paths, in input order.
    pub filtered: Vec<FilteredPath>,
}

/// Filter `paths` as the executor output contract's `validateFilePaths` does, with
/// [`crate::path::check`]'s checks in place of its `isAbsolute`/`~`/`../` tests, and symbolic links
/// resolved so a path that leaves `root` through a link is filtered too.
#[must_use]
pub fn filter_paths<S: AsRef<str>>(paths: &[S], root: &Path) -> PathFilter {
    let canonical_root = root.canonicalize().ok();
    let mut seen = BTreeSet::new();
    let mut out = PathFilter::default();
    for raw in paths.iter().map(AsRef::as_ref) {
        match classify(raw, root, canonical_root.as_deref()) {
            Ok(normal) if seen.insert(normal.clone()) => out.kept.push(normal),
            Ok(normal) => out.filtered.push(FilteredPath {
                path: raw.to_string(),
                code: FilterReason::Duplicate.into(),
                reason: format!("'{normal}' is already listed"),
            }),
            Err((code, reason)) => {
                out.filtered.push(FilteredPath { path: raw.to_string(), code, reason });
            }
        }
    }
    out
}

fn classify(
    raw: &str,
    root: &Path,
    canonical_root: Option<&Path>,
) -> Result<String, (FilterCode, String)> {
    let normal = check(raw).map_err(|e| (e.code.into(), e.message))?;
    let full = root.join(normal.as_str());
    if std::fs::symlink_metadata(&full).is_err() {
        let message = format!("'{normal}' does not exist under the root");
        return Err((FilterReason::NotFound.into(), message));
    }
    let Ok(real) = full.canonicalize() else {
        let message = format!("'{normal}' is a dangling symbolic link");
        return Err((FilterReason::NotFound.into(), message));
    };
    if canonical_root.is_none_or(|root| !real.starts_with(root)) {
        return Err((
            FilterReason::OutsideRoot.into(),
            format!("'{normal}' leads out of the root through a symbolic link"),
        ));
    }
    Ok(normal.as_str().to_string())
}
