//! The line fallback, for files patchgate has no grammar for (or that do not parse): a file's
//! change is whitespace-only when its removed and added lines are equal once all whitespace is
//! dropped (but indentation, in YAML or a Makefile), and comment-only when they are equal once
//! comments (by the file's language) are dropped too. It cannot see what a syntax tree sees (a
//! moved line, a `#` inside a string), so what it finds alone is never enough to reject, but
//! for whitespace only appended to line ends ([`only_appends_trailing_whitespace`]), which it
//! reads with certainty.

use crate::finding::ChangeKind;
use crate::patch::{FilePatch, LineKind};
use std::collections::HashMap;

/// Whether every changed line starts like comment text (` * two`, `// x`, `# x`): the one case
/// where the lines can call code what the syntax tree calls a comment (a hunk inside a block
/// comment opened above it).
pub fn changes_look_like_comment_text(file: &FilePatch<'_>) -> bool {
    const STARTS: [&[u8]; 8] = [b"*", b"//", b"#", b"/*", b"--", b"\"\"\"", b"'''", b"<!--"];
    file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind != LineKind::Context).all(|l| {
        let text = l.text.trim_ascii();
        text.is_empty() || STARTS.iter().any(|s| text.starts_with(s))
    })
}

/// Whether the removed lines and the added lines are the same lines (trimmed, blank ones
/// aside), as when code is moved unchanged.
pub fn may_be_move(file: &FilePatch<'_>) -> bool {
    let mut count: HashMap<&[u8], isize> = HashMap::new();
    let mut changed = 0usize;
    for line in file.hunks.iter().flat_map(|h| &h.lines) {
        let text = line.text.trim_ascii();
        let step = match line.kind {
            LineKind::Context => continue,
            _ if text.is_empty() => continue,
            LineKind::Remove => -1,
            LineKind::Add => 1,
        };
        changed += 1;
        *count.entry(text).or_default() += step;
    }
    changed > 0 && count.values().all(|&n| n == 0)
}

/// Whether every change of the file only appends whitespace to line ends: each run of
/// changed lines removes as many lines as it adds, and each added line is the removed line at
/// its place with spaces or tabs added at its end. The one whitespace change the lines read
/// with certainty: no line moves, no whitespace inside a line or before it changes, and no one
/// fixes anything by adding trailing spaces. Not in Markdown, where two trailing spaces break
/// the line.
#[must_use]
pub fn only_appends_trailing_whitespace(file: &FilePatch<'_>) -> bool {
    let name = String::from_utf8_lossy(file.path()).into_owned();
    let ext = std::path::Path::new(&name).extension().unwrap_or_default();
    if ext.eq_ignore_ascii_case("md") || ext.eq_ignore_ascii_case("markdown") {
        return false;
    }
    only_pads_line_ends(file)
}

/// Whether the file entry only appends spaces or tabs to the ends of lines, as
/// [`only_appends_trailing_whitespace`] reads it, Markdown included: spaces that are at most a
/// line break where they render, and never what a step about a document's text asks.
#[must_use]
pub fn only_pads_line_ends(file: &FilePatch<'_>) -> bool {
    if file.binary.is_some() {
        return false;
    }
    let trim = |text: &[u8]| -> usize {
        text.iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r')).map_or(0, |at| at + 1)
    };
    // A pair of lines the diff lists as changed though they are the same (a blank line inside
    // a run of padded ones) appends nothing, and breaks nothing either.
    let appends = |old: &[u8], new: &[u8]| {
        let (o, n) = (trim(old), trim(new));
        o == n && old[..o] == new[..n] && new.len() >= old.len()
    };
    let mut any = false;
    for hunk in &file.hunks {
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for line in hunk.lines.iter().chain(std::iter::once(CONTEXT)) {
            match line.kind {
                LineKind::Remove if added.is_empty() => removed.push(line.text),
                LineKind::Remove => return false,
                LineKind::Add => added.push(line.text),
                LineKind::Context => {
                    if removed.len() != added.len()
                        || !removed.iter().zip(&added).all(|(o, n)| appends(o, n))
                    {
                        return false;
                    }
                    any |= removed.iter().zip(&added).any(|(o, n)| n.len() > o.len());
                    (removed, added) = (Vec::new(), Vec::new());
                }
            }
        }
    }
    any
}

/// A context line closing a hunk's last run of changes.
const CONTEXT: crate::patch::Line<'static> =
    crate::patch::Line { kind: LineKind::Context, text: b"", has_newline: true, line: 0 };

/// Comment markers of one language, and whether its indentation is syntax.
#[derive(Clone, Copy, Debug)]
pub(super) struct Syntax {
    pub(super) line: &'static [&'static str],
    pub(super) block: &'static [(&'static str, &'static str)],
    is_indented: bool,
}

/// Append a changed line's indentation (as letters, so dropping whitespace keeps it) in a
/// language where indentation is syntax: re-indenting a YAML block or a Makefile recipe is a
/// real change.
pub(super) fn push_indent(out: &mut String, text: &str, syntax: &Syntax) {
    // A blank line has no indentation to speak of.
    if syntax.is_indented && !text.trim().is_empty() {
        out.push('\u{1}');
        let indent = text.chars().take_while(|c| matches!(c, ' ' | '\t'));
        out.extend(indent.map(|c| if c == '\t' { 't' } else { 's' }));
    }
}

const C_LIKE: Syntax = Syntax { line: &["//"], block: &[("/*", "*/")], is_indented: false };
const HASH: Syntax = Syntax { line: &["#"], block: &[], is_indented: false };
const PYTHON: Syntax =
    Syntax { line: &["#"], block: &[("\"\"\"", "\"\"\""), ("'''", "'''")], is_indented: true };
const DASH: Syntax =
    Syntax { line: &["--"], block: &[("--[[", "]]"), ("{-", "-}")], is_indented: false };
const MARKUP: Syntax = Syntax { line: &[], block: &[("<!--", "-->")], is_indented: false };
const CSS: Syntax = Syntax { line: &[], block: &[("/*", "*/")], is_indented: false };
const SEMI: Syntax = Syntax { line: &[";"], block: &[], is_indented: false };
const PERCENT: Syntax = Syntax { line: &["%"], block: &[], is_indented: false };
const PHP: Syntax = Syntax { line: &["//", "#"], block: &[("/*", "*/")], is_indented: false };
const NONE: Syntax = Syntax { line: &[], block: &[], is_indented: false };

pub(super) fn syntax_for(path: &[u8]) -> Syntax {
    let name = String::from_utf8_lossy(path).rsplit('/').next().unwrap_or_default().to_lowercase();
    let indented = |syntax: Syntax| Syntax { is_indented: true, ..syntax };
    if matches!(name.as_str(), "makefile" | "gnumakefile") {
        return indented(HASH);
    }
    if matches!(name.as_str(), "dockerfile" | "cmakelists.txt" | ".gitignore") {
        return HASH;
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "yaml" | "yml" | "mk" => return indented(HASH),
        "hs" | "lhs" => return indented(DASH),
        "fs" | "fsi" | "fsx" => return indented(C_LIKE),
        _ => {}
    }
    match ext {
        "rs" | "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "java" | "js" | "mjs" | "cjs"
        | "jsx" | "ts" | "tsx" | "go" | "kt" | "kts" | "swift" | "cs" | "scala" | "dart"
        | "groovy" | "gradle" | "proto" | "zig" | "scss" | "less" | "jsonc" | "sol" | "m" => C_LIKE,
        "py" | "pyi" => PYTHON,
        "sh" | "bash" | "zsh" | "fish" | "rb" | "pl" | "pm" | "yaml" | "yml" | "toml" | "r"
        | "cmake" | "conf" | "cfg" | "nix" | "ex" | "exs" | "jl" | "ps1" | "tf" | "mk"
        | "dockerfile" => HASH,
        "sql" | "lua" | "hs" | "elm" | "ada" | "adb" | "ads" => DASH,
        "html" | "htm" | "xml" | "svg" | "vue" | "md" | "markdown" | "xhtml" => MARKUP,
        "css" => CSS,
        "lisp" | "el" | "clj" | "cljs" | "scm" | "ini" | "asm" | "s" => SEMI,
        "tex" | "erl" | "hrl" => PERCENT,
        "php" => PHP,
        _ => NONE,
    }
}

/// Classify one file entry's edit, one run of changed lines at a time (a run ends at a context
/// line): a line removed in one place and added in another, or lines swapped, are code. Linear
/// in the file's hunk lines; it stops at the first run that is code.
#[must_use]
pub fn classify_lines(file: &FilePatch<'_>) -> ChangeKind {
    if file.added() + file.removed() == 0 || file.binary.is_some() {
        return ChangeKind::Code;
    }
    let syntax = syntax_for(file.path());
    // Context lines only matter for the block-comment state, so a language without block
    // comments can skip them.
    let needs_context = !syntax.block.is_empty();
    let (mut old, mut new) = (Side::default(), Side::default());
    let mut worst = ChangeKind::Whitespace;
    for hunk in &file.hunks {
        let (mut old_block, mut new_block) = (None, None);
        for line in &hunk.lines {
            if line.kind == LineKind::Context {
                worst = worst.max(old.settle(&mut new));
                if worst == ChangeKind::Code {
                    return worst;
                }
                if !needs_context {
                    continue;
                }
            }
            let text = String::from_utf8_lossy(line.text);
            if line.kind != LineKind::Add {
                old.push(&text, line.kind == LineKind::Remove, &syntax, &mut old_block);
            }
            if line.kind != LineKind::Remove {
                new.push(&text, line.kind == LineKind::Add, &syntax, &mut new_block);
            }
        }
        worst = worst.max(old.settle(&mut new));
        if worst == ChangeKind::Code {
            return worst;
        }
    }
    worst
}

/// The changed lines of one side, without whitespace (`raw`) and also without comments (`code`).
#[derive(Default)]
struct Side {
    raw: String,
    code: String,
}

impl Side {
    /// What the run of changed lines gathered so far amounts to (`self` the old side, `new`
    /// the new one); both sides start the next run empty.
    fn settle(&mut self, new: &mut Side) -> ChangeKind {
        let kind = if self.raw == new.raw {
            ChangeKind::Whitespace
        } else if self.code == new.code {
            ChangeKind::Comment
        } else {
            ChangeKind::Code
        };
        for side in [self, new] {
            side.raw.clear();
            side.code.clear();
        }
        kind
    }

    /// Feed one line; context lines only advance the block-comment state.
    fn push(
        &mut self,
        text: &str,
        is_changed: bool,
        syntax: &Syntax,
        block: &mut Option<&'static str>,
    ) {
        if is_changed {
            push_indent(&mut self.raw, text, syntax);
            push_indent(&mut self.code, text, syntax);
            push_non_whitespace(&mut self.raw, text);
            strip_comments(text, syntax, block, |code| push_non_whitespace(&mut self.code, code));
        } else {
            strip_comments(text, syntax, block, |_| {});
        }
    }
}

/// Append `text` without its whitespace (Unicode whitespace, as `char::is_whitespace`).
fn push_non_whitespace(out: &mut String, text: &str) {
    if text.is_ascii() {
        out.extend(text.bytes().filter(|b| !matches!(b, b' ' | b'\t'..=b'\r')).map(char::from));
    } else {
        out.extend(text.chars().filter(|c| !c.is_whitespace()));
    }
}

/// Hand the code parts of `text` (everything but its comments) to `code`, in order. `block` is
/// the end marker of a block comment open at the start of the line (updated for the next line).
/// Double-quoted strings are skipped so `"http://x"` stays code; a block end seen while not in a
/// block means the hunk started inside one.
fn strip_comments(
    text: &str,
    syntax: &Syntax,
    block: &mut Option<&'static str>,
    mut code: impl FnMut(&str),
) {
    if block.is_none()
        && let Some(end) = unopened_block_end(text, syntax)
    {
        *block = Some(end);
    }
    let mut rest = text;
    let mut in_string = false;
    while !rest.is_empty() {
        if let Some(end) = *block {
            let Some(at) = rest.find(end) else { return };
            rest = &rest[at + end.len()..];
            *block = None;
            continue;
        }
        // Every marker and the quote are ASCII: jump to the next byte that may start one.
        let bytes = rest.as_bytes();
        let at = bytes.iter().position(|&b| b == b'"' || (!in_string && syntax.may_start(b)));
        let Some(at) = at else {
            code(rest);
            return;
        };
        code(&rest[..at]);
        rest = &rest[at..];
        if !in_string {
            if let Some((start, end)) = syntax.block.iter().find(|(s, _)| rest.starts_with(s)) {
                rest = &rest[start.len()..];
                *block = Some(end);
                continue;
            }
            if syntax.line.iter().any(|m| rest.starts_with(m)) {
                return;
            }
        }
        if rest.as_bytes()[0] == b'"' {
            in_string = !in_string;
        }
        code(&rest[..1]);
        rest = &rest[1..];
    }
}

impl Syntax {
    /// Whether `b` is the first byte of one of the comment markers.
    fn may_start(&self, b: u8) -> bool {
        self.line.iter().any(|m| m.as_bytes()[0] == b)
            || self.block.iter().any(|(s, _)| s.as_bytes()[0] == b)
    }
}

/// The end marker of a block comment the line closes without opening (`still a comment */`).
pub(super) fn unopened_block_end(text: &str, syntax: &Syntax) -> Option<&'static str> {
    syntax.block.iter().find_map(|(start, end)| {
        let at = text.find(end)?;
        let opened = text.find(start).is_some_and(|s| s < at) && start != end;
        (!opened && start != end).then_some(*end)
    })
}
