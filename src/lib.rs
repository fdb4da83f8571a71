//! patchgate: the gate between LLM coding agents and a git repository.
//!
//! An orchestrator asks an agent (the *executor*) to carry out one plan step; the executor
//! answers with a JSON result carrying a unified diff. patchgate decides, deterministically and
//! fast, whether that result may be applied, and says why not in one line.
//!
//! Modules, in dependency order: [`patch`] and [`path`] (pure parsing and path safety), [`rule`]
//! (the eight rules of seed 002), [`step`] and [`config`] (inputs and policy), [`report`]
//! (every output format), [`contract`] (agent reply contracts and argument checks, seeds 000,
//! 003, 004).
//!
//! ```
//! use patchgate::path::check;
//! assert!(check("src/lib.rs").is_ok());
//! assert!(check("../outside").is_err());
//! ```

pub mod config;
pub mod contract;
pub mod declare;
pub mod guard;
pub mod hook;
pub mod patch;
pub mod path;
pub mod repo;
pub mod report;
pub mod review;
pub mod rule;
pub mod scratch;
pub mod step;
pub mod validate;
