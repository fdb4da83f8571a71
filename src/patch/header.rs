//! File entry headers: the `diff --git` line and git's extended headers, the `---`/`+++` pair,
//! and the traditional (`diff -u`) entry.

use super::cursor::Raw;
use super::parse::{Parser, quote_input};
use super::quote::{
    git_names, has_epoch_timestamp, header_name, strip_components, traditional_name,
};
use super::{Binary, BinaryKind, DefectCode, FilePatch, IndexLine, Operation, Span};

/// One side of a `---`/`+++` pair: `None` for `/dev/null`.
pub(super) type Side = Option<Vec<u8>>;

/// What the header lines of one entry said, before they are checked against each other.
#[derive(Debug, Default)]
pub(super) struct Headers {
    /// The names on the `diff --git` line, when they could be read.
    pub git: Option<(Vec<u8>, Vec<u8>)>,
    /// The `diff --git` line names a single unquoted file (no space to split at).
    pub git_one_name: bool,
    pub old_mode: Option<u32>,
    pub new_mode: Option<u32>,
    pub deleted_mode: Option<u32>,
    pub new_file_mode: Option<u32>,
    pub rename_from: Option<Vec<u8>>,
    pub rename_to: Option<Vec<u8>>,
    pub copy_from: Option<Vec<u8>>,
    pub copy_to: Option<Vec<u8>>,
    /// The `---` and `+++` names with their line.
    pub minus: Option<(Side, Span)>,
    pub plus: Option<Side>,
    /// The `---` and `+++` names as written, before the prefix strip (to tell a missing
    /// `a/`/`b/` from a different file).
    pub written: Option<(Vec<u8>, Vec<u8>)>,
    /// A mode line could not be read (so a missing partner is not reported again).
    pub has_bad_mode: bool,
}

impl FilePatch<'_> {
    fn empty(span: Span, is_git: bool) -> Self {
        FilePatch {
            span,
            is_git,
            old_path: None,
            new_path: None,
            operation: Operation::Modify,
            old_mode: None,
            new_mode: None,
            similarity: None,
            dissimilarity: None,
            index: None,
            binary: None,
            hunks: Vec::new(),
        }
    }
}

/// Six octal digits (`100644`).
fn parse_mode(text: &[u8]) -> Option<u32> {
    if text.len() != 6 || !text.iter().all(|b| (b'0'..=b'7').contains(b)) {
        return None;
    }
    Some(text.iter().fold(0, |acc, &b| acc * 8 + u32::from(b - b'0')))
}

/// `N%` with N at most 100.
fn parse_percent(text: &[u8]) -> Option<u8> {
    let digits = text.strip_suffix(b"%")?;
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = digits.iter().fold(0u16, |acc, &b| acc * 10 + u16::from(b - b'0'));
    u8::try_from(value).ok().filter(|&v| v <= 100)
}

/// `<hex>..<hex>[ <mode>]`.
fn parse_index(text: &[u8]) -> Option<IndexLine<'_>> {
    let (ids, mode) = match memchr::memchr(b' ', text) {
        Some(i) => (&text[..i], Some(parse_mode(&text[i + 1..])?)),
        None => (text, None),
    };
    let dots = memchr::memmem::find(ids, b"..")?;
    let (old, new) = (&ids[..dots], &ids[dots + 2..]);
    let is_hex = |id: &[u8]| !id.is_empty() && id.iter().all(u8::is_ascii_hexdigit);
    (is_hex(old) && is_hex(new)).then_some(IndexLine { old, new, mode })
}

/// A `---`/`+++` name: `/dev/null` (or, in a traditional entry, an epoch timestamp) is `None`;
/// git entries strip `a/`/`b/` (required), traditional ones strip a first component when there
/// is one.
fn side_name(rest: &[u8], is_git: bool, strip: usize) -> Result<Side, &'static str> {
    let name = traditional_name(rest).ok_or("malformed quoted name")?;
    // GNU `diff -N`: an epoch timestamp marks the side where the file does not exist.
    if name == b"/dev/null" || (!is_git && has_epoch_timestamp(rest)) {
        return Ok(None);
    }
    if name.is_empty() {
        return Err("no file name");
    }
    match strip_components(&name, strip) {
        Some(stripped) if !stripped.is_empty() => Ok(Some(stripped.to_vec())),
        Some(_) => Err("no file name after the prefix"),
        None if is_git => Err("name without an a/ or b/ prefix"),
        None => Ok(Some(name)),
    }
}

impl<'a> Parser<'a, '_> {
    /// A `diff --git` entry: header line, extended headers, then `---`/`+++` and hunks, or a
    /// binary block, or nothing (header-only entries).
    pub fn git_entry(&mut self) {
        let line = self.cur.peek().expect("classify saw a line");
        self.entry_defects = self.out.defects.len();
        let mut file = FilePatch::empty(line.span, true);
        let mut headers = Headers::default();
        let rest = &line.trimmed()[b"diff --git ".len()..];
        headers.git_one_name =
            !rest.starts_with(b"\"") && !rest.iter().any(|&b| b == b' ' || b == b'\t');
        match git_names(rest, self.options.strip) {
            Ok(names) => headers.git = names,
            Err(why) => self.bad_path(line, why),
        }
        self.cur.bump();
        while let Some(next) = self.cur.peek() {
            if !self.extended_header(next, &mut file, &mut headers) {
                break;
            }
            self.cur.bump();
        }
        self.git_content(&mut file, &mut headers);
        self.resolve_git(&mut file, &headers);
        self.push_file(file);
    }

    /// Keep a read entry. Most entries have one or two hunks: the hunk list gives back the
    /// room its growth reserved.
    fn push_file(&mut self, mut file: FilePatch<'a>) {
        file.hunks.shrink_to_fit();
        self.out.patch.files.push(file);
    }

    fn bad_path(&mut self, line: Raw<'a>, why: &str) {
        let message = format!("{why} in `{}`; write paths as git does", quote_input(line.text));
        self.defect(DefectCode::BadPath, line.span, message);
    }

    fn bad_header(&mut self, code: DefectCode, line: Raw<'a>) {
        let what = if code == DefectCode::BadMode { "mode (six octal digits)" } else { "value" };
        let message = format!("bad {what} in `{}`", quote_input(line.text));
        self.defect(code, line.span, message);
    }

    fn repeated(&mut self, line: Raw<'a>) {
        let message = format!("header `{}` given twice in one entry", quote_input(line.text));
        self.defect(DefectCode::InconsistentHeaders, line.span, message);
    }

    /// Read one extended header line; false when the line is not one.
    fn extended_header(
        &mut self,
        line: Raw<'a>,
        file: &mut FilePatch<'a>,
        h: &mut Headers,
    ) -> bool {
        let t = line.trimmed();
        let Some(space) = memchr::memchr(b' ', t) else { return false };
        let (key, _) = t.split_at(space);
        match key {
            b"old" | b"new" | b"deleted" => self.mode_header(line, h),
            b"rename" | b"copy" => self.path_header(line, h),
            b"similarity" | b"dissimilarity" => self.percent_header(line, file),
            b"index" => {
                let Some(index) = parse_index(&t[space + 1..]) else {
                    self.bad_header(DefectCode::BadHeader, line);
                    return true;
                };
                if file.index.replace(index).is_some() {
                    self.repeated(line);
                }
                true
            }
            _ => false,
        }
    }

    fn mode_header(&mut self, line: Raw<'a>, h: &mut Headers) -> bool {
        let t = line.trimmed();
        let (slot, rest) = if let Some(rest) = t.strip_prefix(b"old mode ") {
            (&mut h.old_mode, rest)
        } else if let Some(rest) = t.strip_prefix(b"new mode ") {
            (&mut h.new_mode, rest)
        } else if let Some(rest) = t.strip_prefix(b"deleted file mode ") {
            (&mut h.deleted_mode, rest)
        } else if let Some(rest) = t.strip_prefix(b"new file mode ") {
            (&mut h.new_file_mode, rest)
        } else {
            return false;
        };
        if let Some(mode) = parse_mode(rest) {
            if slot.replace(mode).is_some() {
                self.repeated(line);
            }
        } else {
            h.has_bad_mode = true;
            self.bad_header(DefectCode::BadMode, line);
        }
        true
    }

    fn path_header(&mut self, line: Raw<'a>, h: &mut Headers) -> bool {
        const KEYS: [&[u8]; 6] = [
            b"rename from ",
            b"rename old ",
            b"rename to ",
            b"rename new ",
            b"copy from ",
            b"copy to ",
        ];
        let t = line.trimmed();
        let Some(k) = KEYS.iter().position(|key| t.starts_with(key)) else { return false };
        let slot = match k {
            0 | 1 => &mut h.rename_from,
            2 | 3 => &mut h.rename_to,
            4 => &mut h.copy_from,
            _ => &mut h.copy_to,
        };
        match header_name(&t[KEYS[k].len()..]) {
            Some(name) => {
                if slot.replace(name).is_some() {
                    self.repeated(line);
                }
            }
            None => self.bad_path(line, "malformed name"),
        }
        true
    }

    fn percent_header(&mut self, line: Raw<'a>, file: &mut FilePatch<'a>) -> bool {
        let t = line.trimmed();
        let (slot, rest) = if let Some(rest) = t.strip_prefix(b"similarity index ") {
            (&mut file.similarity, rest)
        } else if let Some(rest) = t.strip_prefix(b"dissimilarity index ") {
            (&mut file.dissimilarity, rest)
        } else {
            return false;
        };
        match parse_percent(rest) {
            Some(value) => {
                if slot.replace(value).is_some() {
                    self.repeated(line);
                }
            }
            None => self.bad_header(DefectCode::BadHeader, line),
        }
        true
    }

    /// After the extended headers: a binary marker or block, or `---`/`+++` and hunks.
    fn git_content(&mut self, file: &mut FilePatch<'a>, h: &mut Headers) {
        let Some(line) = self.cur.peek() else { return };
        let t = line.trimmed();
        if t.starts_with(b"Binary files ") && t.ends_with(b" differ") {
            self.notes.binary.add(line.span);
            file.binary = Some(Binary { kind: BinaryKind::Marker, payload: &[] });
            self.cur.bump();
        } else if t == b"GIT binary patch" {
            self.git_binary(file);
        } else if t.starts_with(b"--- ") {
            if self.minus_plus(line, true, h) {
                self.hunks(file);
            }
        } else if t.starts_with(b"@@") {
            let message = format!(
                "hunk `{}` follows a `diff --git` header without `---`/`+++` lines; add them",
                quote_input(line.text)
            );
            self.defect(DefectCode::IncompleteHeader, line.span, message);
            self.skip_to_entry();
        }
    }

    /// The `---`/`+++` pair at the current line; false (after a defect and recovery) when
    /// it is not a usable pair.
    fn minus_plus(&mut self, minus: Raw<'a>, is_git: bool, h: &mut Headers) -> bool {
        let plus = self.cur.peek_next().filter(|p| p.text.starts_with(b"+++ "));
        let Some(plus) = plus else {
            let message = format!(
                "`{}` is not followed by a `+++` line; every `---` needs its `+++`",
                quote_input(minus.text)
            );
            self.defect(DefectCode::IncompleteHeader, minus.span, message);
            self.skip_to_entry();
            return false;
        };
        let strip = self.options.strip;
        let old = side_name(&minus.trimmed()[4..], is_git, strip);
        let new = side_name(&plus.trimmed()[4..], is_git, strip);
        h.written =
            traditional_name(&minus.trimmed()[4..]).zip(traditional_name(&plus.trimmed()[4..]));
        self.cur.bump();
        self.cur.bump();
        match (old, new) {
            (Ok(old), Ok(new)) => {
                h.minus = Some((old, minus.span));
                h.plus = Some(new);
                true
            }
            (Err(why), _) => self.bad_side(minus, why),
            (_, Err(why)) => self.bad_side(plus, why),
        }
    }

    fn bad_side(&mut self, line: Raw<'a>, why: &str) -> bool {
        self.bad_path(line, why);
        while self.cur.peek().is_some_and(|l| !self.is_entry_start(l)) {
            self.cur.bump();
        }
        false
    }

    /// A traditional entry: an optional `diff ...` command line, `---`, `+++`, hunks.
    pub fn traditional_entry(&mut self) {
        if self.cur.peek().is_some_and(|l| l.text.starts_with(b"diff ")) {
            self.cur.bump();
        }
        let minus = self.cur.peek().expect("classify saw `---` then `+++`");
        self.entry_defects = self.out.defects.len();
        let mut file = FilePatch::empty(minus.span, false);
        let mut headers = Headers::default();
        if self.minus_plus(minus, false, &mut headers) {
            self.hunks(&mut file);
        }
        self.resolve_traditional(&mut file, &headers);
        self.push_file(file);
    }
}
