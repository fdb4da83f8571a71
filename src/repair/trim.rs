//! `trim_context`: whitespace-only context lines at a hunk's edges that the base file does not
//! have there. Models write a junk ` ` line after a hunk (and count it), or keep a blank line
//! above it that the file lacks; git then refuses the whole patch. When a hunk's preimage is
//! nowhere in the base, the fewest such edge lines are set aside that give it a place: the
//! lines left are the agent's, byte for byte, and the place is found as `relocate` finds one
//! (exact, unique, git's end-of-file anchoring kept). Nothing else is ever trimmed.

use crate::patch::{Hunk, Line, LineKind};

/// Edge lines set aside: `lead` at the start of the body, `trail` at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Trim {
    pub lead: usize,
    pub trail: usize,
}

/// Whether a body line is a whitespace-only context line that may be set aside (a line the
/// `\ No newline` marker closes is not: the marker belongs to it).
fn is_blank_context(line: &Line<'_>) -> bool {
    line.kind == LineKind::Context
        && line.has_newline
        && line.text.iter().all(u8::is_ascii_whitespace)
}

/// The fewest edge lines to set aside for `hunk` to have a place, as `has_place` says for the
/// lines kept and their stated old-side start; `None` when no trim gives one, or when two
/// trims of the same size both do (the repair does not choose).
pub(super) fn fit(hunk: &Hunk<'_>, has_place: impl Fn(&[Line<'_>], u64) -> bool) -> Option<Trim> {
    let body: Vec<Line<'_>> = hunk.lines.iter().collect();
    let lead = body.iter().take_while(|l| is_blank_context(l)).count();
    let trail = body.iter().rev().take_while(|l| is_blank_context(l)).count();
    if lead == body.len() {
        return None; // a hunk of blank context only changes nothing: not this repair's
    }
    for total in 1..=lead + trail {
        let mut found = (total.saturating_sub(trail)..=total.min(lead)).filter_map(|k| {
            let trim = Trim { lead: k, trail: total - k };
            let kept = &body[k..body.len() - trim.trail];
            has_place(kept, stated_start(hunk, k)).then_some(trim)
        });
        if let Some(first) = found.next() {
            return found.next().is_none().then_some(first);
        }
    }
    None
}

/// The old-side start of the hunk once `lead` lines are set aside from its body.
fn stated_start(hunk: &Hunk<'_>, lead: usize) -> u64 {
    hunk.old_start.saturating_add(lead as u64)
}
