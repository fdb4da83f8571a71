//! The checks behind [`super::check`], in the order the reference prescribes: bytes first
//! (NUL, control, UTF-8), then encodings (never decoding twice), then shape (absolute, `~`),
//! then components (`..`, `.git` and its aliases).

use super::alias::is_hfs_ignorable;
use super::{PathError, PathErrorCode, RepoPath, display_bytes};
use std::borrow::Cow;

/// The longest component most file systems store (ext4, APFS, NTFS: 255).
const MAX_COMPONENT_BYTES: usize = 255;
/// Linux's `PATH_MAX`.
const MAX_PATH_BYTES: usize = 4096;

/// Check and normalise a repository-relative path given as text.
pub fn check(raw: &str) -> Result<RepoPath, PathError> {
    check_bytes(raw.as_bytes())
}

/// Check and normalise a repository-relative path given as bytes (a decoded patch header).
///
/// Normalisation drops `.` components, repeated and trailing slashes; everything else that is
/// unusual is refused rather than repaired, because a repaired path is a guess.
pub fn check_bytes(raw: &[u8]) -> Result<RepoPath, PathError> {
    match check_plain(raw) {
        Some(path) => Ok(path),
        None => check_any(raw),
    }
}

/// Whether no check below looks at `b`: printable ASCII other than the bytes that start an
/// encoding, a separator, a drive or stream, or a substitution.
const fn is_plain_byte(b: u8) -> bool {
    matches!(b, 0x20..0x7f) && !matches!(b, b'%' | b'\\' | b'`' | b'$' | b':')
}

static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = is_plain_byte(b as u8);
        b += 1;
    }
    table
};

/// The common case in one pass over the bytes: a path of plain bytes ([`is_plain_byte`]),
/// relative, not too long, whose components are all fine. `None` leaves the path to the full
/// checks, which give the same answer for what this one accepts and name the first problem.
fn check_plain(raw: &[u8]) -> Option<RepoPath> {
    let is_plain = raw.len() <= MAX_PATH_BYTES
        && !matches!(raw.first(), Some(b'/' | b'~'))
        && raw.iter().all(|&b| PLAIN[usize::from(b)]);
    if !is_plain {
        return None;
    }
    let mut out = String::with_capacity(raw.len());
    for component in raw.split(|&b| b == b'/') {
        match component {
            b"" | b"." => {}
            b".." => return None,
            c if c.len() > MAX_COMPONENT_BYTES || is_ascii_git_dir(c) => return None,
            c => {
                if !out.is_empty() {
                    out.push('/');
                }
                // Printable ASCII, so UTF-8.
                out.push_str(std::str::from_utf8(c).ok()?);
            }
        }
    }
    (!out.is_empty()).then_some(RepoPath(out))
}

/// [`check_bytes`] for any input: every check in order (the bytes, the text, then each
/// component).
fn check_any(raw: &[u8]) -> Result<RepoPath, PathError> {
    let fail = |(code, why): (PathErrorCode, Cow<'static, str>)| {
        let input = display_bytes(raw);
        PathError { code, message: format!("path '{input}' {why}"), input }
    };
    if let Some(refusal) = byte_refusal(raw) {
        return Err(fail(refusal));
    }
    let Ok(text) = std::str::from_utf8(raw) else {
        return Err(fail((
            PathErrorCode::InvalidUtf8,
            "is not valid UTF-8; use a UTF-8 file name".into(),
        )));
    };
    if let Some(refusal) = text_refusal(text) {
        return Err(fail(refusal));
    }
    normalise_components(text).map_err(|(code, why)| fail((code, why.into())))
}

/// A refusal and why, as `path '...' <why>` ends.
type Refusal = (PathErrorCode, Cow<'static, str>);

/// NUL and control bytes, which no file name the agent meant holds.
fn byte_refusal(raw: &[u8]) -> Option<Refusal> {
    if raw.contains(&0) {
        return Some((PathErrorCode::NulByte, "contains a NUL byte; remove it".into()));
    }
    raw.iter().any(|&b| b < 0x20 || b == 0x7f).then(|| {
        let why = "contains a control character (newline, tab, escape); name the file without it";
        (PathErrorCode::ControlByte, why.into())
    })
}

/// What the whole text shows: encodings, look-alikes, foreign separators, absolute and home
/// paths, shell substitutions, lengths no file system holds.
fn text_refusal(text: &str) -> Option<Refusal> {
    if let Some(pattern) = find_encoded_pattern(text) {
        let why = format!(
            "contains the percent-encoded sequence '{pattern}'; give the plain path, not a URL-encoded one"
        );
        return Some((PathErrorCode::PercentEncoded, why.into()));
    }
    if let Some(c) = text.chars().find(|c| is_lookalike_separator(*c)) {
        let why = format!(
            "contains the look-alike character U+{:04X} in place of a dot or slash; use plain ASCII",
            u32::from(c)
        );
        return Some((PathErrorCode::LookalikeSeparator, why.into()));
    }
    let (code, why) = if text.contains('\\') {
        (
            PathErrorCode::Backslash,
            "contains a backslash; use '/' as the separator, relative to the repository root",
        )
    } else if is_absolute(text) {
        (PathErrorCode::AbsolutePath, "is absolute; give it relative to the repository root")
    } else if text.contains("$(") || text.contains('`') {
        (
            PathErrorCode::ShellSubstitution,
            "contains '$(' or a backtick, which a shell runs as a command; name the file without it",
        )
    } else if text.len() > MAX_PATH_BYTES || text.split('/').any(|c| c.len() > MAX_COMPONENT_BYTES)
    {
        (
            PathErrorCode::TooLong,
            "is longer than a file system holds (255 bytes per component, 4096 in all); shorten it",
        )
    } else if text.starts_with('~') {
        (PathErrorCode::HomeDir, "starts with '~'; give it relative to the repository root")
    } else {
        return None;
    };
    Some((code, why.into()))
}

fn normalise_components(text: &str) -> Result<RepoPath, (PathErrorCode, &'static str)> {
    let mut out = String::with_capacity(text.len());
    for component in text.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                return Err((
                    PathErrorCode::PathTraversal,
                    "has a '..' component; name the file relative to the repository root without '..'",
                ));
            }
            c if is_git_dir_component(c) => {
                return Err((
                    PathErrorCode::GitDir,
                    "is inside the git directory; a patch or agent may never touch .git",
                ));
            }
            c => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(c);
            }
        }
    }
    if out.is_empty() {
        return Err((PathErrorCode::EmptyPath, "is empty; name a file"));
    }
    Ok(RepoPath(out))
}

fn is_absolute(text: &str) -> bool {
    let bytes = text.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    text.starts_with('/') || drive
}

/// Whether one path component names the git directory on some filesystem git supports: `.git`
/// in any case, with HFS+ ignorable code points (`.g\u{200c}it`), NTFS trailing dots/spaces or
/// alternate streams (`.git.`, `.git::$INDEX_ALLOCATION`), or the 8.3 short name `git~1`.
#[must_use]
pub fn is_git_dir_component(component: &str) -> bool {
    if component.is_ascii() {
        return is_ascii_git_dir(component.as_bytes());
    }
    let folded: String =
        component.chars().filter(|c| !is_hfs_ignorable(*c)).flat_map(char::to_lowercase).collect();
    let stream_cut = folded.split(':').next().unwrap_or("");
    let trimmed = stream_cut.trim_end_matches(['.', ' ']);
    trimmed == ".git" || trimmed == "git~1"
}

/// [`is_git_dir_component`] for an ASCII component, without folding it into a new string (no
/// ASCII code point is one HFS+ ignores).
fn is_ascii_git_dir(component: &[u8]) -> bool {
    let stream_cut = component.split(|&b| b == b':').next().unwrap_or_default();
    let end = stream_cut.iter().rposition(|&b| !matches!(b, b'.' | b' ')).map_or(0, |i| i + 1);
    let trimmed = &stream_cut[..end];
    trimmed.eq_ignore_ascii_case(b".git") || trimmed.eq_ignore_ascii_case(b"git~1")
}

fn is_lookalike_separator(c: char) -> bool {
    matches!(
        u32::from(c),
        0xFF0E | 0xFF0F | 0xFF3C | 0x2215 | 0x2044 | 0x29F8 | 0x2024 | 0xFE52 | 0x2216 | 0xFE68
    )
}

/// The first percent-encoded sequence that hides a dot, a separator, a percent sign (double
/// encoding, `%252e`) or an overlong UTF-8 form (`%c0%ae`), as written in the input.
#[must_use]
pub fn find_encoded_pattern(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(rel) = memchr::memchr(b'%', &bytes[from..]) {
        let at = from + rel;
        from = at + 1;
        let Some(value) = hex_pair(bytes.get(at + 1..at + 3)) else {
            continue;
        };
        let hides_separator = matches!(value, b'.' | b'/' | b'\\' | b'%' | 0);
        let overlong_lead = matches!(value, 0xC0 | 0xC1 | 0xE0);
        if hides_separator || overlong_lead {
            return Some(&text[at..at + 3]);
        }
    }
    None
}

fn hex_pair(pair: Option<&[u8]>) -> Option<u8> {
    let pair = pair?;
    let digit = |b: u8| (b as char).to_digit(16);
    let value = digit(pair[0])? * 16 + digit(pair[1])?;
    u8::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::{check_any, check_plain, is_git_dir_component};

    #[test]
    fn the_one_pass_check_agrees_with_every_check() {
        let long = "x".repeat(256);
        let parts = [
            "",
            ".",
            "..",
            "a",
            "src",
            "a b",
            ".git",
            ".GIT",
            "Git~1",
            ".git.",
            ".git ",
            ".git. .",
            ".gitx",
            "x.git",
            ".git:x",
            "~",
            "~a",
            "C:",
            "c:x",
            "%2e",
            "50%off",
            "$(x)",
            "$x",
            "`x`",
            "a\\b",
            "é",
            ".g\u{200c}it",
            "\u{feff}.git",
            "tab\t",
            "del\u{7f}",
            &long,
        ];
        let mut checked = 0;
        for a in parts {
            for b in parts {
                for lead in ["", "/", "./"] {
                    for raw in
                        [format!("{lead}{a}/{b}"), format!("{lead}{a}"), format!("{a}//{b}/")]
                    {
                        let any = check_any(raw.as_bytes());
                        if let Some(plain) = check_plain(raw.as_bytes()) {
                            assert_eq!(any.as_ref(), Ok(&plain), "{raw:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
        assert_eq!(check_plain(b"src/./a.rs").map(|p| p.0), Some("src/a.rs".to_owned()));
    }

    #[test]
    fn the_ascii_git_dir_test_agrees_with_folding() {
        for c in
            [".git", ".GiT", "git~1", "GIT~1", ".git.", ".git ", ".git::$DATA", ".gitx", "", ":"]
        {
            let folded = c.to_lowercase();
            let cut = folded.split(':').next().unwrap_or("").trim_end_matches(['.', ' ']);
            assert_eq!(is_git_dir_component(c), cut == ".git" || cut == "git~1", "{c}");
        }
    }
}
