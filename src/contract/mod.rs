//! Agent contracts and argument checks (seeds 000, 003, 004).
//!
//! - Argument checks: declare an argument's type ([`ArgType`]), get the checks. [`check_arg`]
//!   runs seed 003's hallucination patterns (traversal, encodings, query strings, fragments)
//!   with the default policy; [`ArgPolicy`] adds seed 004's configurable types (`ticket_id`,
//!   `branch`, `operation`) and allowed directories for paths. A rejection is data
//!   ([`ArgOutcome::Rejected`]) carrying the stable [`RejectedPattern`] name that goes into the
//!   `INVALID_AGENT_INPUT` envelope.
//!
//! ```
//! use patchgate::contract::{check_arg, ArgType, RejectedPattern};
//! let outcome = check_arg(ArgType::ResourceId, "../etc/passwd");
//! let rejection = outcome.rejection().expect("traversal is refused");
//! assert_eq!(rejection.pattern, RejectedPattern::PathTraversal);
//! assert_eq!(rejection.pattern.as_str(), "path_traversal");
//! ```

mod arg;
mod branch;
mod hallucination;
mod message;
#[cfg(test)]
mod tests;

pub use arg::{
    ArgAccepted, ArgOptions, ArgOutcome, ArgPolicy, ArgRejection, ArgType, DEFAULT_BRANCH_PATTERNS,
    DEFAULT_OPERATIONS, DEFAULT_TICKET_PATTERNS, RejectedPattern, check_allowed_dir, check_arg,
};

use serde::Deserialize;
use std::collections::BTreeMap;

/// The `[contract]` table of `.patchgate.toml`. A key left out keeps the seed's default.
///
/// ```toml
/// [contract]
/// allowed_dirs = ["docs/tickets", "tests", "src", ".claude"]
/// branch_patterns = ['^[a-z]+/[a-z0-9-]+$', '^main$']
///
/// [contract.ticket_patterns]
/// story = '^STORY-\d{4}\.\d+\.\d+$'
///
/// [contract.operations]
/// ticket-analyzer = ["story-deep", "ticket-completeness"]
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContractConfig {
    /// Ticket kind -> regex matching the whole id; replaces seed 004's `TICKET_ID_PATTERNS`.
    pub ticket_patterns: Option<BTreeMap<String, String>>,
    /// Regexes a branch name must match one of (on top of git's rules); replaces seed 004's
    /// three shapes. `[]` means git's rules only.
    pub branch_patterns: Option<Vec<String>>,
    /// Agent -> operations; replaces seed 004's `AGENT_OPERATIONS`.
    pub operations: Option<BTreeMap<String, Vec<String>>>,
    /// Directories every `path` argument must lie in (seed 004's `ALLOWED_DIRECTORIES`);
    /// empty (the default) means no restriction.
    pub allowed_dirs: Vec<String>,
}

/// The contract checks could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContractError {
    /// A configured pattern is not a valid regex.
    #[error("[contract] {key}: '{pattern}' is not a valid regex ({message}); fix the pattern")]
    InvalidPattern {
        /// The key holding it.
        key: String,
        /// The pattern as written.
        pattern: String,
        /// The regex compiler's message.
        message: String,
    },
}
