//! patchgate: the gate between LLM coding agents and a git repository.
//!
//! An orchestrator asks an agent (the *executor*) to carry out one plan step; the executor
//! answers with a JSON result carrying a unified diff. patchgate decides, deterministically and
//! in milliseconds, whether that result may be applied, and says why not in one line the
//! orchestrator can feed back to the agent. The same library backs the git hook that blocks
//! commits with undeclared file changes and the guard in front of an agent's file tools.
//!
//! # Validating a result, as an orchestrator does
//!
//! ```
//! use patchgate::{Config, Context, Options, read_step, validate};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let repo = git2::Repository::init(dir.path())?;
//! # std::fs::write(dir.path().join("a.txt"), "old\n")?;
//! # let mut index = repo.index()?;
//! # index.add_path(std::path::Path::new("a.txt"))?;
//! # let tree = repo.find_tree(index.write_tree()?)?;
//! # let me = git2::Signature::now("me", "me@example.org")?;
//! # repo.commit(Some("HEAD"), &me, &me, "base", &tree, &[])?;
//! // `repo` is the repository the step works on (a commit holding `a.txt` = "old").
//! let step = read_step(br#"{"description": "Change old to new in a.txt"}"#)?;
//! let result = br#"{"mode": "apply", "success": true,
//!   "patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n",
//!   "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "done"}"#;
//! let config = Config::load(dir.path())?;
//! let ctx = Context { step: &step, result, config: &config, repo: Some(&repo) };
//! let outcome = validate(&ctx, &Options::default())?;
//! let verdict = &outcome.report.verdict;
//! println!("{}", verdict.reason); // feed this line back to the agent when it says no
//! assert!(verdict.valid, "{}", verdict.reason);
//! // Accepted: write exactly the files that were checked, all or nothing (`patchgate apply`).
//! outcome.land(dir.path(), false)?;
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.txt"))?, "new\n");
//! # Ok(())
//! # }
//! ```
//!
//! # Modules, in dependency order
//!
//! Each module uses only modules listed before it, and no file imports a file that imports it
//! back (`tests/it/layers.rs` holds the crate to both):
//!
//! - [`bytemask`] (byte masks of 64-byte blocks) and [`bigbuf`] (large buffers on huge pages);
//! - [`finding`] (violations, notes, verdicts, and every stable code table) and [`json`]
//!   (strict JSON input, read once);
//! - [`path`] (path safety, glob sets);
//! - [`config`] (`.patchgate.toml`, read once, with its `[limits]`);
//! - [`step`] (the step and result types), [`repo`] (opening the repository, reading its index
//!   file), [`patch`] (the strict unified-diff parser), [`declare`] (declarations);
//! - [`rule`] (the eight rules of the executor contract) and [`contract`] (agent reply
//!   contracts and argument checks);
//! - [`scratch`] (the base tree: apply and roll back in memory, the all-or-nothing worktree
//!   write) and [`judge`] (the built-in model judge: prompt, provider clients, answer cache);
//! - [`review`] (the store of rejected results) and [`repair`] (safe repairs of agents' diffs,
//!   proven in scratch);
//! - the pipelines: [`validate`] (a result against its step; a [`validate::Run`] repairs,
//!   validates, judges and records, [`validate::apply`] writes what it checked, and
//!   [`validate::apply_override`] is `review apply`), [`hook`] (staged changes and pushes
//!   against a declaration), [`guard`] (an agent's tool call);
//! - [`batch`] (many results in one run, `validate --batch`: input lines, workers' open
//!   repositories and base trees, answers in input order);
//! - [`report`] (every output format, the one diagnostic renderer, the published JSON Schemas).

// Foundations.
pub mod bigbuf;
pub mod bytemask;
pub mod finding;
pub mod json;
pub mod path;

pub mod config;

pub mod declare;
pub mod patch;
pub mod repo;
pub mod step;

// The change summary, read by the rules.
pub mod summary;

// The rules and contracts.
pub mod contract;
pub mod rule;

// The base tree, and the model judge.
pub mod judge;
pub mod scratch;

// The pipelines.
pub mod guard;
pub mod hook;
pub mod validate;

// The store of rejected results, validated again on `review apply`.
pub mod review;

// Repairs of agents' diffs, on top of the pipelines (`validate --repair`).
pub mod repair;

// Many results in one run (`validate --batch`): input lines, workers' open repositories and
// base trees, answers in input order.
pub mod batch;

// Every output format.
pub mod report;

// What the unit tests of several modules share.
#[cfg(test)]
mod testing;

pub use config::Config;
pub use finding::{CheckCode, Code, Note, Report, RuleId, Verdict, Violation};
pub use patch::{ParseOptions, Parsed, Patch, parse};
pub use step::{ExecutorResult, Mode, Step};
pub use validate::{
    ApplyError, Checked, Context, Options, Outcome, Run, ValidateError, apply, read_step, validate,
};
