//! Repair what agents get wrong in a diff when the fix is provably safe: hunk counts that do not
//! match the body, start lines a few lines off, blank context lines without their space, a
//! markdown fence or chat text around the diff, a missing `diff --git` line, blank lines after a
//! hunk, a missing final newline.
//!
//! Every repair is driven by the strict parser's own defects and warnings (`crate::patch`): the
//! patch is parsed, the first defect that has a safe repair is fixed in a working copy of the
//! text ([`text`]), and the copy is parsed again, until it parses cleanly or a defect has no
//! safe repair. Hunk bodies are never read by a second parser: a recount asks the parser itself
//! to read the body with unbounded counts. Then start lines are taken from a unique exact match
//! of each hunk's preimage in the base file ([`relocate`]).
//!
//! Nothing is guessed: an added or removed line is never changed, a hunk whose context fits in
//! two places is not moved, and a hunk with fewer added-side lines than its header promises (a
//! line may be missing) keeps its `hunk_too_short` defect. The result carries a [`Proof`]: the
//! repaired patch parses without a defect, applies to the base and rolls back in scratch, and a
//! re-render shows every `+`/`-` line byte-identical to the agent's line it came from.
//!
//! ```
//! use patchgate::repair::{self, Context, Options, RepairKind};
//! let agent = b"diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n+more\n";
//! let outcome = repair::repair(agent, &Context::default(), &Options::default()).unwrap();
//! assert_eq!(outcome.repairs[0].kind, RepairKind::Recount);
//! assert!(outcome.patch.unwrap().ends_with(b"@@ -1 +1,2 @@\n-old\n+new\n+more\n"));
//! ```

mod context_only;
mod header;
mod hunks;
mod past;
mod proof;
mod relocate;
mod reply;
mod result;
mod surround;
#[cfg(test)]
mod tests;
mod text;
mod trim;

pub use crate::finding::RepairKind;
use crate::finding::{CheckCode, Code};
pub use reply::Unwrapped;
pub use result::{Repaired, repair_result};

use crate::patch::{Defect, DefectCode, ParseOptions, Parsed, parse};
use crate::path::display_bytes;
use crate::scratch::{BaseTree, ScratchError};
use serde::Serialize;
use std::collections::BTreeSet;
use text::Doc;

/// One repair, located in the agent's patch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// What was done.
    pub kind: RepairKind,
    /// The file entry it concerns, when it concerns one.
    pub file: Option<String>,
    /// The 1-based hunk of that entry, when it concerns one.
    pub hunk: Option<usize>,
    /// The 1-based line of the agent's patch where the change was made.
    pub line: usize,
    /// How many lines it touched (removed, restored).
    pub lines: usize,
    /// What was changed, quoting before and after.
    pub message: String,
}

/// Why the patch was not repaired: a defect without a safe repair (with the parser's code), a
/// hunk that fits in several places, or the repository check's finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The stable code: a parser defect's, a repository check's, or a repair's own
    /// (`ambiguous_location`, `repair_unproven`, `too_many_defects`).
    pub code: Code,
    /// What is wrong and what to do.
    pub message: String,
    /// The 1-based line of the agent's patch, when known.
    pub line: Option<usize>,
    /// The file entry, when known.
    pub file: Option<String>,
}

/// What the repaired patch was checked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// The repaired patch parses without a defect.
    pub parses: bool,
    /// It applies to the base and rolls back in scratch; `None` when there was no repository
    /// to check against.
    pub applies: Option<bool>,
    /// The base revision it was checked against.
    pub base: Option<String>,
    /// How many `+`/`-` lines the re-render compared byte for byte with the agent's lines.
    pub lines_compared: usize,
}

/// The result of [`repair`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The repaired patch, when it was proven; `None` when refused.
    pub patch: Option<Vec<u8>>,
    /// Every repair made (on refusal: the ones made before the refusal).
    pub repairs: Vec<Repair>,
    /// Why the patch was refused; empty when it was proven.
    pub refusals: Vec<Refusal>,
    /// The proof, when the repaired patch got that far.
    pub proof: Option<Proof>,
}

impl Outcome {
    /// Whether the repaired patch was proven.
    #[must_use]
    pub fn is_proven(&self) -> bool {
        self.patch.is_some()
    }

    /// One phrase per repair kind and file (`recounted 2 hunks of src/a.rs`), joined with `, `;
    /// empty when nothing was repaired.
    #[must_use]
    pub fn summary(&self) -> String {
        let groups: BTreeSet<(RepairKind, Option<&str>)> =
            self.repairs.iter().map(|r| (r.kind, r.file.as_deref())).collect();
        let phrases: Vec<String> =
            groups.into_iter().map(|(kind, file)| self.phrase(kind, file)).collect();
        phrases.join(", ")
    }

    fn phrase(&self, kind: RepairKind, file: Option<&str>) -> String {
        let of = |r: &&Repair| r.kind == kind && r.file.as_deref() == file;
        let count = self.repairs.iter().filter(of).count();
        let lines: usize = self.repairs.iter().filter(of).map(|r| r.lines).sum();
        let name = file.unwrap_or("the patch");
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        match kind {
            RepairKind::Recount => format!("recounted {} of {name}", plural(count, "hunk")),
            RepairKind::Relocate => format!("relocated {} of {name}", plural(count, "hunk")),
            RepairKind::BlankContext => {
                format!("restored the space of {} in {name}", plural(lines, "blank context line"))
            }
            RepairKind::Unfence => {
                format!("removed {} of fence and text around the diff", plural(lines, "line"))
            }
            RepairKind::GitHeader => format!("added the diff --git line of {name}"),
            RepairKind::TrailingBlankLines => {
                format!("removed {} after hunks of {name}", plural(lines, "blank line"))
            }
            RepairKind::FinalNewline => "added the final newline".to_owned(),
            RepairKind::BlankOutsideEntry => {
                format!("removed {} outside the file entries", plural(lines, "blank line"))
            }
            RepairKind::ContextAfterHunk => {
                format!("removed {} past the counts of {name}", plural(lines, "context line"))
            }
            RepairKind::ContextOnlyHunk => {
                format!("removed {} of {name} that changed nothing", plural(count, "hunk"))
            }
            RepairKind::TrimContext => {
                format!("set aside {} of {name}", plural(lines, "blank context line"))
            }
        }
    }
}

/// Required inputs: the repository and base the repair is checked against. Without a
/// repository nothing is relocated, a recount that needs the base to be checked is refused,
/// and the proof's `applies` is `None`.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The repository (its object database only; the worktree is never read).
    pub repo: Option<&'a git2::Repository>,
    /// The revision the patch applies to.
    pub base: &'a str,
}

impl Default for Context<'_> {
    fn default() -> Self {
        Self { repo: None, base: "HEAD" }
    }
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("repo", &self.repo.map(git2::Repository::path))
            .field("base", &self.base)
            .finish()
    }
}

/// What has defaults.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How the patch is parsed (strict; `strip` as `git apply -pN`).
    pub parse: ParseOptions,
}

/// The repair could not be evaluated: the base does not resolve, or the repository cannot be
/// read.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
#[non_exhaustive]
pub struct RepairError(#[from] pub ScratchError);

/// Repair `input` (the agent's patch) and prove the result; see the module docs.
pub fn repair(input: &[u8], ctx: &Context<'_>, options: &Options) -> Result<Outcome, RepairError> {
    let base = ctx.repo.map(|repo| BaseTree::resolve(repo, ctx.base)).transpose()?;
    let mut work = Work::new(input, options, base.as_ref());
    if let Some(refusal) = work.run()? {
        return Ok(Outcome {
            repairs: work.repairs,
            refusals: vec![refusal],
            ..Outcome::default()
        });
    }
    let checked = proof::prove(&work)?;
    let repairs = work.repairs;
    Ok(match checked {
        Ok((patch, proof)) => {
            Outcome { patch: Some(patch), repairs, refusals: Vec::new(), proof: Some(proof) }
        }
        Err((refusals, proof)) => Outcome { patch: None, repairs, refusals, proof },
    })
}

/// What one fixer did with the current parse.
#[derive(Debug)]
enum Step {
    /// It changed the working copy; parse again.
    Done,
    /// Not its defect (or nothing to do).
    Pass,
    /// Its defect has no safe repair.
    Refuse(Refusal),
}

/// The most parse-and-fix rounds: each round fixes at least one defect, so a patch needing
/// more is refused rather than parsed over and over.
const MAX_ROUNDS: usize = 500;

/// A repair step over the current parse.
type Fixer = fn(&mut Work<'_, '_>, &Parsed<'_>) -> Step;

/// The repair in progress.
struct Work<'a, 'b> {
    input: &'a [u8],
    doc: Doc<'a>,
    options: &'b Options,
    base: Option<&'b BaseTree<'b>>,
    repairs: Vec<Repair>,
    /// Paths whose hunks were recounted or relocated: their new-side starts are renumbered.
    renumber: BTreeSet<Vec<u8>>,
}

impl<'a, 'b> Work<'a, 'b> {
    fn new(input: &'a [u8], options: &'b Options, base: Option<&'b BaseTree<'b>>) -> Self {
        let doc = Doc::new(input);
        Self { input, doc, options, base, repairs: Vec::new(), renumber: BTreeSet::new() }
    }

    /// Parse and fix until the copy parses cleanly and nothing is left to polish; `Some` with
    /// the refusal when a defect has no safe repair.
    fn run(&mut self) -> Result<Option<Refusal>, ScratchError> {
        for _ in 0..MAX_ROUNDS {
            let bytes = self.doc.bytes();
            let parsed = parse(&bytes, &self.options.parse);
            let step = if parsed.defects.iter().all(|d| is_order(d.code)) {
                self.polish(&parsed)?
            } else {
                self.fix(&parsed)
            };
            match step {
                Step::Done => {}
                Step::Pass => return Ok(None),
                Step::Refuse(refusal) => return Ok(Some(refusal)),
            }
        }
        Ok(Some(Refusal {
            code: CheckCode::TooManyDefects.into(),
            message: format!(
                "the patch needs more than {MAX_ROUNDS} repairs; ask the agent for a clean diff"
            ),
            line: None,
            file: None,
        }))
    }

    /// The first fixer that claims a defect; a refusal of the first defect when none does.
    fn fix(&mut self, parsed: &Parsed<'_>) -> Step {
        let fixers: [Fixer; 5] =
            [header::fix, surround::fix, context_only::fix, hunks::fix, hunks::final_newline];
        for fixer in fixers {
            match fixer(self, parsed) {
                Step::Pass => {}
                other => return other,
            }
        }
        let first = parsed.defects.iter().find(|d| !is_order(d.code)).expect("a defect is left");
        Step::Refuse(self.refuse_defect(first))
    }

    /// With no defect but order ones left: the repairs that need a clean parse.
    fn polish(&mut self, parsed: &Parsed<'_>) -> Result<Step, ScratchError> {
        if let Some(base) = self.base
            && let step @ (Step::Done | Step::Refuse(_)) = relocate::fix(self, parsed, base)?
        {
            return Ok(step);
        }
        if let Some(order) = parsed.defects.first() {
            return Ok(Step::Refuse(self.refuse_defect(order)));
        }
        let polishers: [Fixer; 3] =
            [hunks::renumber, hunks::blank_context, hunks::trailing_warning];
        for polish in polishers {
            if let step @ (Step::Done | Step::Refuse(_)) = polish(self, parsed) {
                return Ok(step);
            }
        }
        past::fix(self, parsed)
    }

    /// Record a repair made at line `n` of the working copy.
    fn record(&mut self, kind: RepairKind, n: usize, lines: usize, message: String) -> &mut Repair {
        let line = self.doc.input_line(n);
        self.repairs.push(Repair { kind, file: None, hunk: None, line, lines, message });
        self.repairs.last_mut().expect("just pushed")
    }

    /// A refusal for `defect` of the working copy: its line mapped back to the agent's patch,
    /// and the agent's own defect message when the original parse has the same defect there
    /// (its line numbers are the agent's).
    fn refuse_defect(&self, defect: &Defect) -> Refusal {
        let line = self.doc.input_line(defect.span.line);
        let original = parse(self.input, &self.options.parse);
        let message = original
            .defects
            .iter()
            .find(|d| d.code == defect.code && d.span.line == line)
            .map_or_else(|| defect.message.clone(), |d| d.message.clone());
        Refusal { code: defect.code.into(), message, line: Some(line), file: None }
    }
}

/// Defects about the stated order of hunks: relocation may settle them.
fn is_order(code: DefectCode) -> bool {
    matches!(code, DefectCode::HunkOutOfOrder | DefectCode::HunkOverlap)
}

/// The name of a parsed entry, for messages.
fn file_name(file: &crate::patch::FilePatch<'_>) -> String {
    display_bytes(file.path())
}
