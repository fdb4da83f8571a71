//! Comments that tools read: they change how code is checked or built, so they are not prose.
//! A directive is recognised where its tool reads it, at the start of the comment's text (after
//! the comment marker), never anywhere in it: a comment that mentions "global" or "pragma" in a
//! sentence is a comment.

use regex::bytes::Regex;
use std::sync::LazyLock;

/// Directives, matched against a comment's text after its marker and leading spaces.
static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)^(?:
            eslint(?:-disable|-enable|-env)?(?:\s|$|-next-line|-line) | eslint\s | global\s+\w
          | @ts-(?:expect-error|ignore|nocheck|check)\b | @flow\b | @jsx\b | @jsxImportSource\b
          | @vite-ignore\b | webpack[A-Z]\w*: | \#__PURE__ | @__PURE__
          | (?:istanbul|c8|v8)\s+ignore\b | prettier-ignore\b | jshint\b | jscs:
          | noqa\b | type:\s*ignore\b | pragma:?\s | pylint:\s*\w | mypy:\s*\w | pyright:\s*\w
          | fmt:\s*(?:off|on|skip)\b | isort:\s*\w | \#?nosec\b | cov(?:erage)?:\s*ignore
          | :nocov: | :(?:no|start|stop|end)?doc:
          | noinspection\b | -\*-.*coding[:=] | (?:vim?|ex):\s*set?\s
          | go:[a-z]+\b | \+build\b | export\s | nolint\b | lint:ignore\b
          | \+(?:k8s|kubebuilder|genclient|groupName|optional|required)
          | NOLINT | clang-format\s+(?:off|on)\b | IWYU\s+pragma\b
          | shellcheck\s+\w+= | rubocop:\s*(?:disable|enable|todo) | frozen_string_literal:
          | markdownlint-(?:disable|enable|configure|capture|restore)
          | prettier-ignore | cspell:\s*\w | spell-checker:\s*\w
          | phpcs:\s*\w | @phpstan-\w+ | @psalm-\w+ | @codeCoverageIgnore
          | ReSharper\s+(?:disable|restore) | swiftlint:\s*(?:disable|enable)
          | ktlint-(?:disable|enable) | @Suppress\b
        )",
    )
    .expect("the directive pattern is a valid regex")
});

/// Directives that turn a checker off for some code (a linter, a type checker, coverage, a
/// spelling or security scanner), as opposed to ones that choose how the code is built or read
/// (`//go:build`, a shebang, `# frozen_string_literal`, `/* global x */`).
static SILENCER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)^(?:
            eslint-disable | @ts-(?:expect-error|ignore|nocheck)\b | (?:istanbul|c8|v8)\s+ignore\b
          | prettier-ignore\b | jshint\b | noqa\b | type:\s*ignore\b | pragma:?\s+no\s*cover
          | pylint:\s*disable | mypy:\s*ignore | pyright:\s*ignore | fmt:\s*(?:off|skip)\b
          | isort:\s*skip | nosec\b | cov(?:erage)?:\s*ignore | noinspection\b | nolint\b
          | lint:ignore\b | NOLINT | clang-format\s+off\b | shellcheck\s+disable=
          | rubocop:\s*(?:disable|todo) | markdownlint-disable | cspell:\s*(?:disable|ignore)
          | spell-checker:\s*(?:disable|ignore) | phpcs:\s*(?:disable|ignore) | @phpstan-ignore
          | @psalm-suppress | @codeCoverageIgnore | ReSharper\s+disable | swiftlint:\s*disable
          | ktlint-disable | @Suppress\b
          | \[\s*(?:allow|expect)\s*\( | @(?:java\.lang\.)?SuppressWarnings\b | @file:\s*Suppress\b
          | pragma\s+warning\s+disable\b | \[\s*(?:assembly:\s*)?SuppressMessage\b
        )",
    )
    .expect("the silencer pattern is a valid regex")
});

/// Code that turns a checker off for what it annotates, as its language writes it: Rust's
/// `#[allow(..)]`, `#![allow(..)]` and `#[expect(..)]`, Java's `@SuppressWarnings(..)`,
/// Kotlin's `@Suppress(..)` and `@file:Suppress(..)`, C#'s `#pragma warning disable` and
/// `[SuppressMessage(..)]`.
static SILENCING_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)^(?:
            \#!?\[\s*(?:allow|expect)\s*\( | @(?:java\.lang\.)?SuppressWarnings\b
          | @(?:file:\s*)?Suppress\b | \#\s*pragma\s+warning\s+disable\b
          | \[\s*(?:assembly:\s*)?SuppressMessage\b
        )",
    )
    .expect("the silencing-attribute pattern is a valid regex")
});

/// Whether a changed line may hold a silencing attribute ([`is_silencing_attribute`]): the
/// line fallback reads it as code, so the file is read on its syntax tree.
#[must_use]
pub fn may_be_silencing_attribute(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    line.first().is_some_and(|b| b"#@[".contains(b)) && SILENCING_ATTRIBUTE.is_match(line)
}

/// Whether the syntax node of `kind` and `text` is an attribute, annotation or pragma that
/// turns a checker off (`#[allow(dead_code)]`, `@SuppressWarnings("unchecked")`): read as a
/// directive, like the comment `# noqa`, not as code. Other attributes (`#[derive(..)]`,
/// `@Override`, `#pragma once`) are code.
#[must_use]
pub fn is_silencing_attribute(kind: &str, text: &[u8]) -> bool {
    let is_attribute =
        kind.contains("attribute") || kind.contains("annotation") || kind.contains("pragma");
    is_attribute && SILENCING_ATTRIBUTE.is_match(text.trim_ascii_start())
}

/// Whether the directive `text` (with its markers, as the summary lists it) turns a checker
/// off: what answers a step about that checker and no other.
#[must_use]
pub fn silences_a_check(text: &str) -> bool {
    SILENCER.is_match(strip_marker(text.as_bytes()))
}

/// Whether the comment `text` (with its markers) on line `row` (0-based) is a directive.
pub fn is_directive(text: &[u8], row: usize) -> bool {
    // A shebang on the first line chooses the interpreter; a coding line is read on the first two.
    if row == 0 && text.starts_with(b"#!") {
        return true;
    }
    let body = strip_marker(text);
    if row <= 1 && is_coding_line(body) {
        return true;
    }
    DIRECTIVE.is_match(body)
}

/// `-*- coding: utf-8 -*-`, `coding=utf-8`, `vim: set fileencoding=utf-8`.
fn is_coding_line(body: &[u8]) -> bool {
    static CODING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"coding[:=]\s*[-\w.]+").expect("the coding pattern is a valid regex")
    });
    CODING.is_match(body)
}

/// The comment's text without its opening marker and the spaces after it.
fn strip_marker(text: &[u8]) -> &[u8] {
    let text = text.trim_ascii_start();
    let markers: [&[u8]; 9] = [b"<!--", b"/**", b"/*!", b"/*", b"///", b"//!", b"//", b"#", b"--"];
    let rest = markers.iter().find_map(|m| text.strip_prefix(*m)).unwrap_or(text);
    let rest = rest.strip_prefix(b"!").unwrap_or(rest);
    rest.trim_ascii_start()
}

#[cfg(test)]
mod tests {
    use super::is_directive;

    #[test]
    fn directives_are_read_where_their_tools_read_them() {
        for (text, row) in [
            ("# type: ignore", 5),
            ("# type: ignore[attr-defined]", 5),
            ("// @ts-ignore", 5),
            ("// @ts-expect-error wrong types upstream", 5),
            ("# noqa: E501", 5),
            ("// eslint-disable-next-line no-console", 5),
            ("/* eslint-disable */", 5),
            ("/* global window, document */", 5),
            ("//go:build linux", 0),
            ("//nolint:errcheck", 5),
            ("# pragma: no cover", 5),
            ("#!/usr/bin/env python3", 0),
            ("# -*- coding: utf-8 -*-", 1),
            ("/* istanbul ignore next */", 5),
            ("<!-- markdownlint-disable MD013 -->", 5),
            ("# shellcheck disable=SC2086", 5),
            ("# rubocop:disable Metrics/AbcSize", 5),
            ("// #nosec G602 -- the index is checked above", 5),
            ("# :nocov:", 5),
            ("# :startdoc:", 5),
            ("# :nodoc:", 5),
        ] {
            assert!(is_directive(text.as_bytes(), row), "{text}");
        }
    }

    #[test]
    fn silencers_turn_a_checker_off_and_other_directives_do_not() {
        for text in [
            "# type: ignore",
            "# noqa: E501",
            "// @ts-ignore",
            "// eslint-disable-next-line no-console",
            "//nolint:errcheck",
            "// NOLINT",
            "# rubocop:disable all",
            "# pragma: no cover",
            "# pylint: disable=unused-import",
            "#[allow(dead_code)]",
            "#![allow(clippy::pedantic)]",
            "#[expect(unused)]",
            "@SuppressWarnings(\"unchecked\")",
            "@Suppress(\"UNCHECKED_CAST\")",
            "@file:Suppress(\"DEPRECATION\")",
            "#pragma warning disable CS0618",
        ] {
            assert!(super::silences_a_check(text), "{text}");
        }
        for (kind, text) in [
            ("attribute_item", "#[allow(dead_code)]"),
            ("inner_attribute_item", "#![allow(clippy::pedantic)]"),
            ("annotation", "@SuppressWarnings(\"all\")"),
            ("annotation", "@Suppress(\"UNCHECKED_CAST\")"),
            ("preproc_pragma", "#pragma warning disable CS0618"),
        ] {
            assert!(super::is_silencing_attribute(kind, text.as_bytes()), "{text}");
        }
        // The twins: attributes that choose how code is built or checked, and a silencer's
        // text outside an attribute (a string).
        for (kind, text) in [
            ("attribute_item", "#[derive(Debug)]"),
            ("attribute_item", "#[cfg(test)]"),
            ("marker_annotation", "@Override"),
            ("annotation", "@Deprecated(since = \"2\")"),
            ("preproc_pragma", "#pragma once"),
            ("string_literal", "\"#[allow(dead_code)]\""),
        ] {
            assert!(!super::is_silencing_attribute(kind, text.as_bytes()), "{text}");
        }
        for text in [
            "//go:build linux",
            "#!/usr/bin/env python3",
            "# frozen_string_literal: true",
            "/* global window */",
            "// eslint-enable",
            "# rubocop:enable all",
        ] {
            assert!(!super::silences_a_check(text), "{text}");
        }
    }

    #[test]
    fn a_comment_that_mentions_a_directive_word_is_a_comment() {
        for (text, row) in [
            ("# this uses the global config", 5),
            ("// the pragma below is needed", 5),
            ("# handles the coding: utf-8 case", 7),
            ("// we lint this later", 5),
            ("# handles the case this step describes", 5),
            ("#!not a shebang below the first line", 3),
            ("/* see eslint docs for the rule */", 5),
            ("// #nosecurity review pending", 5),
            ("# see the :nodoc: section", 5),
            ("# the :nocov: markers below are SimpleCov's", 5),
        ] {
            assert!(!is_directive(text.as_bytes(), row), "{text}");
        }
    }
}
