//! The working copy of the patch: its lines, each remembering the input line it came from, so
//! that every edit can be reported against what the agent sent and the proof can map each
//! `+`/`-` line back to the agent's own bytes.

use std::borrow::Cow;

/// One line of the working copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DocLine<'a> {
    /// The bytes without the final `\n` (a `\r` stays).
    pub text: Cow<'a, [u8]>,
    /// The 0-based input line this line came from; `None` for a line the repair inserted.
    pub origin: Option<usize>,
    /// False only for an input whose last line has no `\n`.
    pub has_newline: bool,
}

/// The patch as it is being repaired.
#[derive(Clone, Debug)]
pub(super) struct Doc<'a> {
    lines: Vec<DocLine<'a>>,
}

/// Split `input` at `\n`: the agent's lines as the parser numbers them.
pub(super) fn input_lines(input: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        lines.pop();
    }
    lines
}

impl<'a> Doc<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let mut lines: Vec<DocLine<'a>> = input_lines(input)
            .into_iter()
            .enumerate()
            .map(|(i, text)| DocLine {
                text: Cow::Borrowed(text),
                origin: Some(i),
                has_newline: true,
            })
            .collect();
        if let Some(last) = lines.last_mut().filter(|_| !input.ends_with(b"\n")) {
            last.has_newline = false;
        }
        Self { lines }
    }

    /// The working copy as patch bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let size = self.lines.iter().map(|l| l.text.len() + 1).sum();
        let mut out = Vec::with_capacity(size);
        for line in &self.lines {
            out.extend_from_slice(&line.text);
            if line.has_newline {
                out.push(b'\n');
            }
        }
        out
    }

    /// How many lines there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Line `n` (1-based, as parser spans count), if there is one.
    pub fn get(&self, n: usize) -> Option<&DocLine<'a>> {
        n.checked_sub(1).and_then(|i| self.lines.get(i))
    }

    /// The text of line `n` (1-based); empty past the end.
    pub fn text(&self, n: usize) -> &[u8] {
        self.get(n).map_or(&[], |l| &l.text)
    }

    /// The 1-based input line that line `n` stands for: its origin, or for an inserted line the
    /// origin of the next line that has one (where it was inserted).
    pub fn input_line(&self, n: usize) -> usize {
        let from = n.saturating_sub(1);
        self.lines[from.min(self.lines.len())..]
            .iter()
            .find_map(|l| l.origin)
            .map_or_else(|| self.last_origin() + 1, |o| o + 1)
    }

    fn last_origin(&self) -> usize {
        self.lines.iter().rev().find_map(|l| l.origin).map_or(0, |o| o + 1)
    }

    /// Replace the text of line `n` (1-based).
    pub fn replace(&mut self, n: usize, text: Vec<u8>) {
        self.lines[n - 1].text = Cow::Owned(text);
    }

    /// Give line `n` its final `\n`.
    pub fn terminate(&mut self, n: usize) {
        self.lines[n - 1].has_newline = true;
    }

    /// Insert a new line before line `n` (1-based).
    pub fn insert(&mut self, n: usize, text: Vec<u8>) {
        let line = DocLine { text: Cow::Owned(text), origin: None, has_newline: true };
        self.lines.insert(n - 1, line);
    }

    /// Remove lines `first..=last` (1-based).
    pub fn remove(&mut self, first: usize, last: usize) {
        self.lines.drain(first - 1..last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_track_of_input_lines() {
        let mut doc = Doc::new(b"a\nb\nc\n");
        doc.insert(2, b"new".to_vec());
        assert_eq!(doc.bytes(), b"a\nnew\nb\nc\n");
        assert_eq!(doc.input_line(2), 2, "an inserted line stands where it was inserted");
        doc.remove(3, 3);
        assert_eq!(doc.bytes(), b"a\nnew\nc\n");
        assert_eq!(doc.input_line(3), 3);
    }

    #[test]
    fn an_unterminated_last_line_stays_unterminated_until_told() {
        let mut doc = Doc::new(b"a\nb");
        assert_eq!(doc.bytes(), b"a\nb");
        doc.terminate(2);
        assert_eq!(doc.bytes(), b"a\nb\n");
        assert_eq!(input_lines(b"a\nb"), vec![&b"a"[..], b"b"]);
        assert_eq!(input_lines(b"a\n\n"), vec![&b"a"[..], b""]);
    }
}
