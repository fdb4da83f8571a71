//! Output of `patchgate hook run`: the JSON report and the text git shows when it blocks.

use crate::declare::PatternCode;
use crate::hook::receive::CommitCheck;
use crate::hook::server::RefRefusal;
use crate::hook::{HookName, Policy, PolicyChange, Reason, Violation};
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of a `pre-commit` / `pre-applypatch` run.
#[derive(Debug, Serialize)]
pub struct RunReport {
    /// The hook that ran.
    pub hook: &'static str,
    /// Whether the commit may go ahead.
    pub allowed: bool,
    /// The active declaration's patterns (`null`: none is active).
    pub declaration: Option<Vec<String>>,
    /// Where the policy came from (`null`: no policy).
    pub policy: Option<String>,
    /// Whether the policy requires a declaration.
    pub require_declaration: bool,
    /// How many changes were checked.
    pub changes: usize,
    /// Every path that blocks, with why and how to fix it.
    pub violations: Vec<ViolationReport>,
}

/// One blocking path.
#[derive(Debug, Serialize)]
pub struct ViolationReport {
    /// The path.
    pub path: String,
    /// `added`, `deleted`, `modified`, `renamed`, `copied`, `typechange`.
    pub status: &'static str,
    /// The other side of a rename or copy.
    pub other_path: Option<String>,
    /// `excluded`, `undeclared`, `no_declaration`, `unsafe_path`, `invalid_declaration`,
    /// `policy_change`.
    pub reason: Reason,
    /// The excluding pattern or the path-safety code.
    pub detail: Option<String>,
    /// One line: why it is blocked.
    pub message: String,
    /// How to allow it: a command (`patchgate declare 'p'`), or for pushes the trailer line;
    /// `null` when declaring cannot help (excluded paths).
    pub declare: Option<String>,
    /// How to take it out of the commit (`git restore --staged 'p'`); `null` for pushes.
    pub unstage: Option<String>,
}

/// The JSON form of a `pre-receive` run, or of `patchgate ci`.
#[derive(Debug, Serialize)]
pub struct ReceiveReport {
    /// `pre-receive`, or `ci`.
    pub hook: &'static str,
    /// Whether the push (or the range) may go ahead.
    pub allowed: bool,
    /// Where the policy came from.
    pub policy: Option<String>,
    /// Whether the policy requires a declaration.
    pub require_declaration: bool,
    /// Ref updates refused whatever their commits: the ref the policy is read from, rewound
    /// or deleted to another policy.
    pub refs: Vec<RefReport>,
    /// Every new commit, oldest first per ref.
    pub commits: Vec<CommitReport>,
}

/// A refused ref update.
#[derive(Debug, Serialize)]
pub struct RefReport {
    /// The ref.
    #[serde(rename = "ref")]
    pub refname: String,
    /// Why, in one line.
    pub message: String,
}

/// One pushed commit.
#[derive(Debug, Serialize)]
pub struct CommitReport {
    /// The commit id.
    pub commit: String,
    /// The ref the push updates with it.
    #[serde(rename = "ref")]
    pub refname: String,
    /// Its subject line.
    pub summary: String,
    /// The `Patchgate-Declared:` patterns (`null`: none).
    pub declared: Option<Vec<String>>,
    /// Whether the commit passes.
    pub allowed: bool,
    /// Trailer values refused as patterns.
    pub bad_trailers: Vec<BadTrailer>,
    /// Paths that are not allowed.
    pub violations: Vec<ViolationReport>,
}

/// A `Patchgate-Declared:` value that is not a safe pattern.
#[derive(Debug, Serialize)]
pub struct BadTrailer {
    /// The value.
    pub pattern: String,
    /// The path-safety code or the pattern's own (`invalid_glob`, ...).
    pub code: PatternCode,
    /// Why.
    pub message: String,
}

impl RunReport {
    /// Build the report of a client-side run.
    #[must_use]
    pub fn new(
        hook: HookName,
        declaration: Option<Vec<String>>,
        policy: &Policy,
        changes: usize,
        violations: &[Violation],
    ) -> Self {
        let source = policy_name(policy);
        Self {
            hook: hook.as_str(),
            allowed: violations.is_empty(),
            declaration,
            require_declaration: policy.hook.require_declaration,
            changes,
            violations: violations.iter().map(|v| client_violation(v, &source)).collect(),
            policy: policy.source.clone(),
        }
    }
}

impl ReceiveReport {
    /// Build the report of a pre-receive run.
    #[must_use]
    pub fn new(policy: &Policy, checks: &[CommitCheck], refs: &[RefRefusal]) -> Self {
        let source = policy_name(policy);
        let commits: Vec<CommitReport> = checks.iter().map(|c| commit_report(c, &source)).collect();
        let refs: Vec<RefReport> = refs
            .iter()
            .map(|r| RefReport { refname: r.refname.clone(), message: r.message.clone() })
            .collect();
        Self {
            hook: HookName::PreReceive.as_str(),
            allowed: commits.iter().all(|c| c.allowed) && refs.is_empty(),
            policy: policy.source.clone(),
            require_declaration: policy.hook.require_declaration,
            refs,
            commits,
        }
    }

    /// Build the report of `patchgate ci`.
    #[must_use]
    pub fn range(policy: &Policy, checks: &[CommitCheck], refused: &[RefRefusal]) -> Self {
        Self { hook: "ci", ..Self::new(policy, checks, refused) }
    }
}

fn policy_name(policy: &Policy) -> String {
    policy.source.clone().unwrap_or_else(|| crate::config::FILE_NAME.to_owned())
}

fn commit_report(check: &CommitCheck, source: &str) -> CommitReport {
    CommitReport {
        commit: check.commit.clone(),
        refname: check.refname.clone(),
        summary: check.summary.clone(),
        declared: check.declared.clone(),
        allowed: check.is_allowed(),
        bad_trailers: check
            .bad_trailers
            .iter()
            .map(|e| BadTrailer {
                pattern: e.pattern.clone(),
                code: e.code.clone(),
                message: e.to_string(),
            })
            .collect(),
        violations: check.violations.iter().map(|v| server_violation(v, source)).collect(),
    }
}

fn client_violation(v: &Violation, source: &str) -> ViolationReport {
    let mut unstage = format!("git restore --staged {}", quote(&v.path));
    if let Some(other) = v.other_path.as_deref().filter(|_| v.status.as_str() == "renamed") {
        let _ = write!(unstage, " {}", quote(other));
    }
    let declare = is_declarable(v)
        .then(|| format!("patchgate declare {}", quote(&crate::declare::literal(&v.path))));
    ViolationReport { message: message(v, source), declare, unstage: Some(unstage), ..base(v) }
}

fn server_violation(v: &Violation, source: &str) -> ViolationReport {
    let declare = is_declarable(v)
        .then(|| format!("{}: {}", crate::declare::TRAILER_KEY, crate::declare::literal(&v.path)));
    ViolationReport { message: message(v, source), declare, unstage: None, ..base(v) }
}

fn base(v: &Violation) -> ViolationReport {
    ViolationReport {
        path: v.path.clone(),
        status: v.status.as_str(),
        other_path: v.other_path.clone(),
        reason: v.reason,
        detail: v.detail.clone(),
        message: String::new(),
        declare: None,
        unstage: None,
    }
}

fn is_declarable(v: &Violation) -> bool {
    match v.reason {
        Reason::Undeclared | Reason::NoDeclaration => true,
        Reason::PolicyChange => v.detail.as_deref() == Some(PolicyChange::Declared.as_str()),
        _ => false,
    }
}

fn message(v: &Violation, source: &str) -> String {
    let detail = v.detail.as_deref().unwrap_or("");
    let why = match v.reason {
        Reason::Excluded => {
            format!("excluded by '{detail}' in {source}; declaring it does not help")
        }
        Reason::Undeclared => "not in the declaration".to_owned(),
        Reason::NoDeclaration => format!("no declaration, and {source} requires one"),
        Reason::UnsafePath => format!("fails the path-safety check ({detail})"),
        Reason::InvalidDeclaration => format!("declared pattern refused ({detail})"),
        Reason::PolicyChange if detail == PolicyChange::Declared.as_str() => format!(
            "changes the policy itself, which {source} allows only when declared by its exact \
             path"
        ),
        Reason::PolicyChange => {
            format!(
                "changes the policy itself, which {source} does not allow ([server] policy_change)"
            )
        }
    };
    match (&v.other_path, v.status.as_str()) {
        (Some(other), "renamed" | "copied") => {
            format!("{} ({} {other}): {why}", v.path, side(v))
        }
        _ => format!("{} ({}): {why}", v.path, v.status.as_str()),
    }
}

/// `renamed to X` when `v.path` is the old side, `renamed from X` when it is the new side.
fn side(v: &Violation) -> String {
    let verb = v.status.as_str();
    if v.is_old_side { format!("{verb} to") } else { format!("{verb} from") }
}

/// Quote for a POSIX shell: single quotes, `'` written as `'\''`.
#[must_use]
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The text git shows when a client-side hook blocks (empty when it allows).
#[must_use]
pub fn run_text(report: &RunReport) -> String {
    if report.allowed {
        return String::new();
    }
    let what = if report.hook == "pre-applypatch" { "patch" } else { "commit" };
    let mut out = format!(
        "patchgate: {what} blocked by the {} hook: {} staged path(s) not allowed\n",
        report.hook,
        report.violations.len()
    );
    for v in &report.violations {
        let _ = writeln!(out, "  {}", v.message);
        if let Some(declare) = &v.declare {
            let _ = writeln!(out, "      declare it:  {declare}");
        }
        if let Some(unstage) = &v.unstage {
            let label = if v.declare.is_some() { "or unstage:" } else { "unstage it:" };
            let _ = writeln!(out, "      {label}  {unstage}");
        }
    }
    if report.hook == "pre-applypatch" {
        out.push_str(
            "then 'git am --continue' (or drop the patch: 'git am --skip' / 'git am --abort')\n",
        );
    }
    out
}

/// The text git relays to the pusher when pre-receive rejects (empty when it allows).
#[must_use]
pub fn receive_text(report: &ReceiveReport) -> String {
    if report.allowed {
        return String::new();
    }
    let mut out = if report.hook == "ci" {
        String::from("patchgate: the range is rejected (patchgate ci)\n")
    } else {
        String::from("patchgate: push rejected by the pre-receive hook\n")
    };
    for r in &report.refs {
        let _ = writeln!(out, "  {}: {}", r.refname, r.message);
    }
    for c in report.commits.iter().filter(|c| !c.allowed) {
        let short = c.commit.get(..12).unwrap_or(&c.commit);
        let _ = writeln!(out, "  commit {short} on {} ({}):", c.refname, c.summary);
        for t in &c.bad_trailers {
            let _ = writeln!(out, "    {}", t.message);
        }
        for v in &c.violations {
            let _ = writeln!(out, "    {}", v.message);
            if let Some(trailer) = &v.declare {
                let _ = writeln!(out, "        add to its message:  {trailer}");
            }
        }
    }
    out.push_str(
        "declare with trailers: git commit --amend --trailer 'Patchgate-Declared: PATH' \
         (or git rebase -i), then push again\n",
    );
    out
}
