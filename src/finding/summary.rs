//! The change summary as data: what a patch does to the structure of each file it changes,
//! read on the files' syntax trees (computed once per result by the summary module).
//! Every semantic rule reads it, `--format text` shows it, the judge is shown it, and
//! `--report` carries it.

use serde::{Deserialize, Serialize};

/// What the patch does, file by file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChangeSummary {
    /// One entry per file entry of the patch, in patch order.
    pub files: Vec<FileSummary>,
}

/// What one file entry changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileSummary {
    /// The file's path (its new path; the old one for a deletion).
    pub path: String,
    /// What the entry does to the file.
    pub operation: FileOperation,
    /// The grammar the two images were parsed with (`Rust`, `YAML`); absent when the file was
    /// compared line by line (no grammar, too large, or not needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The largest kind of change in the file.
    pub change: ChangeKind,
    /// Definitions (functions, methods, classes, ...) added, removed, changed, moved or renamed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemChange>,
    /// Identifiers the changed lines replace by another one (`old_name` -> `new_name`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renames: Vec<IdentifierRename>,
    /// Names the step asks about, counted in the file before and after the patch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<NameCount>,
    /// Comments the patch adds (not counting directives).
    #[serde(default)]
    pub comments_added: usize,
    /// Comments the patch removes.
    #[serde(default)]
    pub comments_removed: usize,
    /// Directive comments added (`# type: ignore`, `// eslint-disable-next-line`), as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directives_added: Vec<String>,
    /// Directive comments removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directives_removed: Vec<String>,
    /// A file the patch creates that no other file of the patch names (a script on its own).
    #[serde(default)]
    pub is_unreferenced: bool,
    /// A file the base tree says a tool writes (`linguist-generated` in `.gitattributes`, a
    /// generator's header, minified lines): counted as code, its definitions not read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_generated: bool,
}

/// What a file entry does to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileOperation {
    /// A new file.
    Create,
    /// The file is removed.
    Delete,
    /// The file is changed in place.
    Modify,
    /// The file moves (and may change).
    Rename,
    /// The file is copied (and the copy may change).
    Copy,
}

/// The kinds of change, smallest first: a file's change is the largest one it makes.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Only whitespace outside string literals.
    Whitespace,
    /// Only comments (and whitespace).
    Comment,
    /// Directive comments that tools read (`# noqa`, `// @ts-ignore`), besides comments.
    Directive,
    /// Definitions moved unchanged, nothing else.
    Move,
    /// Code: tokens that are not trivia changed, or what is not text (a mode, a rename, a
    /// binary file).
    Code,
}

impl ChangeKind {
    /// How the text report words it.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Whitespace => "whitespace only",
            Self::Comment => "comments only",
            Self::Directive => "directive comments",
            Self::Move => "definitions moved unchanged",
            Self::Code => "code",
        }
    }
}

/// One definition the patch touches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ItemChange {
    /// What it is: `function`, `method`, `class`, `type`, `module`, `section`.
    pub kind: String,
    /// Its name, qualified by the definitions around it (`Parser.parse`, `Config::load`).
    pub name: String,
    /// What happened to it.
    pub change: ItemStatus,
    /// Its old name, when it was renamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// Its first line in the file after the patch (before it, for a removed item).
    pub line: usize,
    /// Its body after the patch, when that is trivial (empty, `pass`, a constant, a
    /// placeholder); absent for a real body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trivial: Option<Trivial>,
    /// Whether its body was trivial before the patch (changed items).
    #[serde(default)]
    pub was_trivial: bool,
    /// Whether its body before the patch only raised or returned an error (`Err(..)`, `raise
    /// ValueError(..)`): a trivial body after it then accepts what was refused (changed items).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub was_refusal: bool,
    /// Names its body refers to after the patch and did not before (all of them, for an added
    /// item), at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refers_to: Vec<String>,
    /// Lines of the definition (before the patch for a removed item).
    pub lines: usize,
    /// Whether it only declares a function or method, without a body (an interface's or a
    /// trait's method signature).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_declaration: bool,
    /// Whether an annotation or attribute marks it a test (`@Test`, `#[test]`, `[Fact]`),
    /// whatever its name.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_test: bool,
}

/// What happened to a definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    /// New.
    Added,
    /// Gone.
    Removed,
    /// Its code changed.
    Changed,
    /// Removed in one place and added in another, its code unchanged.
    Moved,
    /// Its name changed, its code otherwise the same.
    Renamed,
}

/// A body that does nothing, or says it is not implemented.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trivial {
    /// Which kind of trivial body.
    pub form: TrivialForm,
    /// The body's one statement, as written (empty for an empty body).
    pub text: String,
}

/// The kinds of trivial body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrivialForm {
    /// `{}`, or only comments.
    Empty,
    /// `pass`, `...`, a bare `return`.
    Nothing,
    /// A constant or default value returned (`return None`, `return 0`, `Default::default()`).
    Constant,
    /// A placeholder that says the code is missing (`todo!()`, `raise NotImplementedError`,
    /// `panic("not implemented")`, `throw new Error("TODO")`), or an empty body where the
    /// function declares a result (`fun f(): Int {}`: its text is then empty).
    Placeholder,
}

/// An identifier the changed lines replace by another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IdentifierRename {
    /// The name replaced.
    pub from: String,
    /// The name written instead.
    pub to: String,
    /// How many times the changed lines replace it.
    pub count: usize,
    /// Lines of the file after the patch that still hold the old name, at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_on: Vec<usize>,
    /// Whether the old name was a parameter or a local variable of one function before the
    /// patch (read on the syntax tree: every use of it inside that function, none a member's):
    /// no other file can use it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_local: bool,
}

/// A name the step asks about, counted as a whole word in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NameCount {
    /// The name.
    pub name: String,
    /// Occurrences before the patch.
    pub before: usize,
    /// Occurrences after the patch.
    pub after: usize,
    /// Lines of the file after the patch that hold it, at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines_after: Vec<usize>,
    /// Definitions of that name (functions, methods, classes, types, traits, macros) before
    /// and after the patch, read on the syntax tree (0 for a file read by its lines).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub defined_before: usize,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub defined_after: usize,
    /// Occurrences as code outside the definitions of that name (its callers), before and
    /// after the patch: a recursive call is not one. Every occurrence, in a file read by its
    /// lines.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub outside_before: usize,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub outside_after: usize,
}

// serde's `skip_serializing_if` passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}
