//! Path names in headers: git's C quoting (`"a/caf\303\251.txt"`), the `-p1` prefix strip, and
//! splitting an unquoted `diff --git a/x y b/x y` line the way git does (matching halves).

/// Decode a C-quoted name at the start of `s` (which must start with `"`). Returns the decoded
/// bytes and what follows the closing quote, or `None` when the quoting is malformed.
pub(super) fn unquote(s: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'"' => return Some((out, &s[i + 1..])),
            b'\\' => {
                let (byte, used) = escape(&s[i + 1..])?;
                out.push(byte);
                i += 1 + used;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// One escape after a backslash: the byte it stands for and how many bytes it used.
fn escape(s: &[u8]) -> Option<(u8, usize)> {
    let simple = match *s.first()? {
        b'a' => 0x07,
        b'b' => 0x08,
        b't' => b'\t',
        b'n' => b'\n',
        b'v' => 0x0b,
        b'f' => 0x0c,
        b'r' => b'\r',
        b'"' => b'"',
        b'\\' => b'\\',
        b'0'..=b'3' => return octal(s),
        _ => return None,
    };
    Some((simple, 1))
}

fn octal(s: &[u8]) -> Option<(u8, usize)> {
    let digits = s.get(..3)?;
    let mut value: u8 = 0;
    for &d in digits {
        if !(b'0'..=b'7').contains(&d) {
            return None;
        }
        value = value.checked_mul(8)?.checked_add(d - b'0')?;
    }
    Some((value, 3))
}

/// Whether `name` needs C quoting in a header (git's `core.quotePath` default).
pub(super) fn needs_quoting(name: &[u8]) -> bool {
    name.iter().any(|&b| b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b))
}

/// Quote `name` the way git does, when it needs it.
pub(super) fn quote(name: &[u8], out: &mut Vec<u8>) {
    if !needs_quoting(name) {
        out.extend_from_slice(name);
        return;
    }
    out.push(b'"');
    for &b in name {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b if !(0x20..0x7f).contains(&b) => {
                out.extend_from_slice(&[
                    b'\\',
                    b'0' + (b >> 6),
                    b'0' + ((b >> 3) & 7),
                    b'0' + (b & 7),
                ]);
            }
            b => out.push(b),
        }
    }
    out.push(b'"');
}

/// Remove the first path component (`-p1`): `a/src/x` becomes `src/x`. `None` when there is no
/// `/` to strip at.
pub(super) fn strip_component(name: &[u8]) -> Option<&[u8]> {
    memchr::memchr(b'/', name).map(|i| &name[i + 1..])
}

/// `name` without its first `n` components (git's `-pN`); `None` when it has fewer.
pub(super) fn strip_components(name: &[u8], n: usize) -> Option<&[u8]> {
    (0..n).try_fold(name, |rest, _| strip_component(rest))
}

/// The name on a `---`/`+++` line: quoted, or, as git reads it, everything before a trailing
/// timestamp (`post<TAB>image.txt.orig<TAB>2010-08-18 20:13:31 -0500` names
/// `post<TAB>image.txt.orig`; spaces instead of the TAB before the timestamp are whitespace
/// damage, also stripped), or without a timestamp up to the first TAB. `None` for malformed
/// quoting.
pub(super) fn traditional_name(rest: &[u8]) -> Option<Vec<u8>> {
    if rest.first() == Some(&b'"') {
        let (name, after) = unquote(rest)?;
        let is_clean = after.is_empty() || matches!(after[0], b'\t' | b' ');
        return is_clean.then_some(name);
    }
    let end = match timestamp_start(rest) {
        Some(end) => end,
        None => memchr::memchr(b'\t', rest).unwrap_or(rest.len()),
    };
    Some(rest[..end].to_vec())
}

/// A trailing `YYYY-MM-DD HH:MM:SS[.frac][ +ZZZZ]` (git's `diff_timestamp_len`).
static TIMESTAMP: std::sync::LazyLock<regex::bytes::Regex> = std::sync::LazyLock::new(|| {
    regex::bytes::Regex::new(
        r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?: [+-][0-9]{2}:?[0-9]{2})?$",
    )
    .expect("the timestamp pattern is a valid regex")
});

/// Where the name ends when `rest` ends with a timestamp: before the one TAB that precedes it,
/// or before all the whitespace when spaces precede it. `None` without a timestamp.
pub(super) fn timestamp_start(rest: &[u8]) -> Option<usize> {
    if !rest.last().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let date = TIMESTAMP.find(rest)?.start();
    match rest[..date].last()? {
        b'\t' => Some(date - 1),
        b' ' => {
            Some(rest[..date].iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1))
        }
        _ => None,
    }
}

/// The name on an extended header line (`rename from x`): quoted, or the rest of the line.
pub(super) fn header_name(rest: &[u8]) -> Option<Vec<u8>> {
    if rest.first() == Some(&b'"') {
        let (name, after) = unquote(rest)?;
        return after.is_empty().then_some(name);
    }
    (!rest.is_empty()).then(|| rest.to_vec())
}

/// An old and a new name.
pub(super) type NamePair = (Vec<u8>, Vec<u8>);

/// The two names of a `diff --git` line (after `diff --git `), prefixes stripped. `Ok(None)`
/// when unquoted names with spaces cannot be split (git then relies on the other headers);
/// `Err` for malformed quoting or a name without a prefix to strip.
pub(super) fn git_names(rest: &[u8], strip: usize) -> Result<Option<NamePair>, &'static str> {
    let pair = if rest.first() == Some(&b'"') {
        let (old, after) = unquote(rest).ok_or("malformed quoted name")?;
        let after = after.strip_prefix(b" ").ok_or("no space after the first quoted name")?;
        Some((old, second_name(after)?))
    } else if rest.last() == Some(&b'"') {
        // An unquoted first name: the second starts at the first ` "` that unquotes to the end.
        let second = memchr::memmem::find_iter(rest, b" \"")
            .find_map(|i| Some((i, second_name(&rest[i + 1..]).ok()?)))
            .ok_or("malformed quoted name")?;
        Some((rest[..second.0].to_vec(), second.1))
    } else {
        return Ok(split_unquoted(rest, strip));
    };
    let Some((old, new)) = pair else { return Ok(None) };
    let old = strip_components(&old, strip).ok_or("name without an a/ prefix")?.to_vec();
    let new = strip_components(&new, strip).ok_or("name without a b/ prefix")?.to_vec();
    Ok(Some((old, new)))
}

fn second_name(s: &[u8]) -> Result<Vec<u8>, &'static str> {
    if s.first() == Some(&b'"') {
        let (name, after) = unquote(s).ok_or("malformed quoted name")?;
        return if after.is_empty() { Ok(name) } else { Err("text after the quoted name") };
    }
    Ok(s.to_vec())
}

/// git's `git_header_name` for unquoted names: the first half (prefix stripped) must equal the
/// second half (prefix stripped); failing that, a single space splits two different names.
fn split_unquoted(rest: &[u8], strip: usize) -> Option<NamePair> {
    let name = strip_components(rest, strip)?;
    for (i, &b) in name.iter().enumerate() {
        if b == b' ' || b == b'\t' {
            let second = strip_components(&name[i + 1..], strip);
            if second == Some(&name[..i]) {
                return Some((name[..i].to_vec(), name[..i].to_vec()));
            }
        }
    }
    let mut spaces = memchr::memchr_iter(b' ', rest);
    let (Some(i), None) = (spaces.next(), spaces.next()) else { return None };
    let old = strip_components(&rest[..i], strip)?;
    let new = strip_components(&rest[i + 1..], strip)?;
    Some((old.to_vec(), new.to_vec()))
}

/// Whether the `---`/`+++` line text `rest` ends with the Unix epoch as a timestamp, in any time
/// zone (`1970-01-01 00:00:00 +0000`, `1969-12-31 16:00:00 -0800`): GNU `diff -N` writes it for
/// the side where the file does not exist (git's `has_epoch_timestamp`).
pub(super) fn has_epoch_timestamp(rest: &[u8]) -> bool {
    let Some(end) = timestamp_start(rest) else { return false };
    let stamp = String::from_utf8_lossy(&rest[end..]);
    let stamp = stamp.trim_start();
    let (date, rest) = stamp.split_at(stamp.len().min(10));
    let day = match date {
        "1970-01-01" => 0,
        "1969-12-31" => -1,
        _ => return false,
    };
    let mut parts = rest.split_whitespace();
    let (Some(time), zone) = (parts.next(), parts.next()) else { return false };
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let numbers: Vec<i64> = clock.split(':').filter_map(|n| n.parse().ok()).collect();
    let [hours, minutes, seconds] = numbers[..] else { return false };
    if seconds != 0 || !fraction.bytes().all(|b| b == b'0') {
        return false;
    }
    let offset = zone.map_or(Some(0), |z| {
        let sign = if z.starts_with('-') { -1 } else { 1 };
        let digits: String = z.chars().filter(char::is_ascii_digit).collect();
        let value: i64 = digits.parse().ok()?;
        Some(sign * ((value / 100) * 60 + value % 100))
    });
    offset.is_some_and(|offset| day * 1440 + hours * 60 + minutes - offset == 0)
}
