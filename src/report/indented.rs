//! The indented JSON patchgate prints: byte for byte `serde_json`'s pretty form (two spaces a
//! level), with each line break and its indentation written in one piece.
//!
//! `serde_json::PrettyFormatter` writes a break, then one `"  "` per level, each a separate
//! write into the output buffer: `parse --format json` of a 32 MB diff made some 1.5 million
//! of those calls, a third of its serialization. Here a break and its indentation are one slice
//! of a fixed run of spaces (deeper levels than it holds fall back to one write per level).

use serde_json::ser::Formatter;
use std::io::{self, Write};

/// Levels of indentation [`BREAKS`] holds.
const DEPTH: usize = 32;

/// `,\n` and the indentation of [`DEPTH`] levels: a break is a slice of it (`\n` from index 1).
const BREAKS: [u8; 2 + 2 * DEPTH] = {
    let mut bytes = [b' '; 2 + 2 * DEPTH];
    bytes[0] = b',';
    bytes[1] = b'\n';
    bytes
};

/// The indented form's formatter (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Indented {
    level: usize,
    has_value: bool,
}

impl Indented {
    /// A line break (after a comma when `comma`), then the current level's indentation.
    fn line<W: ?Sized + Write>(&self, out: &mut W, comma: bool) -> io::Result<()> {
        let start = usize::from(!comma);
        let end = 2 + 2 * self.level;
        if end <= BREAKS.len() {
            return out.write_all(&BREAKS[start..end]);
        }
        out.write_all(&BREAKS[start..2])?;
        (0..self.level).try_for_each(|_| out.write_all(b"  "))
    }

    fn open<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(out, false)?;
        }
        out.write_all(bracket)
    }
}

impl Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, !first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, !first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` in the indented form, into `out`.
pub(super) fn write<W: Write, T: ?Sized + serde::Serialize>(out: W, value: &T) -> io::Result<()> {
    write_at(out, value, 0)
}

/// `value` in the indented form as it reads at `level` (a member of an object at `level - 1`
/// or an element of an array there): its inner lines indented `level + 1` deep, its closing
/// bracket `level` deep.
pub(super) fn write_at<W: Write, T: ?Sized + serde::Serialize>(
    out: W,
    value: &T,
    level: usize,
) -> io::Result<()> {
    let formatter = Indented { level, has_value: false };
    let mut serializer = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut serializer).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn ours(value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        super::write(&mut out, value).expect("writes to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn matches_serde_json_pretty_byte_for_byte() {
        // Empty and nested containers, every scalar, and nesting past the spaces held (40
        // levels), where the indentation is written a level at a time.
        let mut deep = json!({"leaf": [1, {"x": null}]});
        for n in 0..40 {
            deep = json!({ format!("k{n}"): [deep, [], {}], "n": n });
        }
        let cases = [
            json!(null),
            json!([]),
            json!({}),
            json!({"a": [], "b": {}, "c": [[]], "d": [{}]}),
            json!({"s": "quote \" and \\ and \n", "t": true, "f": false, "i": -3, "u": 7,
                   "x": 1.5, "arr": [1, "two", null, [3, [4]], {"k": {"k2": []}}]}),
            deep,
        ];
        for value in &cases {
            let theirs = serde_json::to_string_pretty(value).expect("serializes");
            assert_eq!(ours(value), theirs, "{value}");
        }
    }

    #[test]
    fn a_value_written_at_a_level_reads_as_it_does_inside_the_whole() {
        let inner = json!({"a": [1, {"b": []}], "c": {}});
        let whole = ours(&json!({"x": {"y": inner}}));
        let mut at = Vec::new();
        super::write_at(&mut at, &inner, 2).expect("writes to memory");
        let at = String::from_utf8(at).expect("UTF-8");
        assert!(whole.contains(&format!("\"y\": {at}\n  }}\n}}")), "{whole}\n---\n{at}");
    }
}
