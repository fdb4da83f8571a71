//! Property: a generated patch renders to bytes that parse, without a defect, into the same
//! model (spans and line numbers aside), and rendering that again gives the same bytes.

use crate::patch::{
    FilePatch, Hunk, IndexLine, Line, LineKind, Lines, Operation, ParseOptions, Patch, Span, parse,
    render,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// A file name: letters, spaces, quotes, backslashes, tabs and UTF-8, so quoting is exercised.
fn name() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(&b"a"[..]),
        Just(&b"b"[..]),
        Just(&b"."[..]),
        Just(&b" "[..]),
        Just(&b"\""[..]),
        Just(&b"\\"[..]),
        Just(&b"\t"[..]),
        Just("é".as_bytes()),
        Just(&b"-"[..]),
    ];
    vec(piece, 1..6).prop_map(|pieces| pieces.concat())
}

/// Line content: any bytes but `\n` and NUL (including `\r` and invalid UTF-8).
fn text() -> impl Strategy<Value = Vec<u8>> {
    vec(
        any::<u8>()
            .prop_filter("no newline or NUL (refused in text)", |b| !matches!(*b, b'\n' | 0)),
        0..12,
    )
}

/// One hunk body: kinds with contents, at least one change.
fn body() -> impl Strategy<Value = Vec<(LineKind, Vec<u8>)>> {
    let kind = prop_oneof![Just(LineKind::Context), Just(LineKind::Add), Just(LineKind::Remove)];
    vec((kind, text()), 1..8).prop_filter("a hunk changes something", |lines| {
        lines.iter().any(|(k, _)| *k != LineKind::Context)
    })
}

/// An owned file entry; the model borrows, so the test keeps the bytes here.
#[derive(Clone, Debug)]
struct Spec {
    is_git: bool,
    operation: Operation,
    old: Vec<u8>,
    new: Vec<u8>,
    modes: Option<(u32, u32)>,
    similarity: Option<u8>,
    sections: Vec<Vec<u8>>,
    bodies: Vec<Vec<(LineKind, Vec<u8>)>>,
    is_last_line_incomplete: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    let operation = prop_oneof![
        Just(Operation::Modify),
        Just(Operation::Create),
        Just(Operation::Delete),
        Just(Operation::Rename),
        Just(Operation::Copy),
    ];
    let section = vec(prop_oneof![Just(b'f'), Just(b'('), Just(b' '), Just(b'{')], 0..6);
    (
        any::<bool>(),
        operation,
        name(),
        name(),
        prop_oneof![Just(None), Just(Some((0o100_644, 0o100_755)))],
        0u8..=100,
        vec((section, body()), 0..4),
        any::<bool>(),
    )
        .prop_map(|(is_git, operation, old, new, modes, similarity, hunks, incomplete)| {
            let (sections, bodies) = hunks.into_iter().unzip();
            Spec {
                is_git: is_git || matches!(operation, Operation::Rename | Operation::Copy),
                operation,
                old,
                new,
                modes,
                similarity: Some(similarity),
                sections,
                bodies,
                is_last_line_incomplete: incomplete,
            }
        })
}

/// Build a valid model from specs: unique paths per entry, hunks ascending, counts that match.
/// Entries are all git or all traditional: a traditional `---`/`+++` right after a header-only
/// git entry would read as that entry's own (in git too).
fn build(specs: &mut [Spec]) -> Patch<'_> {
    let is_git = specs.iter().any(|s| s.is_git);
    for spec in specs.iter_mut() {
        spec.is_git = is_git;
    }
    let files = specs.iter().enumerate().map(|(i, spec)| file(i, spec)).collect();
    Patch { files }
}

fn path(i: usize, side: &str, name: &[u8]) -> Vec<u8> {
    [format!("d{i}{side}/").as_bytes(), name].concat()
}

fn file(i: usize, spec: &Spec) -> FilePatch<'_> {
    let is_move = matches!(spec.operation, Operation::Rename | Operation::Copy);
    let old = path(i, "", &spec.old);
    let new = if is_move { path(i, "n", &spec.new) } else { old.clone() };
    let mut hunks = hunks(spec);
    let is_traditional = !spec.is_git;
    // A traditional entry cannot carry modes, and every entry must change something.
    let modes = spec.modes.filter(|_| spec.operation == Operation::Modify && spec.is_git);
    if spec.operation == Operation::Modify && hunks.is_empty() && modes.is_none() {
        hunks = vec![single_hunk()];
    }
    if is_traditional && hunks.is_empty() {
        hunks = vec![single_hunk()];
    }
    let (old_mode, new_mode) = match spec.operation {
        Operation::Create => (None, Some(0o100_644)),
        Operation::Delete => (Some(0o100_644), None),
        _ => modes.map_or((None, None), |(a, b)| (Some(a), Some(b))),
    };
    let (old_mode, new_mode) = if spec.is_git { (old_mode, new_mode) } else { (None, None) };
    FilePatch {
        span: Span::default(),
        is_git: spec.is_git,
        old_path: (spec.operation != Operation::Create).then(|| old.clone()),
        new_path: (spec.operation != Operation::Delete).then_some(new),
        operation: spec.operation,
        old_mode,
        new_mode,
        similarity: spec.similarity.filter(|_| is_move),
        dissimilarity: None,
        index: spec.is_git.then_some(IndexLine { old: b"0123abc", new: b"4567def", mode: None }),
        binary: None,
        hunks,
    }
}

fn single_hunk() -> Hunk<'static> {
    Hunk {
        span: Span::default(),
        old_start: 1,
        old_count: 1,
        new_start: 1,
        new_count: 1,
        section: b"",
        lines: Lines::from(vec![
            Line { kind: LineKind::Remove, text: b"old", has_newline: true, line: 0 },
            Line { kind: LineKind::Add, text: b"new", has_newline: true, line: 0 },
        ]),
    }
}

fn hunks(spec: &Spec) -> Vec<Hunk<'_>> {
    match spec.operation {
        Operation::Create | Operation::Delete => vec![whole_file(spec)],
        _ => ranged(spec),
    }
}

/// A creation or deletion: one hunk of all-added or all-removed lines.
fn whole_file(spec: &Spec) -> Hunk<'_> {
    let kind = if spec.operation == Operation::Create { LineKind::Add } else { LineKind::Remove };
    let texts: Vec<&[u8]> = spec.bodies.iter().flatten().map(|(_, t)| t.as_slice()).collect();
    let texts = if texts.is_empty() { vec![&b"x"[..]] } else { texts };
    let n = texts.len() as u64;
    let mut lines: Vec<Line<'_>> =
        texts.into_iter().map(|text| Line { kind, text, has_newline: true, line: 0 }).collect();
    if spec.is_last_line_incomplete {
        lines.last_mut().expect("at least one line").has_newline = false;
    }
    let (old_start, old_count, new_start, new_count) =
        if kind == LineKind::Add { (0, 0, 1, n) } else { (1, n, 0, 0) };
    let lines = lines.into();
    Hunk { span: Span::default(), old_start, old_count, new_start, new_count, section: b"", lines }
}

/// Hunks spaced 100 lines apart so they never overlap.
fn ranged(spec: &Spec) -> Vec<Hunk<'_>> {
    let mut out: Vec<Hunk<'_>> = Vec::new();
    for (k, (section, body)) in spec.sections.iter().zip(&spec.bodies).enumerate() {
        let lines: Vec<Line<'_>> = body
            .iter()
            .map(|(kind, text)| Line { kind: *kind, text, has_newline: true, line: 0 })
            .collect();
        let old_count = lines.iter().filter(|l| l.kind != LineKind::Add).count() as u64;
        let new_count = lines.iter().filter(|l| l.kind != LineKind::Remove).count() as u64;
        let start = 1 + 100 * k as u64;
        let old_start = if old_count == 0 { start - 1 } else { start };
        let new_start = if new_count == 0 { start - 1 } else { start };
        out.push(Hunk {
            span: Span::default(),
            old_start,
            old_count,
            new_start,
            new_count,
            section,
            lines: lines.into(),
        });
    }
    if spec.is_last_line_incomplete
        && let Some(hunk) = out.last_mut()
    {
        hunk.lines.close_last();
    }
    out
}

/// The model without spans and line numbers.
fn shape(patch: &Patch<'_>) -> String {
    let files: Vec<String> = patch
        .files
        .iter()
        .map(|f| {
            let hunks: Vec<String> = f
                .hunks
                .iter()
                .map(|h| {
                    let lines: Vec<_> =
                        h.lines.iter().map(|l| (l.kind, l.text, l.has_newline)).collect();
                    format!(
                        "{:?}",
                        (h.old_start, h.old_count, h.new_start, h.new_count, h.section, lines)
                    )
                })
                .collect();
            format!(
                "{:?}",
                (
                    f.is_git,
                    &f.old_path,
                    &f.new_path,
                    f.operation,
                    f.old_mode,
                    f.new_mode,
                    f.similarity,
                    &f.index,
                    hunks
                )
            )
        })
        .collect();
    files.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn render_then_parse_gives_the_same_model(mut specs in vec(spec(), 1..5)) {
        let model = build(&mut specs);
        let bytes = render(&model);
        let parsed = parse(&bytes, &ParseOptions::default());
        prop_assert!(parsed.defects.is_empty(), "{:?}\n{}", parsed.defects, String::from_utf8_lossy(&bytes));
        prop_assert_eq!(shape(&parsed.patch), shape(&model), "{}", String::from_utf8_lossy(&bytes));
        prop_assert_eq!(render(&parsed.patch), bytes);
    }

    #[test]
    fn parsing_arbitrary_bytes_never_panics(bytes in vec(any::<u8>(), 0..400)) {
        for is_strict in [true, false] {
            let _ = parse(&bytes, &ParseOptions { is_strict, ..ParseOptions::default() });
        }
    }

    #[test]
    fn parsing_diff_shaped_noise_never_panics(lines in vec(prop_oneof![
        Just("diff --git a/f b/f"), Just("--- a/f"), Just("+++ b/f"), Just("@@ -1 +1 @@"),
        Just("@@ -1,2 +1,2 @@"), Just("-a"), Just("+b"), Just(" c"), Just(""), Just("\\ No newline"),
        Just("rename from f"), Just("rename to g"), Just("GIT binary patch"), Just("literal 0"),
        Just("new file mode 100644"), Just("-- "), Just("```"), Just("From 0123456789012345678901234567890123456789 x"),
    ], 0..30)) {
        let text = lines.join("\n") + "\n";
        for is_strict in [true, false] {
            let parsed = parse(text.as_bytes(), &ParseOptions { is_strict, ..ParseOptions::default() });
            if parsed.is_ok() {
                let rendered = render(&parsed.patch);
                let again = parse(&rendered, &ParseOptions::default());
                prop_assert!(again.is_ok(), "{:?}\n{}", again.defects, text);
            }
        }
    }
}
