//! Reading an agent's whole reply: text decoding, fenced code blocks (`CommonMark` fences), and
//! JSON that is diagnosed precisely when it is not strict JSON (comments, trailing commas,
//! `undefined`), with reply line numbers.

use super::{Finding, KeyLines, ReplyCode};
use serde_json::Value;

/// A reply decoded to text: UTF-8, BOM removed, line endings normalised to `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyText {
    /// The normalised text.
    pub text: String,
    /// What normalising noticed (`crlf_line_endings`, `byte_order_mark`); not violations.
    pub notes: Vec<Finding>,
}

/// Decode `bytes`; a reply that is not UTF-8 is a violation (`not_utf8`).
pub fn decode(bytes: &[u8]) -> Result<ReplyText, Finding> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = memchr::memchr_iter(b'\n', &bytes[..e.valid_up_to()]).count() + 1;
        Finding::at_line(
            ReplyCode::NotUtf8,
            format!("the reply is not UTF-8 (byte {})", e.valid_up_to()),
            line,
        )
    })?;
    let mut notes = Vec::new();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            notes.push(Finding::at_line(
                ReplyCode::ByteOrderMark,
                "the reply starts with a byte order mark; it was ignored",
                1,
            ));
            rest
        }
        None => text,
    };
    if text.contains('\r') {
        notes.push(Finding::new(
            ReplyCode::CrlfLineEndings,
            "the reply uses CR or CRLF line endings; read as LF",
        ));
    }
    Ok(ReplyText { text: text.replace("\r\n", "\n").replace('\r', "\n"), notes })
}

/// One fenced code block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The info string's first word, as written (`json`, `JSON`, or empty).
    pub info: String,
    /// 1-based line of the opening fence.
    pub open_line: usize,
    /// 1-based line of the closing fence; `None` when the block runs to the end of the reply.
    pub close_line: Option<usize>,
    /// The content between the fences.
    pub content: String,
}

impl Block {
    /// The 1-based reply line of the content's first line.
    #[must_use]
    pub fn content_line(&self) -> usize {
        self.open_line + 1
    }

    /// Whether this block is meant as JSON: marked `json` (any case, or `jsonc`/`json5`), or
    /// unmarked and starting with `{` or `[`.
    #[must_use]
    pub fn is_json(&self) -> bool {
        let info = self.info.to_ascii_lowercase();
        matches!(info.as_str(), "json" | "jsonc" | "json5")
            || (info.is_empty() && self.content.trim_start().starts_with(['{', '[']))
    }
}

/// Every fenced code block of `text`, `CommonMark` style: a fence is three or more backticks or
/// tildes indented at most three spaces; it closes on a fence of the same character at least as
/// long with nothing after it.
#[must_use]
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize, Block)> = None;
    for (i, line) in text.split('\n').enumerate() {
        let number = i + 1;
        match &mut open {
            None => open = opening_fence(line, number),
            Some((ch, len, block)) => {
                if is_closing_fence(line, *ch, *len) {
                    block.close_line = Some(number);
                    out.push(open.take().expect("matched Some above").2);
                } else {
                    block.content.push_str(line);
                    block.content.push('\n');
                }
            }
        }
    }
    out.extend(open.map(|(_, _, block)| block));
    out
}

fn opening_fence(line: &str, number: usize) -> Option<(char, usize, Block)> {
    let (ch, len, rest) = fence_run(line)?;
    let info = rest.split_whitespace().next().unwrap_or("");
    if ch == '`' && rest.contains('`') {
        return None;
    }
    let block = Block {
        info: info.to_string(),
        open_line: number,
        close_line: None,
        content: String::new(),
    };
    Some((ch, len, block))
}

fn is_closing_fence(line: &str, ch: char, len: usize) -> bool {
    fence_run(line).is_some_and(|(c, n, rest)| c == ch && n >= len && rest.trim().is_empty())
}

/// `(fence character, run length, rest of the line)` when `line` starts a fence.
fn fence_run(line: &str) -> Option<(char, usize, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let ch = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let len = trimmed.chars().take_while(|&c| c == ch).count();
    (len >= 3).then(|| (ch, len, &trimmed[len..]))
}

/// The outcome of reading JSON text.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonRead {
    /// The value, when the text is JSON or becomes JSON once comments, trailing commas and
    /// `undefined` are set aside (each of those is in `findings`).
    pub value: Option<Value>,
    /// Violations: `json_comment`, `trailing_comma`, `undefined_value`, `invalid_json`.
    pub findings: Vec<Finding>,
}

/// The JSON of `block`, with the lines its keys stand on; what reading it found is added to
/// `violations`. `None` when it does not read as JSON at all.
pub(crate) fn block_json<'b>(
    block: &'b Block,
    violations: &mut Vec<Finding>,
) -> Option<(Value, KeyLines<'b>)> {
    let read = read_json(&block.content, block.content_line());
    violations.extend(read.findings);
    let lines = KeyLines { content: &block.content, first_line: block.content_line() };
    read.value.map(|value| (value, lines))
}

/// Parse `text` whose first line is reply line `first_line`.
#[must_use]
pub fn read_json(text: &str, first_line: usize) -> JsonRead {
    let strict_error = match serde_json::from_str::<Value>(text) {
        Ok(value) => return JsonRead { value: Some(value), findings: Vec::new() },
        Err(e) => e,
    };
    let (cleaned, findings) = super::json_lenient::clean(text, first_line);
    if !findings.is_empty()
        && let Ok(value) = serde_json::from_str::<Value>(&cleaned)
    {
        return JsonRead { value: Some(value), findings };
    }
    let line = first_line + strict_error.line().saturating_sub(1);
    let message = format!("invalid JSON: {strict_error}");
    JsonRead {
        value: None,
        findings: vec![Finding::at_line(ReplyCode::InvalidJson, message, line)],
    }
}

/// Keep every finding's line inside `text` (an unclosed fence on the last line has its content
/// "on" the line after it).
pub fn clamp_lines(findings: &mut [Finding], text: &str) {
    let last = text.split('\n').count();
    for f in findings {
        f.line = f.line.map(|l| l.min(last));
    }
}

/// The verdict types of the reply checks, so decoding and line clamping are written once.
pub(crate) trait ReplyOutcome: Default {
    /// The violations and the warnings.
    fn findings_mut(&mut self) -> (&mut Vec<Finding>, &mut Vec<Finding>);
    /// Set whether the contract holds.
    fn set_ok(&mut self, ok: bool);

    /// Mark the verdict from its violations.
    fn finish(mut self) -> Self {
        let ok = self.findings_mut().0.is_empty();
        self.set_ok(ok);
        self
    }

    /// Take `violations` as the reply's violations and mark the verdict.
    fn finish_with(mut self, violations: Vec<Finding>) -> Self {
        *self.findings_mut().0 = violations;
        self.finish()
    }
}

/// Decode `bytes`, run `check` on the text, keep every line inside the reply, and put the
/// decoding notes first among the warnings.
pub(crate) fn check_reply<O: ReplyOutcome>(bytes: &[u8], check: impl FnOnce(&str) -> O) -> O {
    let text = match decode(bytes) {
        Ok(text) => text,
        Err(violation) => {
            let mut out = O::default();
            out.findings_mut().0.push(violation);
            return out.finish();
        }
    };
    let mut out = check(&text.text);
    let (violations, warnings) = out.findings_mut();
    clamp_lines(violations, &text.text);
    clamp_lines(warnings, &text.text);
    warnings.splice(0..0, text.notes);
    out
}

/// How a reply that must be JSON only may be written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonOnly {
    /// Prose before the block is tolerated.
    pub allow_preamble: bool,
    /// A bare JSON object (no fence) is as good as a fenced one.
    pub allow_bare: bool,
    /// Appended to the `preamble` message: how the caller can allow prose (`" (or pass
    /// --allow-preamble)"`), or nothing.
    pub preamble_hint: &'static str,
}

/// The one JSON block a JSON-only reply consists of: its last `` ```json `` block (or, when it
/// has none, the whole reply when it starts with `{`), with violations of where and how it is
/// fenced: several JSON blocks, an unclosed or unmarked fence, text before (unless allowed) or
/// after it, no fence at all (unless allowed).
pub fn json_block(text: &str, rules: JsonOnly, violations: &mut Vec<Finding>) -> Option<Block> {
    let blocks = blocks(text);
    let json: Vec<&Block> = blocks.iter().filter(|b| b.is_json()).collect();
    let Some(&target) = json.last() else {
        return bare_json(text, rules.allow_bare, violations);
    };
    if json.len() > 1 {
        let lines: Vec<String> = json.iter().map(|b| b.open_line.to_string()).collect();
        let message = format!(
            "the reply has {} JSON blocks (lines {}); it must end with exactly one",
            json.len(),
            lines.join(", ")
        );
        violations.push(Finding::at_line(
            ReplyCode::MultipleJsonBlocks,
            message,
            json[0].open_line,
        ));
    }
    check_fence(target, violations);
    check_surroundings(text, target, &json, rules, violations);
    Some(target.clone())
}

/// A reply that is a bare JSON object: a violation unless allowed, but the object is still
/// checked.
fn bare_json(text: &str, is_allowed: bool, violations: &mut Vec<Finding>) -> Option<Block> {
    let Some(line) = first_nonblank_line(text, 0, usize::MAX) else {
        violations.push(Finding::new(
            ReplyCode::NoJsonBlock,
            "the reply is empty; it must end with a ```json block",
        ));
        return None;
    };
    if !text.trim_start().starts_with('{') {
        let message = "the reply has no ```json block; end it with the JSON object in one";
        violations.push(Finding::new(ReplyCode::NoJsonBlock, message));
        return None;
    }
    if !is_allowed {
        let message = "the JSON object is not fenced; put it in a ```json block";
        violations.push(Finding::at_line(ReplyCode::MissingFence, message, line));
    }
    Some(Block { info: String::new(), open_line: 0, close_line: None, content: text.to_string() })
}

fn check_fence(block: &Block, violations: &mut Vec<Finding>) {
    if block.close_line.is_none() {
        let message = "the ```json block is never closed; end it with ```";
        violations.push(Finding::at_line(ReplyCode::UnclosedFence, message, block.open_line));
    }
    if !block.info.eq_ignore_ascii_case("json") {
        let shown = if block.info.is_empty() { "without a language" } else { block.info.as_str() };
        let message = format!("the final block is marked '{shown}'; mark it ```json");
        violations.push(Finding::at_line(ReplyCode::FenceLanguage, message, block.open_line));
    }
}

/// Prose before the block (unless allowed; earlier JSON blocks are already reported) and
/// anything after it.
fn check_surroundings(
    text: &str,
    block: &Block,
    json: &[&Block],
    rules: JsonOnly,
    violations: &mut Vec<Finding>,
) {
    let in_json =
        |n: usize| json.iter().any(|b| n >= b.open_line && b.close_line.is_some_and(|c| n <= c));
    let prose = text
        .split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .take_while(|(n, _)| *n < block.open_line);
    let preamble = prose.filter(|(n, _)| !in_json(*n)).find(|(_, line)| !line.trim().is_empty());
    if !rules.allow_preamble
        && let Some((line, _)) = preamble
    {
        let message = format!(
            "text before the ```json block; the reply must be only the JSON block{}",
            rules.preamble_hint
        );
        violations.push(Finding::at_line(ReplyCode::Preamble, message, line));
    }
    if let Some(close) = block.close_line
        && let Some(line) = first_nonblank_line(text, close + 1, usize::MAX)
    {
        let message = "text after the ```json block; nothing may follow it";
        violations.push(Finding::at_line(ReplyCode::TextAfterBlock, message, line));
    }
}

/// The first line number in `from..to` (1-based) holding more than whitespace.
fn first_nonblank_line(text: &str, from: usize, to: usize) -> Option<usize> {
    text.split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .skip_while(|(n, _)| *n < from)
        .take_while(|(n, _)| *n < to)
        .find(|(_, line)| !line.trim().is_empty())
        .map(|(n, _)| n)
}
