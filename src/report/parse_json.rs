//! `parse --format json`'s envelope written straight from the parsed patch: the same bytes as
//! [`super::write_envelope`] of a [`ParseSummary`] (a test holds the two equal), at a fraction
//! of the cost on a large patch.
//!
//! The file entries and their hunks are most of the answer (some 200,000 lines for a 32 MB
//! diff). Through `serde_json` each member costs about six writes and a byte-by-byte escape scan
//! of its key, and each entry its own strings for paths and modes. Here each member is two
//! writes: its line (`,\n`, the indentation and `"key": `, built once per document) and its
//! value (`itoa` for numbers; a path is checked for bytes JSON escapes and written whole when
//! it has none). The rest of the envelope (defects, warnings, meta) is small and goes through
//! `serde_json` at its indentation level.

use super::indented;
use super::{Meta, Notice, ParseSummary};
use crate::patch::{FilePatch, Hunk};
use crate::path::display_bytes;
use std::io::{self, Write};

/// The members of a hunk, in [`super::HunkSummary`]'s order.
const HUNK_KEYS: [&str; 7] =
    ["old_start", "old_count", "new_start", "new_count", "line", "added", "removed"];

/// The members of a file entry, in [`super::FileSummary`]'s order.
const FILE_KEYS: [&str; 12] = [
    "old_path",
    "new_path",
    "old_path_escaped",
    "new_path_escaped",
    "operation",
    "old_mode",
    "new_mode",
    "binary",
    "line",
    "hunks",
    "added",
    "removed",
];

/// The envelope's levels: the file entries' array is a member of `data`, itself a member of the
/// envelope (level 0), so an entry's members sit at level 4 and a hunk's at 6.
const FILES_LEVEL: usize = 2;

/// A member's line per key at one level: `,\n`, the indentation and `"key": ` in one piece (a
/// first member is written without its comma).
struct Members<const N: usize> {
    lines: [Vec<u8>; N],
}

impl<const N: usize> Members<N> {
    fn new(keys: [&str; N], level: usize) -> Self {
        let lines = keys.map(|key| {
            let mut line = Vec::with_capacity(2 + 2 * level + key.len() + 4);
            line.extend_from_slice(b",\n");
            line.resize(2 + 2 * level, b' ');
            line.push(b'"');
            line.extend_from_slice(key.as_bytes());
            line.extend_from_slice(b"\": ");
            line
        });
        Self { lines }
    }

    /// Member `i`'s line; `first` leaves out the comma.
    fn line(&self, i: usize, first: bool) -> &[u8] {
        &self.lines[i][usize::from(first)..]
    }
}

/// Brackets closing at a level: a line break, the indentation, then `]` or `}`.
fn closing(level: usize, bracket: u8) -> Vec<u8> {
    let mut line = vec![b' '; 1 + 2 * level + 1];
    line[0] = b'\n';
    line[2 * level + 1] = bracket;
    line
}

/// Everything a document's file entries are written with, built once.
struct Layout {
    file: Members<12>,
    hunk: Members<7>,
    /// `{` of an entry after its array's `[` (a first entry) or after `,` (the others), with
    /// the line break and indentation before it.
    file_open: Vec<u8>,
    hunk_open: Vec<u8>,
    file_close: Vec<u8>,
    hunk_close: Vec<u8>,
    files_close: Vec<u8>,
    hunks_close: Vec<u8>,
}

impl Layout {
    fn new(level: usize) -> Self {
        let open = |level: usize| {
            let mut line = vec![b' '; 2 + 2 * level + 1];
            line[0] = b',';
            line[1] = b'\n';
            line[2 + 2 * level] = b'{';
            line
        };
        Self {
            file: Members::new(FILE_KEYS, level + 2),
            hunk: Members::new(HUNK_KEYS, level + 4),
            file_open: open(level + 1),
            hunk_open: open(level + 3),
            file_close: closing(level + 1, b'}'),
            hunk_close: closing(level + 3, b'}'),
            files_close: closing(level, b']'),
            hunks_close: closing(level + 2, b']'),
        }
    }
}

/// Write the success envelope of `summary`, indented, to `out`: byte for byte what
/// [`super::write_envelope`] writes for it.
pub fn write_parse_envelope<W: Write>(
    out: &mut W,
    summary: &ParseSummary<'_>,
    warnings: &[Notice],
    meta: &Meta,
) -> io::Result<()> {
    out.write_all(b"{\n  \"ok\": true,\n  \"data\": {\n    \"ok\": ")?;
    out.write_all(if summary.ok { b"true" } else { b"false" })?;
    out.write_all(b",\n    \"files\": ")?;
    write_files(out, summary.files.entries(), FILES_LEVEL)?;
    out.write_all(b",\n    \"added\": ")?;
    write_number(out, summary.added)?;
    out.write_all(b",\n    \"removed\": ")?;
    write_number(out, summary.removed)?;
    out.write_all(b",\n    \"defects\": ")?;
    indented::write_at(&mut *out, summary.defects, FILES_LEVEL)?;
    out.write_all(b",\n    \"warnings\": ")?;
    indented::write_at(&mut *out, summary.warnings, FILES_LEVEL)?;
    out.write_all(b"\n  },\n  \"error\": null,\n  \"warnings\": ")?;
    indented::write_at(&mut *out, warnings, 1)?;
    out.write_all(b",\n  \"meta\": ")?;
    indented::write_at(&mut *out, meta, 1)?;
    out.write_all(b"\n}")
}

/// The array of file entries, its `[` at `level`.
fn write_files<W: Write>(out: &mut W, files: &[FilePatch<'_>], level: usize) -> io::Result<()> {
    if files.is_empty() {
        return out.write_all(b"[]");
    }
    let layout = Layout::new(level);
    out.write_all(b"[")?;
    for (i, file) in files.iter().enumerate() {
        out.write_all(&layout.file_open[usize::from(i == 0)..])?;
        write_file(out, file, &layout)?;
        out.write_all(&layout.file_close)?;
    }
    out.write_all(&layout.files_close)
}

/// One entry's members (as [`super::FileSummary`] has them).
fn write_file<W: Write>(out: &mut W, file: &FilePatch<'_>, layout: &Layout) -> io::Result<()> {
    let m = &layout.file;
    let (old, new) = (file.old_path.as_deref(), file.new_path.as_deref());
    out.write_all(m.line(0, true))?;
    write_path(out, old)?;
    out.write_all(m.line(1, false))?;
    write_path(out, new)?;
    for (i, path) in [(2, old), (3, new)] {
        if let Some(path) = path.filter(|p| std::str::from_utf8(p).is_err()) {
            out.write_all(m.line(i, false))?;
            write_str(out, &display_bytes(path))?;
        }
    }
    out.write_all(m.line(4, false))?;
    serde_json::to_writer(&mut *out, &file.operation)?;
    out.write_all(m.line(5, false))?;
    write_mode(out, file.old_mode)?;
    out.write_all(m.line(6, false))?;
    write_mode(out, file.new_mode)?;
    out.write_all(m.line(7, false))?;
    serde_json::to_writer(&mut *out, &file.binary.as_ref().map(|b| b.kind))?;
    out.write_all(m.line(8, false))?;
    write_number(out, file.span.line)?;
    out.write_all(m.line(9, false))?;
    write_hunks(out, &file.hunks, layout)?;
    out.write_all(m.line(10, false))?;
    write_number(out, file.added())?;
    out.write_all(m.line(11, false))?;
    write_number(out, file.removed())
}

fn write_hunks<W: Write>(out: &mut W, hunks: &[Hunk<'_>], layout: &Layout) -> io::Result<()> {
    if hunks.is_empty() {
        return out.write_all(b"[]");
    }
    let m = &layout.hunk;
    out.write_all(b"[")?;
    for (i, h) in hunks.iter().enumerate() {
        out.write_all(&layout.hunk_open[usize::from(i == 0)..])?;
        let numbers = [h.old_start, h.old_count, h.new_start, h.new_count];
        for (k, n) in numbers.into_iter().enumerate() {
            out.write_all(m.line(k, k == 0))?;
            write_number(out, n)?;
        }
        let counts = [h.span.line, h.added(), h.removed()];
        for (k, n) in counts.into_iter().enumerate() {
            out.write_all(m.line(4 + k, false))?;
            write_number(out, n)?;
        }
        out.write_all(&layout.hunk_close)?;
    }
    out.write_all(&layout.hunks_close)
}

fn write_number<W: Write>(out: &mut W, n: impl itoa::Integer) -> io::Result<()> {
    out.write_all(itoa::Buffer::new().format(n).as_bytes())
}

/// A path as [`super::FileSummary`] holds it: the text, U+FFFD for bytes that are not UTF-8;
/// `null` for none.
fn write_path<W: Write>(out: &mut W, path: Option<&[u8]>) -> io::Result<()> {
    match path {
        None => out.write_all(b"null"),
        Some(path) => match std::str::from_utf8(path) {
            Ok(text) => write_str(out, text),
            Err(_) => write_str(out, &String::from_utf8_lossy(path)),
        },
    }
}

/// A JSON string: whole when no byte needs escaping, else through `serde_json`.
fn write_str<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    #[allow(
        clippy::needless_bitwise_bool,
        reason = "no early exit, so that the test vectorizes (a path is read whole anyway)"
    )]
    let is_plain =
        text.bytes().fold(true, |plain, b| plain & (b >= 0x20) & (b != b'"') & (b != b'\\'));
    if !is_plain {
        return Ok(serde_json::to_writer(&mut *out, text)?);
    }
    out.write_all(b"\"")?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\"")
}

/// A mode as six or more octal digits in quotes (`"100644"`), as `format!("{m:06o}")`; `null`
/// for none.
fn write_mode<W: Write>(out: &mut W, mode: Option<u32>) -> io::Result<()> {
    let Some(mut mode) = mode else { return out.write_all(b"null") };
    // `"`, at most 11 digits for a u32, `"`.
    let mut text = [b'0'; 13];
    let mut start = 12;
    text[12] = b'"';
    while mode > 0 {
        start -= 1;
        text[start] = b'0' + u8::try_from(mode & 7).expect("an octal digit");
        mode >>= 3;
    }
    start = start.min(12 - 6) - 1;
    text[start] = b'"';
    out.write_all(&text[start..])
}

#[cfg(test)]
mod tests {
    use super::super::{NoticeCode, write_envelope};
    use super::*;
    use crate::patch::{ParseOptions, parse};

    fn both(text: &[u8], options: &ParseOptions, warnings: &[Notice]) -> (String, String) {
        let parsed = parse(text, options);
        let summary = ParseSummary::new(&parsed);
        let meta = Meta::new("parse");
        let (mut direct, mut serde) = (Vec::new(), Vec::new());
        write_parse_envelope(&mut direct, &summary, warnings, &meta).expect("writes to memory");
        write_envelope(&mut serde, &summary, warnings, &meta).expect("writes to memory");
        let text = |bytes| String::from_utf8(bytes).expect("UTF-8");
        (text(direct), text(serde))
    }

    #[test]
    fn the_direct_envelope_is_the_serde_envelope_byte_for_byte() {
        // Every member present and absent: creation, deletion, mode change, rename, copy,
        // binary forms, non-UTF-8 names and names JSON escapes, a file without hunks, several
        // hunks, defects and warnings (lenient chat around the patch), an empty patch.
        let text: &[u8] = b"chat before\n\
diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n-x\r\n+y\n+z\n@@ -10,2 +11,0 @@\n-p\n-q\n\
diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n\
diff --git a/m b/m\nold mode 100644\nnew mode 100755\n\
diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n\
diff --git a/born b/born\nnew file mode 120000\n--- /dev/null\n+++ b/born\n@@ -0,0 +1 @@\n+t\n\\ No newline at end of file\n\
diff --git \"a/caf\\376\" \"b/caf\\377\"\n--- \"a/caf\\376\"\n+++ \"b/caf\\377\"\n@@ -1 +1 @@\n-a\n+b\n\
diff --git \"a/q\\\"t\\\\b\\tc\" \"b/q\\\"t\\\\b\\tc\"\n--- \"a/q\\\"t\\\\b\\tc\"\n+++ \"b/q\\\"t\\\\b\\tc\"\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n\
diff --git a/lit b/lit\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 3\nKcmZ>A00000\n\nliteral 0\nHcmV?d00001\n\n\
trailing chat\n";
        let lenient = ParseOptions { is_strict: false, ..ParseOptions::default() };
        let notices = [Notice { code: NoticeCode::SkippedEntry, message: "m \"q\"".into() }];
        let cases: [(&[u8], &ParseOptions, &[Notice]); 5] = [
            (text, &ParseOptions::default(), &[]),
            (text, &lenient, &notices),
            (b"", &ParseOptions::default(), &[]),
            (b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1 @@\n-a\n", &lenient, &[]),
            (b"--- x\n+++ y\n@@ -1 +1 @@\n-\xff\n+\x00\n", &ParseOptions::default(), &[]),
        ];
        for (text, options, notices) in cases {
            let (direct, serde) = both(text, options, notices);
            assert_eq!(direct, serde, "{}", String::from_utf8_lossy(text));
        }
        let (direct, _) = both(text, &lenient, &[]);
        for member in [
            "\"old_path_escaped\"",
            "\"new_path_escaped\"",
            "\"new_mode\": \"120000\"",
            "\"git_patch\"",
        ] {
            assert!(direct.contains(member), "{member} missing:\n{direct}");
        }
    }

    #[test]
    fn modes_are_six_octal_digits_or_more() {
        for mode in [0, 0o7, 0o644, 0o100_644, 0o160_000, 0o7_777_777, u32::MAX] {
            let mut out = Vec::new();
            write_mode(&mut out, Some(mode)).expect("writes to memory");
            assert_eq!(String::from_utf8(out).expect("ASCII"), format!("\"{mode:06o}\""));
        }
    }
}
