//! Unit tests of the parser and renderer, by area.

mod accept;
mod lines;
mod quote;
mod reject;
mod roundtrip;

use crate::patch::{DefectCode, ParseOptions, Parsed, parse};

/// Parse strictly and assert there is no defect.
fn ok(text: &[u8]) -> Parsed<'_> {
    let parsed = parse(text, &ParseOptions::default());
    assert_eq!(parsed.defects, vec![], "{}", String::from_utf8_lossy(text));
    parsed
}

/// Parse strictly and return `(code, line)` of every defect.
fn defects(text: &[u8]) -> Vec<(DefectCode, usize)> {
    parse(text, &ParseOptions::default()).defects.iter().map(|d| (d.code, d.span.line)).collect()
}
