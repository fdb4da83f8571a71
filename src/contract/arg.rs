//! Argument checks: declare an argument's type, get the checks (the argument-rejection requirement
//! REQ-F-045, the agent contract's input sanitisation).
//!
//! [`check_arg`] is the context-free entry point the guard uses for the argument-rejection
//! requirement's types (`path`, `resource_id`, `identifier`). [`ArgPolicy::check`] adds the
//! policy-driven agent-contract types (`ticket_id`, `branch`, `operation`) and `path` restricted to
//! allowed directories.

use super::patterns::Patterns;
use super::{ContractConfig, ContractError, branch, hallucination};
use crate::finding::codes;
use serde::Serialize;
use std::collections::BTreeMap;

codes! {
    /// A declared argument type.
    ArgType {
        /// A file-system path; absolute paths are fine (the argument-rejection requirement:
        /// `/home/user/file.txt` passes).
        Path => "path",
        /// An opaque resource id (`usr-a1b2c3`, `projects/p1/topics/t1`): no URL syntax, no
        /// encodings, no whitespace, no leading `/`.
        ResourceId => "resource_id",
        /// A name (`user_name`, `build-42`, `alice@example.com`): a resource id without `/`.
        Identifier => "identifier",
        /// A ticket id matching one of the configured patterns (the agent contract).
        TicketId => "ticket_id",
        /// A git branch name: the agent contract's rules, git's ref-name rules, the configured
        /// shapes.
        Branch => "branch",
        /// An operation of an agent in the configured registry (the agent contract's
        /// `AGENT_OPERATIONS`).
        Operation => "operation",
    }
}

codes! {
    /// The stable names of rejected patterns (`rejected_pattern` in the envelope).
    RejectedPattern {
        /// The value is empty.
        EmptyValue => "empty_value",
        /// A NUL byte.
        NulByte => "nul_byte",
        /// A control character (newline, tab, escape, DEL, C1).
        ControlCharacter => "control_character",
        /// `../`, `..%2f`, `%2e%2e/`, `....//`: a component a resolver treats as the parent.
        PathTraversal => "path_traversal",
        /// `..\`: traversal with Windows separators.
        BackslashTraversal => "backslash_traversal",
        /// `%2f` or `%5c`.
        PercentEncodedSeparator => "percent_encoded_separator",
        /// Any other `%XX` (`%2e`, `%40`, `%20`).
        PercentEncodedSegment => "percent_encoded_segment",
        /// `%25XX`: an encoded percent sign in front of an encoding.
        DoubleEncoding => "double_encoding",
        /// `%c0%ae` and other overlong UTF-8 forms.
        OverlongUtf8 => "overlong_utf8",
        /// `%3b`, `%7c`, `%60`, `%24`, ...: an encoded character a shell gives meaning to.
        EncodedShellMetacharacter => "encoded_shell_metacharacter",
        /// `?` (and `&`) where no query is expected; in a path, `?name=value`.
        QueryParameter => "query_parameter",
        /// `#` where no fragment is expected.
        Fragment => "fragment",
        /// A fullwidth or other look-alike dot, slash or backslash (`U+FF0E`, `U+2215`).
        FullwidthSeparator => "fullwidth_separator",
        /// Whitespace in a resource id or identifier.
        Whitespace => "whitespace",
        /// `/` or `\` where no separator belongs (identifiers; backslashes and empty segments in
        /// resource ids).
        PathSeparator => "path_separator",
        /// A leading `/` in a resource id or branch, or an absolute path where the allowed
        /// directories are relative.
        AbsolutePath => "absolute_path",
        /// A path starting with `~`, under allowed directories (they are repository-relative).
        HomeDir => "home_dir",
        /// A path inside the git directory, under allowed directories.
        GitDir => "git_dir",
        /// A path outside every allowed directory.
        OutsideAllowedDirs => "outside_allowed_dirs",
        /// A ticket id matching none of the configured patterns.
        InvalidTicketId => "invalid_ticket_id",
        /// A ticket id of another kind than `--expect-kind`.
        TicketKindMismatch => "ticket_kind_mismatch",
        /// A branch name matching none of the configured shapes.
        BranchShape => "branch_shape",
        /// A character git forbids in ref names (space, `~`, `^`, `:`, `?`, `*`, `[`, `\`).
        GitRefForbiddenCharacter => "git_ref_forbidden_character",
        /// `@{`, which git reads as a reflog selector.
        GitRefAtBrace => "git_ref_at_brace",
        /// `@` or `HEAD`, which git refuses as branch names.
        GitRefReservedName => "git_ref_reserved_name",
        /// A leading `-`, which git would read as an option.
        GitRefLeadingDash => "git_ref_leading_dash",
        /// A leading or trailing `/`, or `//`.
        GitRefSlash => "git_ref_slash",
        /// A trailing `.`.
        GitRefTrailingDot => "git_ref_trailing_dot",
        /// A component starting with `.`.
        GitRefDotComponent => "git_ref_dot_component",
        /// A component ending in `.lock`.
        GitRefLockSuffix => "git_ref_lock_suffix",
        /// An agent missing from the operation registry.
        UnknownAgent => "unknown_agent",
        /// An operation the agent does not support.
        UnknownOperation => "unknown_operation",
        /// An argument, shell command or tool call over a `[limits]` setting (the guard).
        LimitExceeded => "limit_exceeded",
    }
}

/// Why an argument was refused: the `INVALID_AGENT_INPUT` error's fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgRejection {
    /// The declared type.
    pub arg_type: ArgType,
    /// The matched pattern's stable name.
    pub pattern: RejectedPattern,
    /// The offending value, as given.
    pub input_value: String,
    /// The part of the value that matched (`%2e%2e`, `?foo=bar`), escaped for display.
    pub matched: String,
    /// One lowercase line: what is wrong and what to pass instead.
    pub message: String,
}

/// A value that passed: unchanged, with the ticket kind it matched (`ticket_id` only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgAccepted {
    /// The value, exactly as given.
    pub value: String,
    /// For `ticket_id`: the kind whose pattern matched (`story`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// The outcome of one argument check. A rejection is data, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgOutcome {
    /// The value passes unchanged.
    Accepted(ArgAccepted),
    /// The value is refused, before any side effect.
    Rejected(ArgRejection),
}

impl ArgOutcome {
    /// Whether the value passed.
    #[must_use]
    pub fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted(_))
    }

    /// The rejection, if the value was refused.
    #[must_use]
    pub fn rejection(&self) -> Option<&ArgRejection> {
        match self {
            Self::Accepted(_) => None,
            Self::Rejected(r) => Some(r),
        }
    }
}

/// Check `value` as an argument of type `ty` with the default policy (the agent contract's tables)
/// and no options: what the guard runs on every `path`, `resource_id` or `identifier` argument.
///
/// ```
/// use patchgate::contract::{check_arg, ArgType, RejectedPattern};
/// assert!(check_arg(ArgType::Path, "/home/user/file.txt").is_accepted());
/// assert!(check_arg(ArgType::ResourceId, "usr-a1b2c3").is_accepted());
/// let r = check_arg(ArgType::ResourceId, "files%2fetc%2fpasswd");
/// assert_eq!(r.rejection().unwrap().pattern, RejectedPattern::PercentEncodedSeparator);
/// ```
#[must_use]
pub fn check_arg(ty: ArgType, value: &str) -> ArgOutcome {
    ArgPolicy::builtin().check(ty, value, &ArgOptions::default())
}

/// Per-call options of [`ArgPolicy::check`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgOptions {
    /// `path`: directories the path must lie in, on top of the policy's `allowed_dirs`
    /// (component-wise: `src` allows `src/a.rs`, never `srcfoo/a.rs`). Empty: any directory.
    pub allow_dirs: Vec<String>,
    /// `ticket_id`: the kind the id must be (`story`).
    pub expect_kind: Option<String>,
    /// `operation`: the agent whose operations apply; `None` accepts any registered agent's.
    pub agent: Option<String>,
}

/// The configurable tables behind the agent contract's types, from `.patchgate.toml` `[contract]`.
#[derive(Clone, Debug)]
pub struct ArgPolicy {
    ticket_patterns: Patterns,
    branch_shapes: Patterns,
    operations: BTreeMap<String, Vec<String>>,
    allowed_dirs: Vec<String>,
}

/// The agent contract's `TICKET_ID_PATTERNS`, in its order.
pub const DEFAULT_TICKET_PATTERNS: [(&str, &str); 5] = [
    ("initiative", r"^INIT-\d{4}$"),
    ("epic", r"^EPIC-\d{4}\.\d+$"),
    ("story", r"^STORY-\d{4}\.\d+\.\d+$"),
    ("task", r"^TASK-\d{4}\.\d+\.\d+\.\d+$"),
    ("bug", r"^BUG-\d{4}$"),
];

/// The agent contract's branch shapes, with ASCII digits (`[0-9]`) where the specification's Python
/// `\d` also matched other scripts' digits.
pub const DEFAULT_BRANCH_PATTERNS: [&str; 3] =
    [r"^[A-Z]+-[0-9]+(\.[0-9]+)*$", r"^[a-z]+/[A-Z]+-[0-9]+(\.[0-9]+)*$", r"^[a-z]+/[a-z-]+$"];

/// The agent contract's `AGENT_OPERATIONS`.
pub const DEFAULT_OPERATIONS: &[(&str, &[&str])] = &[
    ("ticket-analyzer", &["story-deep", "ticket-completeness", "hierarchy-gaps", "task-readiness"]),
    (
        "pattern-discovery",
        &["full-survey", "focused-domain", "fixture-lookup", "test-pattern-search"],
    ),
    (
        "git-state-analyzer",
        &["branch-status", "task-validation", "drift-detection", "commit-analysis"],
    ),
    ("design-guardian", &["story-review", "task-review", "epic-review"]),
    (
        "specification-quality-checker",
        &["full-ticket", "acceptance-criteria", "technical-design", "task-steps"],
    ),
    ("requirements-interviewer", &["initiative", "epic", "story", "task"]),
];

impl Default for ArgPolicy {
    fn default() -> Self {
        Self::builtin().clone()
    }
}

impl ArgPolicy {
    /// The seeds' policy, compiled once per process: what [`check_arg`] uses, so a hot caller
    /// (the guard, once per tool call) never recompiles the patterns.
    #[must_use]
    pub fn builtin() -> &'static Self {
        static BUILTIN: std::sync::LazyLock<ArgPolicy> = std::sync::LazyLock::new(|| {
            ArgPolicy::from_config(&ContractConfig::default())
                .expect("the agent contract's own patterns compile")
        });
        &BUILTIN
    }

    /// Build the policy from the `[contract]` table; a table left out keeps the specification's.
    pub fn from_config(config: &ContractConfig) -> Result<Self, ContractError> {
        // The specification's own patterns skip the syntax check (a unit test holds them to it).
        let ticket_patterns = match &config.ticket_patterns {
            Some(map) => Patterns::new(
                "ticket_patterns",
                map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            )?,
            None => {
                Patterns::trusted(DEFAULT_TICKET_PATTERNS.map(|(k, v)| (k.into(), v.into())).into())
            }
        };
        let shape_pairs = |list: Vec<String>| list.into_iter().map(|p| (p.clone(), p)).collect();
        let branch_shapes = match &config.branch_patterns {
            Some(list) => Patterns::new("branch_patterns", shape_pairs(list.clone()))?,
            None => {
                Patterns::trusted(shape_pairs(DEFAULT_BRANCH_PATTERNS.map(String::from).into()))
            }
        };
        let operations = config.operations.clone().unwrap_or_else(default_operations);
        Ok(Self {
            ticket_patterns,
            branch_shapes,
            operations,
            allowed_dirs: config.allowed_dirs.clone(),
        })
    }

    /// The ticket kinds, in pattern order.
    pub fn ticket_kinds(&self) -> impl Iterator<Item = &str> {
        self.ticket_patterns.names()
    }

    /// The operations `agent` supports, `None` for an unknown agent.
    #[must_use]
    pub fn operations(&self, agent: &str) -> Option<&[String]> {
        self.operations.get(agent).map(Vec::as_slice)
    }

    /// Check `value` as an argument of type `ty`.
    #[must_use]
    pub fn check(&self, ty: ArgType, value: &str, options: &ArgOptions) -> ArgOutcome {
        let mut kind = None;
        let found = match ty {
            ArgType::Path => hallucination::find(ty, value)
                .or_else(|| self.find_outside_dirs(value, &options.allow_dirs)),
            ArgType::ResourceId | ArgType::Identifier => hallucination::find(ty, value),
            ArgType::TicketId => hallucination::find(ArgType::ResourceId, value).or_else(|| {
                self.match_ticket(value, options.expect_kind.as_deref())
                    .map(|k| kind = Some(k))
                    .err()
            }),
            ArgType::Branch => branch::find(value, &self.branch_shapes),
            ArgType::Operation => hallucination::find(ArgType::Identifier, value)
                .or_else(|| self.find_unknown_operation(value, options.agent.as_deref())),
        };
        match found {
            None => ArgOutcome::Accepted(ArgAccepted { value: value.to_string(), kind }),
            Some((pattern, matched)) => {
                let mut r = rejection(ty, pattern, value, &matched);
                if let Some(detail) = self.detail(pattern, options) {
                    r.message.push_str(&detail);
                }
                ArgOutcome::Rejected(r)
            }
        }
    }

    /// What the policy allows, for the rejections whose fix is "pick one of these".
    fn detail(&self, pattern: RejectedPattern, options: &ArgOptions) -> Option<String> {
        let list = |items: Vec<&str>| format!(" ({})", items.join(", "));
        match pattern {
            RejectedPattern::InvalidTicketId | RejectedPattern::TicketKindMismatch => {
                let kinds = self.ticket_patterns.sources().map(|(k, p)| format!("{k}: {p}"));
                Some(format!(" ({})", kinds.collect::<Vec<_>>().join(", ")))
            }
            RejectedPattern::UnknownAgent => {
                Some(list(self.operations.keys().map(String::as_str).collect()))
            }
            RejectedPattern::UnknownOperation => {
                let ops = options.agent.as_deref().and_then(|a| self.operations(a))?;
                Some(list(ops.iter().map(String::as_str).collect()))
            }
            RejectedPattern::BranchShape => Some(list(self.branch_shapes.names().collect())),
            RejectedPattern::OutsideAllowedDirs | RejectedPattern::AbsolutePath
                if !(self.allowed_dirs.is_empty() && options.allow_dirs.is_empty()) =>
            {
                Some(list(
                    self.allowed_dirs
                        .iter()
                        .chain(&options.allow_dirs)
                        .map(String::as_str)
                        .collect(),
                ))
            }
            _ => None,
        }
    }
}

fn default_operations() -> BTreeMap<String, Vec<String>> {
    DEFAULT_OPERATIONS
        .iter()
        .map(|(agent, ops)| {
            ((*agent).to_string(), ops.iter().map(|op| (*op).to_string()).collect())
        })
        .collect()
}

type Found = (RejectedPattern, String);

impl ArgPolicy {
    /// The kind `value` is, or why it is no ticket id (of the expected kind).
    fn match_ticket(&self, value: &str, expect: Option<&str>) -> Result<String, Found> {
        // Python's `\d` and `$` (the specification's) accept other scripts' digits and a trailing
        // newline; ticket ids are ASCII and anchored at both ends here.
        let kinds: Vec<&str> = if value.is_ascii() {
            self.ticket_patterns.matching(value).collect()
        } else {
            Vec::new()
        };
        match (kinds.first(), expect) {
            (None, _) => Err((RejectedPattern::InvalidTicketId, value.to_string())),
            (Some(_), Some(want)) if kinds.contains(&want) => Ok(want.to_string()),
            (Some(found), Some(_)) => {
                Err((RejectedPattern::TicketKindMismatch, (*found).to_string()))
            }
            (Some(found), None) => Ok((*found).to_string()),
        }
    }

    fn find_unknown_operation(&self, op: &str, agent: Option<&str>) -> Option<Found> {
        let Some(agent) = agent else {
            let known = self.operations.values().flatten().any(|o| o == op);
            return (!known).then(|| (RejectedPattern::UnknownOperation, op.to_string()));
        };
        let Some(ops) = self.operations(agent) else {
            return Some((RejectedPattern::UnknownAgent, agent.to_string()));
        };
        (!ops.iter().any(|o| o == op)).then(|| (RejectedPattern::UnknownOperation, op.to_string()))
    }

    /// The agent contract's `validate_file_path`, component-wise: the path must lie in (or be) one
    /// of the allowed directories, both sides normalised the same way.
    fn find_outside_dirs(&self, value: &str, extra: &[String]) -> Option<Found> {
        if self.allowed_dirs.is_empty() && extra.is_empty() {
            return None;
        }
        let dirs: Vec<AllowedDir> = self
            .allowed_dirs
            .iter()
            .chain(extra)
            .filter_map(|d| AllowedDir::parse(d).ok())
            .collect();
        let path = match AllowedDir::parse(value) {
            Ok(path) => path,
            Err(found) => return Some(found),
        };
        if dirs.iter().any(|d| d.contains(&path)) {
            return None;
        }
        if path.is_absolute && dirs.iter().all(|d| !d.is_absolute) {
            return Some((RejectedPattern::AbsolutePath, value.to_string()));
        }
        Some((RejectedPattern::OutsideAllowedDirs, value.to_string()))
    }
}

/// A lexically normalised path: absolute or repository-relative, as components.
#[derive(Debug)]
struct AllowedDir {
    is_absolute: bool,
    components: Vec<String>,
}

impl AllowedDir {
    /// Absolute paths are split as written (they are outside the repository's namespace);
    /// relative ones go through [`crate::path::check`], so `~`, `.git` and `..` never match.
    fn parse(raw: &str) -> Result<Self, Found> {
        if raw.starts_with('/') {
            if let Some(found) = hallucination::find(ArgType::Path, raw) {
                return Err(found);
            }
            let components =
                raw.split('/').filter(|c| !c.is_empty() && *c != ".").map(str::to_string).collect();
            return Ok(Self { is_absolute: true, components });
        }
        let checked = crate::path::check(raw).map_err(|e| (path_error_pattern(e.code), e.input))?;
        let components = checked.components().map(str::to_string).collect();
        Ok(Self { is_absolute: false, components })
    }

    fn contains(&self, path: &Self) -> bool {
        self.is_absolute == path.is_absolute && path.components.starts_with(&self.components)
    }
}

/// Check an `--allow-dir` value: it must be a plain absolute or repository-relative directory.
pub fn check_allowed_dir(dir: &str) -> Result<(), ArgRejection> {
    AllowedDir::parse(dir)
        .map(|_| ())
        .map_err(|(pattern, matched)| rejection(ArgType::Path, pattern, dir, &matched))
}

fn path_error_pattern(code: crate::path::PathErrorCode) -> RejectedPattern {
    use crate::path::PathErrorCode as C;
    match code {
        C::EmptyPath => RejectedPattern::EmptyValue,
        C::AbsolutePath => RejectedPattern::AbsolutePath,
        C::HomeDir => RejectedPattern::HomeDir,
        C::GitDir => RejectedPattern::GitDir,
        C::NulByte => RejectedPattern::NulByte,
        // The argument table has no names of its own for a too long path: the nearest one.
        C::ControlByte | C::InvalidUtf8 | C::TooLong => RejectedPattern::ControlCharacter,
        C::PercentEncoded => RejectedPattern::PercentEncodedSegment,
        C::Backslash => RejectedPattern::PathSeparator,
        C::LookalikeSeparator => RejectedPattern::FullwidthSeparator,
        C::PathTraversal => RejectedPattern::PathTraversal,
        C::ShellSubstitution => RejectedPattern::EncodedShellMetacharacter,
    }
}

fn rejection(ty: ArgType, pattern: RejectedPattern, value: &str, matched: &str) -> ArgRejection {
    let shown = crate::path::display_bytes(value.as_bytes());
    let matched = crate::path::display_bytes(matched.as_bytes());
    let message = format!(
        "argument '{ty}' value '{shown}' contains the rejected pattern {pattern} ('{matched}'); {}",
        super::message::hint(pattern)
    );
    ArgRejection { arg_type: ty, pattern, input_value: value.to_string(), matched, message }
}
