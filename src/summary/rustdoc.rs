//! Rust documentation comments (`///`, `//!`, `/** */`, `/*! */`): the fenced code blocks in
//! them are doctests, compiled and run by `cargo test` as rustdoc reads them, so a change to
//! one is a code change; the prose around them and fences in other languages (`text`, `sh`,
//! `toml`) are documentation.

/// A fenced code block open in a doc comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    /// `` ` `` or `~`.
    mark: u8,
    /// How many marks opened it: a closing fence has at least as many.
    len: usize,
    /// Whether rustdoc reads the block as Rust (a doctest).
    is_rust: bool,
}

/// Whether the comment `text` (a whole comment node, with its markers) is a doc comment:
/// `///` or `//!` (not `////`), `/**` or `/*!` (not `/***` nor the empty `/**/`).
#[must_use]
pub fn is_doc_comment(text: &[u8]) -> bool {
    let outer_line = text.starts_with(b"///") && !text.starts_with(b"////");
    let outer_block = text.starts_with(b"/**") && !text.starts_with(b"/***") && text != b"/**/";
    outer_line || outer_block || text.starts_with(b"//!") || text.starts_with(b"/*!")
}

/// Whether `line`, one line of a doc comment with its markers, is code of a doctest: a line
/// inside a Rust fence or a Rust fence itself (its attributes, `no_run` or `should_panic`,
/// change what the test does). `open` is the fence open before the line, updated past it.
pub fn is_doctest_line(line: &[u8], open: &mut Option<Fence>) -> bool {
    let fence = fence_of(body(line));
    match (*open, fence) {
        (None, Some((mark, len, info))) => {
            let is_rust = is_rust_block(info);
            *open = Some(Fence { mark, len, is_rust });
            is_rust
        }
        (Some(within), Some((mark, len, info)))
            if mark == within.mark && len >= within.len && info.is_empty() =>
        {
            *open = None;
            within.is_rust
        }
        (Some(within), _) => within.is_rust,
        (None, None) => false,
    }
}

/// The text of a doc comment line after its marker (`///`, `//!`, `/**`, `/*!`, or a block
/// comment's leading `*`) and the spaces around it.
fn body(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii();
    let markers: [&[u8]; 5] = [b"///", b"//!", b"/**", b"/*!", b"*"];
    let rest = markers.iter().find_map(|m| line.strip_prefix(*m)).unwrap_or(line);
    rest.strip_suffix(b"*/").unwrap_or(rest).trim_ascii()
}

/// A Markdown fence: its mark, how many, and its info string.
fn fence_of(body: &[u8]) -> Option<(u8, usize, &[u8])> {
    let mark = *body.first().filter(|&&b| b == b'`' || b == b'~')?;
    let len = body.iter().take_while(|&&b| b == mark).count();
    (len >= 3).then(|| (mark, len, body[len..].trim_ascii()))
}

/// Whether rustdoc reads a block with the info string `info` as Rust, as its `LangString`
/// parser does: untagged or `rust` is; a tag of its own (`no_run`, `should_panic`, `ignore`,
/// `compile_fail`, `edition2021`, ...) keeps it Rust; any other word (`text`, `sh`, `toml`)
/// makes it another language, unless a Rust tag came before it or `rust` is among them.
fn is_rust_block(info: &[u8]) -> bool {
    let (mut rust_tags, mut other_tags) = (false, false);
    let tokens = info.split(|&b| b == b',' || b.is_ascii_whitespace()).filter(|t| !t.is_empty());
    for token in tokens {
        match token {
            b"rust" => rust_tags = true,
            b"should_panic" | b"no_run" | b"ignore" | b"test_harness" | b"compile_fail"
            | b"standalone_crate" => rust_tags |= !other_tags,
            t if t.starts_with(b"ignore-") || is_error_code(t) => rust_tags |= !other_tags,
            t if t.starts_with(b"edition") => {}
            _ => other_tags = true,
        }
    }
    !other_tags || rust_tags
}

/// `E0308`: the error a `compile_fail` block expects.
fn is_error_code(token: &[u8]) -> bool {
    token.len() == 5 && token[0] == b'E' && token[1..].iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::{is_doc_comment, is_doctest_line, is_rust_block};

    #[test]
    fn rustdoc_reads_these_blocks_as_rust() {
        for info in ["", "rust", "no_run", "should_panic", "ignore", "compile_fail,E0308"] {
            assert!(is_rust_block(info.as_bytes()), "{info:?}");
        }
        for info in ["edition2021", "ignore-wasm32", "rust,no_run", "text,rust", "no_run text"] {
            assert!(is_rust_block(info.as_bytes()), "{info:?}");
        }
        for info in ["text", "sh", "toml", "console", "json", "text,no_run", "edition2021 c"] {
            assert!(!is_rust_block(info.as_bytes()), "{info:?}");
        }
    }

    #[test]
    fn doc_comments_are_told_from_other_comments() {
        for text in ["/// Docs.", "//! Crate docs.", "/** Docs. */", "/*! Docs. */"] {
            assert!(is_doc_comment(text.as_bytes()), "{text}");
        }
        for text in ["// Note.", "//// Banner", "/* Note. */", "/*** Banner ***/", "/**/"] {
            assert!(!is_doc_comment(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn the_lines_of_a_rust_fence_are_code_and_the_rest_is_prose() {
        let lines = [
            ("/// Adds.", false),
            ("/// ```no_run", true),
            ("/// let x = add(1, 2);", true),
            ("/// ```text", true),
            ("/// ```", true),
            ("/// Then a shell block.", false),
            ("/// ```sh", false),
            ("/// cargo run", false),
            ("/// ```", false),
            ("/// The end.", false),
        ];
        let mut open = None;
        for (line, is_code) in lines {
            assert_eq!(is_doctest_line(line.as_bytes(), &mut open), is_code, "{line}");
        }
        assert_eq!(open, None);
        let mut open = None;
        for (line, is_code) in [("/**", false), (" * ~~~", true), (" * f();", true), (" */", true)]
        {
            assert_eq!(is_doctest_line(line.as_bytes(), &mut open), is_code, "{line}");
        }
    }
}
