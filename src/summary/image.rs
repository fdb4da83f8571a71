//! The two images of a changed file: the whole file from the base tree with the hunks
//! applied, or, without a base (or when a hunk is not where it says), the hunks' two sides.

use super::Base;
use crate::patch::{FilePatch, LineKind, Operation};

/// Files above this size are compared on their hunks alone.
pub const MAX_IMAGE: usize = 4 << 20;

/// The file before and after, and whether they are the whole file: the whole file when the
/// base tree has it and every hunk sits where it says, else the hunks' two sides (context plus
/// removed, context plus added).
pub fn images(file: &FilePatch<'_>, base: Option<&dyn Base>) -> (Vec<u8>, Vec<u8>, bool) {
    let old_path = file.old_path.as_deref().filter(|_| file.operation != Operation::Create);
    let whole = base.zip(old_path).and_then(|(base, path)| {
        let content = base.content(&String::from_utf8_lossy(path))?;
        if content.len() > MAX_IMAGE {
            return None;
        }
        let new = patched(&content, file)?;
        Some((content, new, true))
    });
    whole.unwrap_or_else(|| {
        let (old, new) = hunk_sides(file);
        (old, new, false)
    })
}

/// `content` with `file`'s hunks applied at their stated lines, or `None` when one does not
/// match there (the scratch check finds it with an offset, or refuses it).
pub fn patched(content: &[u8], file: &FilePatch<'_>) -> Option<Vec<u8>> {
    apply(content, file, false)
}

/// `content`, the file after `file`'s hunks, with them taken back: the file before them.
pub fn unpatched(content: &[u8], file: &FilePatch<'_>) -> Option<Vec<u8>> {
    apply(content, file, true)
}

fn apply(content: &[u8], file: &FilePatch<'_>, is_reverse: bool) -> Option<Vec<u8>> {
    let (gone, comes) = if is_reverse {
        (LineKind::Add, LineKind::Remove)
    } else {
        (LineKind::Remove, LineKind::Add)
    };
    let lines: Vec<&[u8]> = content.split_inclusive(|&b| b == b'\n').collect();
    let mut out = Vec::with_capacity(content.len());
    let mut next = 0; // the first base line not yet copied
    for hunk in &file.hunks {
        let (start, count) = if is_reverse {
            (hunk.new_start, hunk.new_count)
        } else {
            (hunk.old_start, hunk.old_count)
        };
        let start = usize::try_from(start).ok()?;
        let start = if count == 0 { start } else { start.checked_sub(1)? };
        out.extend(lines.get(next..start)?.iter().copied().flatten());
        let mut at = start;
        for line in &hunk.lines {
            if line.kind != comes {
                let base = lines.get(at)?;
                if base.strip_suffix(b"\n").unwrap_or(base) != line.text {
                    return None;
                }
                at += 1;
            }
            if line.kind != gone {
                out.extend_from_slice(line.text);
                out.push(b'\n');
            }
        }
        next = at;
    }
    out.extend(lines.get(next..)?.iter().copied().flatten());
    Some(out)
}

/// The hunks' two sides, one after the other.
pub fn hunk_sides(file: &FilePatch<'_>) -> (Vec<u8>, Vec<u8>) {
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for line in file.hunks.iter().flat_map(|h| &h.lines) {
        for (side, skip) in [(&mut old, LineKind::Add), (&mut new, LineKind::Remove)] {
            if line.kind != skip {
                side.extend_from_slice(line.text);
                side.push(b'\n');
            }
        }
    }
    (old, new)
}
