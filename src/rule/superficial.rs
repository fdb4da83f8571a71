//! Telling superficial edits from real ones. For a language patchgate has a grammar for, the
//! file's two images are compared as tokens ([`super::syntax`]); for any other file, by the
//! line fallback here: its change is whitespace-only when its removed and added lines are equal
//! once all whitespace is dropped (but indentation, in YAML or a Makefile), and comment-only
//! when they are equal once comments (by the file's language) are dropped too.

use super::intent::Base;
use super::syntax;
pub(super) use super::syntax::Change;
use crate::patch::{FilePatch, LineKind, Operation};

/// What decided a file's [`Change`], for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decider {
    /// The token comparison of this language's syntax tree.
    Syntax(&'static str),
    /// The line fallback.
    Lines,
}

impl Decider {
    /// How the report words it: `compared as Rust tokens`.
    pub(super) fn describe(self) -> String {
        match self {
            Self::Syntax(name) => format!("compared as {name} tokens"),
            Self::Lines => "compared line by line".to_owned(),
        }
    }
}

/// Classify every file of a patch, or `None` as soon as one is code: the patch is then a real
/// change whatever the others are. The line fallback runs over the files first and stops at the
/// first one plainly code, so such a patch parses nothing and reads no file past it.
pub(super) fn classify_patch(
    files: &[FilePatch<'_>],
    base: Option<&dyn Base>,
) -> Option<Vec<(Change, Decider)>> {
    let mut by_lines = Vec::with_capacity(files.len());
    for file in files {
        let judged = judge_lines(file);
        if matches!(judged, Judged::Final((Change::Code, _))) {
            return None;
        }
        by_lines.push(judged);
    }
    let mut out = Vec::with_capacity(files.len());
    for (file, judged) in files.iter().zip(by_lines) {
        let judged = match judged {
            Judged::Final(judged) => judged,
            Judged::Parse(grammar, by_lines) => parse(file, base, grammar, by_lines),
        };
        if judged.0 == Change::Code {
            return None;
        }
        out.push(judged);
    }
    Some(out)
}

/// Classify one file entry's edit, on its syntax tree when patchgate has the file's grammar.
#[cfg(test)]
pub(super) fn classify(file: &FilePatch<'_>, base: Option<&dyn Base>) -> (Change, Decider) {
    match judge_lines(file) {
        Judged::Final(judged) => judged,
        Judged::Parse(grammar, by_lines) => parse(file, base, grammar, by_lines),
    }
}

/// What the line fallback alone can say of a file.
enum Judged {
    /// Decided: code by lines, or no grammar to ask.
    Final((Change, Decider)),
    /// To be compared on the syntax tree of this grammar (the lines' answer is the fallback).
    Parse(syntax::Grammar, Change),
}

/// The line fallback runs first: when it sees code, nothing is parsed, unless the edit is small
/// and made of lines that read like comment text (the lines cannot see a block comment opened
/// above the hunk).
fn judge_lines(file: &FilePatch<'_>) -> Judged {
    let by_lines = classify_lines(file);
    let is_small = file.added() + file.removed() <= MAX_PARSED_EDIT;
    if by_lines == Change::Code && !(is_small && changes_look_like_comment_text(file)) {
        return Judged::Final((by_lines, Decider::Lines));
    }
    let name = String::from_utf8_lossy(file.path());
    match syntax::grammar_for(&name) {
        Some(grammar) => Judged::Parse(grammar, by_lines),
        None => Judged::Final((by_lines, Decider::Lines)),
    }
}

/// Compare the file's two images as tokens of `grammar`; the lines' answer when they do not
/// parse.
fn parse(
    file: &FilePatch<'_>,
    base: Option<&dyn Base>,
    grammar: syntax::Grammar,
    by_lines: Change,
) -> (Change, Decider) {
    let (old, new) = images(file, base);
    match syntax::compare(grammar, &old, &new) {
        Some(change) => (change, Decider::Syntax(grammar.name)),
        None => (by_lines, Decider::Lines),
    }
}

/// Whether every changed line starts like comment text (` * two`, `// x`, `# x`): the one case
/// where the lines can call code what the syntax tree calls a comment (a hunk inside a block
/// comment opened above it). Any other edit the lines call code is code, and is not parsed.
fn changes_look_like_comment_text(file: &FilePatch<'_>) -> bool {
    const STARTS: [&[u8]; 8] = [b"*", b"//", b"#", b"/*", b"--", b"\"\"\"", b"'''", b"<!--"];
    file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind != LineKind::Context).all(|l| {
        let text = l.text.trim_ascii();
        text.is_empty() || STARTS.iter().any(|s| text.starts_with(s))
    })
}

/// Edits the line fallback calls code are parsed up to this many changed lines.
const MAX_PARSED_EDIT: usize = 40;

/// Files above this size are compared on their hunks alone.
const MAX_IMAGE: usize = 4 << 20;

/// The file before and after: the whole file when the base tree has it and every hunk sits
/// where it says, else the hunks' two sides (context plus removed, context plus added).
fn images(file: &FilePatch<'_>, base: Option<&dyn Base>) -> (Vec<u8>, Vec<u8>) {
    let old_path = file.old_path.as_deref().filter(|_| file.operation != Operation::Create);
    let whole = base.zip(old_path).and_then(|(base, path)| {
        let content = base.content(&String::from_utf8_lossy(path))?;
        if content.len() > MAX_IMAGE {
            return None;
        }
        let new = patched(&content, file)?;
        Some((content, new))
    });
    whole.unwrap_or_else(|| hunk_sides(file))
}

/// `content` with `file`'s hunks applied at their stated lines, or `None` when one does not
/// match there (the scratch check finds it with an offset, or refuses it).
fn patched(content: &[u8], file: &FilePatch<'_>) -> Option<Vec<u8>> {
    let lines: Vec<&[u8]> = content.split_inclusive(|&b| b == b'\n').collect();
    let mut out = Vec::with_capacity(content.len());
    let mut next = 0; // the first base line not yet copied
    for hunk in &file.hunks {
        let start = usize::try_from(hunk.old_start).ok()?;
        let start = if hunk.old_count == 0 { start } else { start.checked_sub(1)? };
        out.extend(lines.get(next..start)?.iter().copied().flatten());
        let mut at = start;
        for line in &hunk.lines {
            if line.kind != LineKind::Add {
                let base = lines.get(at)?;
                if base.strip_suffix(b"\n").unwrap_or(base) != line.text {
                    return None;
                }
                at += 1;
            }
            if line.kind != LineKind::Remove {
                out.extend_from_slice(line.text);
                out.push(b'\n');
            }
        }
        next = at;
    }
    out.extend(lines.get(next..)?.iter().copied().flatten());
    Some(out)
}

/// The hunks' two sides, one after the other.
fn hunk_sides(file: &FilePatch<'_>) -> (Vec<u8>, Vec<u8>) {
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for line in file.hunks.iter().flat_map(|h| &h.lines) {
        for (side, skip) in [(&mut old, LineKind::Add), (&mut new, LineKind::Remove)] {
            if line.kind != skip {
                side.extend_from_slice(line.text);
                side.push(b'\n');
            }
        }
    }
    (old, new)
}

/// Comment markers of one language, and whether its indentation is syntax.
#[derive(Clone, Copy, Debug)]
struct Syntax {
    line: &'static [&'static str],
    block: &'static [(&'static str, &'static str)],
    is_indented: bool,
}

/// Append a changed line's indentation (as letters, so dropping whitespace keeps it) in a
/// language where indentation is syntax: re-indenting a YAML block or a Makefile recipe is a
/// real change.
fn push_indent(out: &mut String, text: &str, syntax: &Syntax) {
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

fn syntax_for(path: &[u8]) -> Syntax {
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

/// Classify one file entry's edit. Linear in the file's hunk lines, and it stops at the first
/// point where both the whitespace-free and the comment-free texts of the two sides differ (the
/// edit is then code whatever follows).
pub(super) fn classify_lines(file: &FilePatch<'_>) -> Change {
    if file.added() + file.removed() == 0 || file.binary.is_some() {
        return Change::Code;
    }
    let syntax = syntax_for(file.path());
    // Context lines only matter for the block-comment state, so a language without block
    // comments can skip them.
    let needs_context = !syntax.block.is_empty();
    let (mut old, mut new) = (Side::default(), Side::default());
    let (mut raw_from, mut code_from) = (0, 0);
    let (mut raw_differs, mut code_differs) = (false, false);
    // Changed lines still to come on each side: a side with none left has its final text, so
    // the other side growing past it is a difference too (a file that only adds lines).
    let all = || file.hunks.iter().flat_map(|h| &h.lines);
    let mut old_left = all().filter(|l| l.kind == LineKind::Remove).count();
    let mut new_left = all().filter(|l| l.kind == LineKind::Add).count();
    for hunk in &file.hunks {
        let (mut old_block, mut new_block) = (None, None);
        for line in &hunk.lines {
            if line.kind == LineKind::Context && !needs_context {
                continue;
            }
            let text = String::from_utf8_lossy(line.text);
            if line.kind != LineKind::Add {
                old.push(&text, line.kind == LineKind::Remove, &syntax, &mut old_block);
            }
            if line.kind != LineKind::Remove {
                new.push(&text, line.kind == LineKind::Add, &syntax, &mut new_block);
            }
            match line.kind {
                LineKind::Context => continue,
                LineKind::Remove => old_left -= 1,
                LineKind::Add => new_left -= 1,
            }
            let done = (old_left == 0, new_left == 0);
            // The texts only grow, so a difference within the common prefix is final.
            raw_differs = raw_differs || differs(&old.raw, &new.raw, &mut raw_from, done);
            code_differs = code_differs || differs(&old.code, &new.code, &mut code_from, done);
            if raw_differs && code_differs {
                return Change::Code;
            }
        }
    }
    if old.raw == new.raw {
        Change::Whitespace
    } else if old.code == new.code {
        Change::Comment
    } else {
        Change::Code
    }
}

/// Whether `a` and `b` differ within their common prefix past `*from` (the part already found
/// equal), or one is final (`done`) and the other already longer; moves `*from` to the end of
/// the common prefix when they do not.
fn differs(a: &str, b: &str, from: &mut usize, (a_done, b_done): (bool, bool)) -> bool {
    if (a_done && b.len() > a.len()) || (b_done && a.len() > b.len()) {
        return true;
    }
    let end = a.len().min(b.len());
    if a.as_bytes()[*from..end] != b.as_bytes()[*from..end] {
        return true;
    }
    *from = end;
    false
}

/// The changed lines of one side, without whitespace (`raw`) and also without comments (`code`).
#[derive(Default)]
struct Side {
    raw: String,
    code: String,
}

impl Side {
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
fn unopened_block_end(text: &str, syntax: &Syntax) -> Option<&'static str> {
    syntax.block.iter().find_map(|(start, end)| {
        let at = text.find(end)?;
        let opened = text.find(start).is_some_and(|s| s < at) && start != end;
        (!opened && start != end).then_some(*end)
    })
}

#[cfg(test)]
#[path = "superficial_tests.rs"]
mod tests;
