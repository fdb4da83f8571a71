//! The agent contract's sanitizers for agent text rendered into markdown reports.

/// The agent contract's `escape_markdown` special characters, in its order (backslash first, so the
/// backslashes added for the others are not escaped again).
pub const MARKDOWN_SPECIAL: [char; 15] =
    ['\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!'];

/// Escape every markdown special character with a backslash (the agent contract's
/// `escape_markdown`).
///
/// ```
/// use patchgate::contract::escape_markdown;
/// assert_eq!(escape_markdown("a_b [x](y)"), r"a\_b \[x\]\(y\)");
/// assert_eq!(escape_markdown(r"C:\dir"), r"C:\\dir");
/// ```
#[must_use]
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        if MARKDOWN_SPECIAL.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The agent contract's default `max_length`.
pub const DEFAULT_MAX_LENGTH: usize = 10_000;

/// Text longer than the limit (the agent contract: "Content exceeds maximum length").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "content exceeds maximum length ({max_length} characters; it has {length}); shorten it or raise --max-length"
)]
#[non_exhaustive]
pub struct TooLong {
    /// The limit.
    pub max_length: usize,
    /// The content's length in characters.
    pub length: usize,
}

/// The agent contract's `sanitize_user_input`: refuse content over `max_length` characters (counted
/// as Python counts them: Unicode scalar values), remove NUL bytes, normalise CRLF and CR to LF.
/// Beyond the specification, every other control character but TAB and LF is removed too (ESC, BEL,
/// the C1 range): agent text shown in a terminal or a report must not carry escape sequences that
/// rewrite what the reader sees.
///
/// ```
/// use patchgate::contract::sanitize;
/// assert_eq!(sanitize("a\r\nb\rc\0", 100).unwrap(), "a\nb\nc");
/// assert_eq!(sanitize("\u{1b}[2Jok\u{7}\tdone", 100).unwrap(), "[2Jok\tdone");
/// assert!(sanitize("abc", 2).is_err());
/// ```
pub fn sanitize(content: &str, max_length: usize) -> Result<String, TooLong> {
    let length = content.chars().count();
    if length > max_length {
        return Err(TooLong { max_length, length });
    }
    let lines = content.replace("\r\n", "\n").replace('\r', "\n");
    Ok(lines.chars().filter(|c| !c.is_control() || matches!(c, '\n' | '\t')).collect())
}
