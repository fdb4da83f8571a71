//! Generated files: output a tool writes (a bundle, a minified build, code a generator writes
//! from a schema) is not read as code the step's author wrote. A file is generated when the
//! base tree says so, never the patch: the base's `.gitattributes` mark it
//! `linguist-generated` (as GitHub does), its first lines carry a generator's header (`Code
//! generated ... DO NOT EDIT.`, `@generated`), or it is minified (its lines average more than
//! 110 bytes, GitHub linguist's test). What the patch writes into a file cannot make it
//! generated: an agent could write the header itself.

use super::Base;
use globset::{GlobBuilder, GlobMatcher};
use regex::bytes::Regex;
use std::sync::LazyLock;

/// Whether the file at `path` is generated, read from the base tree (`base`, for the
/// attributes) and the file's base image `old` (`is_whole`: the whole file, else the hunks'
/// old sides, whose first line is the file's first when `starts_at_top`).
pub fn is_generated(
    path: &str,
    grammar: Option<&str>,
    base: Option<&dyn Base>,
    old: &[u8],
    starts_at_top: bool,
) -> bool {
    if let Some(marked) = base.and_then(|b| attribute(b, path)) {
        return marked;
    }
    (starts_at_top && has_generator_header(old))
        || (grammar.is_some_and(|g| g != "Markdown") && is_minified(old))
}

/// The `linguist-generated` attribute of `path` in the base's `.gitattributes` files (the
/// root's, then each directory's down to the file's, the last line that matches deciding):
/// `Some(true)` when set, `Some(false)` when unset, `None` when no line says.
fn attribute(base: &dyn Base, path: &str) -> Option<bool> {
    let mut found = None;
    let mut dirs = vec![""];
    dirs.extend(path.match_indices('/').map(|(at, _)| &path[..at]));
    for dir in dirs {
        let file = if dir.is_empty() {
            ".gitattributes".to_owned()
        } else {
            format!("{dir}/.gitattributes")
        };
        let Some(text) = base.content(&file) else { continue };
        let relative = if dir.is_empty() { path } else { &path[dir.len() + 1..] };
        for line in String::from_utf8_lossy(&text).lines() {
            if let Some(value) = line_says(line, relative) {
                found = Some(value);
            }
        }
    }
    found
}

/// What one `.gitattributes` line says of `linguist-generated` for `path` (relative to the
/// file's directory), when its pattern matches and it names the attribute.
fn line_says(line: &str, path: &str) -> Option<bool> {
    let mut fields = line.split_whitespace();
    let pattern = fields.next().filter(|p| !p.starts_with('#'))?;
    let mut value = fields.filter_map(|attr| match attr {
        "linguist-generated" | "linguist-generated=true" => Some(true),
        "-linguist-generated" | "!linguist-generated" | "linguist-generated=false" => Some(false),
        _ => None,
    });
    let value = value.next_back()?;
    pattern_matches(pattern, path).then_some(value)
}

/// git's pattern rules for attributes: a pattern without a slash matches the file's name at
/// any depth; one with a slash is anchored at the attributes file's directory; `**` crosses
/// directories, `*` does not.
fn pattern_matches(pattern: &str, path: &str) -> bool {
    let anchored = pattern.trim_start_matches('/');
    let is_anchored = pattern.contains('/');
    let glob = |p: &str| -> Option<GlobMatcher> {
        GlobBuilder::new(p).literal_separator(true).build().ok().map(|g| g.compile_matcher())
    };
    if is_anchored {
        glob(anchored).is_some_and(|g| g.is_match(path))
    } else {
        let name = path.rsplit('/').next().unwrap_or(path);
        glob(pattern).is_some_and(|g| g.is_match(name))
    }
}

/// A generator's header in the file's first five lines: Go's `Code generated ... DO NOT
/// EDIT.`, `@generated` (Meta's, Cargo's), webpack's runtime (`/******/ (() => { //
/// webpackBootstrap`, which webpack and ncc bundles open with), or a comment saying the file is
/// generated and not to be edited.
fn has_generator_header(old: &[u8]) -> bool {
    static HEADER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)
              ^\s*//\s*Code\ generated\ .*DO\ NOT\ EDIT\.?\s*$
            | @generated\b
            | ^/\*{6}/\ .*//\ webpackBootstrap\b
            | (?i:\b(?:auto-?generated|automatically\ generated|generated\ (?:by|from|with))\b.*)
              (?i:do\ not\ (?:edit|modify)|don't\ (?:edit|modify)|changes\ .*\ (?:lost|overwritten))
            | (?i:do\ not\ (?:edit|modify))\b.*(?i:\b(?:auto-?generated|automatically\ generated|generated\ (?:by|from|with))\b)",
        )
        .expect("the generator header pattern is a valid regex")
    });
    let head: Vec<&[u8]> = old.split(|&b| b == b'\n').take(5).collect();
    head.iter().any(|line| HEADER.is_match(line))
        || head.windows(2).any(|pair| HEADER.is_match(&[pair[0], b" ", pair[1]].concat()))
}

/// Whether the image's lines average more than [`MINIFIED_LINE`] bytes (GitHub linguist's
/// test for minified files).
fn is_minified(old: &[u8]) -> bool {
    let lines = old.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    lines > 0 && old.len() / lines > MINIFIED_LINE
}

/// The average line length past which a file is minified.
const MINIFIED_LINE: usize = 110;

#[cfg(test)]
mod tests {
    use super::{has_generator_header, is_minified, line_says};

    #[test]
    fn attributes_lines_match_as_git_matches_them() {
        assert_eq!(line_says("dist/** linguist-generated", "dist/index.js"), Some(true));
        assert_eq!(line_says("/dist/*.js linguist-generated=true", "dist/index.js"), Some(true));
        assert_eq!(line_says("*.pb.go linguist-generated", "api/v1/a.pb.go"), Some(true));
        assert_eq!(line_says("*.js -linguist-generated", "dist/index.js"), Some(false));
        assert_eq!(line_says(".licenses/** -diff linguist-generated=true", "dist/index.js"), None);
        assert_eq!(line_says("dist/*.js linguist-generated", "src/dist/index.js"), None);
        assert_eq!(line_says("dist/*.js linguist-generated", "dist/esm/index.js"), None);
        assert_eq!(line_says("*.js text eol=lf", "dist/index.js"), None);
        assert_eq!(line_says("# dist/** linguist-generated", "dist/index.js"), None);
    }

    #[test]
    fn generator_headers_are_read_at_the_top() {
        for header in [
            "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage api\n",
            "# @generated by cargo\nversion = 3\n",
            "/* This file is automatically generated. Do not edit it by hand. */\n",
            "# This file was autogenerated by uv via the following command:\n# DO NOT EDIT\n",
            "// DO NOT EDIT: generated by scripts/build.js\n",
            "module.exports =\n/******/ (function(modules, runtime) { // webpackBootstrap\n",
            "/******/ (() => { // webpackBootstrap\n/******/ \tvar __webpack_modules__ = ({\n",
        ] {
            assert!(has_generator_header(header.as_bytes()), "{header}");
        }
        // The twins: a generator mentioned in prose, a warning not to edit hand-written code.
        for prose in [
            "# Tokens are generated by the lexer below.\ndef lex(s):\n",
            "// Do not edit this list without updating the docs.\n",
            "// Code generated values are cached here.\n",
            "// Unlike a webpackBootstrap runtime, this loader is written by hand.\n",
        ] {
            assert!(!has_generator_header(prose.as_bytes()), "{prose}");
        }
    }

    #[test]
    fn minified_lines_are_long_on_average() {
        let long = format!("!function(e,t){{{}}}\n", "e=t;".repeat(60));
        assert!(is_minified(long.as_bytes()));
        let code = "fn main() {\n    let x = compute(1);\n    println!(\"{x}\");\n}\n";
        assert!(!is_minified(code.as_bytes()));
        assert!(!is_minified(b""));
    }
}
