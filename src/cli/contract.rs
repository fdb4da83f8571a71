//! `patchgate contract ...`, and the root and `[contract]` policy every contract command reads.

use super::{CliError, Global};
use patchgate::config::Config;
use patchgate::contract::{ArgPolicy, ContractConfig};
use std::path::PathBuf;

/// The directory commands resolve relative paths and `.patchgate.toml` against: the working
/// tree around `--repo DIR` (or the current directory), else that directory itself, so the
/// contract commands also work outside a repository.
pub(crate) fn root(global: &Global) -> Result<PathBuf, CliError> {
    let start = match &global.repo {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| {
            CliError::failure(
                "io",
                format!("cannot read the current directory: {e}; pass --repo DIR"),
            )
        })?,
    };
    let workdir = patchgate::repo::discover(Some(&start))
        .ok()
        .and_then(|repo| repo.workdir().map(std::path::Path::to_path_buf));
    Ok(workdir.unwrap_or(start))
}

/// The `[contract]` table of the root's `.patchgate.toml` (defaults when there is none).
pub(crate) fn config(global: &Global) -> Result<ContractConfig, CliError> {
    let root = root(global)?;
    let invalid = |e: &dyn std::fmt::Display| CliError::input("invalid_config", e.to_string());
    let config = Config::load(&root).map_err(|e| invalid(&e))?;
    config.section::<ContractConfig>("contract").map_err(|e| invalid(&e))
}

/// The argument policy from `[contract]`.
pub(crate) fn policy(global: &Global) -> Result<ArgPolicy, CliError> {
    ArgPolicy::from_config(&config(global)?)
        .map_err(|e| CliError::input("invalid_config", e.to_string()))
}
