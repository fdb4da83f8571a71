//! `GIT binary patch` blocks: a `literal N` or `delta N` block of base85 lines ended by an empty
//! line, optionally followed by the reverse block. The payload is kept raw and checked for
//! shape (length byte, line length, alphabet); decoding is not the parser's job.

use super::cursor::Raw;
use super::parse::{Parser, quote_input};
use super::{Binary, BinaryKind, DefectCode, FilePatch};

/// git's base85 alphabet.
fn is_base85(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&()*+-;<=>?@^_`{|}~".contains(&b)
}

/// One data line: a length byte (`A`-`Z` = 1-26, `a`-`z` = 27-52) and 5 characters per 4 bytes.
fn is_data_line(t: &[u8]) -> bool {
    let Some((&len, data)) = t.split_first() else { return false };
    let bytes = match len {
        b'A'..=b'Z' => usize::from(len - b'A') + 1,
        b'a'..=b'z' => usize::from(len - b'a') + 27,
        _ => return false,
    };
    data.len() == bytes.div_ceil(4) * 5 && data.iter().all(|&b| is_base85(b))
}

/// `literal N` / `delta N`.
fn is_block_header(t: &[u8]) -> bool {
    let size = t.strip_prefix(b"literal ").or_else(|| t.strip_prefix(b"delta "));
    size.is_some_and(|s| !s.is_empty() && s.iter().all(u8::is_ascii_digit))
}

impl<'a> Parser<'a, '_> {
    /// The `GIT binary patch` line is current.
    pub fn git_binary(&mut self, file: &mut FilePatch<'a>) {
        let marker = self.cur.peek().expect("caller saw the marker");
        self.notes.binary.add(marker.span);
        self.cur.bump();
        let start = self.cur.offset();
        let mut is_ok = self.block(marker);
        if is_ok && self.cur.peek().is_some_and(|l| is_block_header(l.trimmed())) {
            is_ok = self.block(marker);
        }
        file.binary = Some(Binary { kind: BinaryKind::GitPatch, payload: self.cur.since(start) });
        if !is_ok {
            self.skip_to_entry();
        }
    }

    /// One block; false (after a defect) when malformed.
    fn block(&mut self, marker: Raw<'a>) -> bool {
        let Some(head) = self.cur.peek().filter(|l| is_block_header(l.trimmed())) else {
            let at = self.cur.peek().unwrap_or(marker);
            return self.bad_binary(at, "expected `literal N` or `delta N`");
        };
        self.cur.bump();
        let mut lines = 0usize;
        loop {
            let Some(line) = self.cur.peek() else {
                return self.bad_binary(head, "the block ends without its closing empty line");
            };
            let t = line.trimmed();
            if t.is_empty() {
                self.cur.bump();
                return lines > 0 || self.bad_binary(head, "the block has no data lines");
            }
            if !is_data_line(t) {
                return self.bad_binary(line, "malformed base85 data line");
            }
            lines += 1;
            self.cur.bump();
        }
    }

    fn bad_binary(&mut self, line: Raw<'a>, why: &str) -> bool {
        let message = format!(
            "`GIT binary patch` block: {why} at `{}`; regenerate it with `git diff --binary`",
            quote_input(line.text)
        );
        self.defect(DefectCode::BadBinary, line.span, message);
        false
    }
}
