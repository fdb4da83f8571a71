//! Which entries a write removes, so the store stays bounded.

use super::ReviewPolicy;
use std::time::{Duration, SystemTime};

const DAY: u64 = 86_400;

/// The indices (into `times`, sorted newest first) of the entries to remove at `now`.
///
/// An entry is kept when it is among the newest `keep` or younger than `max_age_days`, and
/// only while it is among the newest `max_entries`. An entry dated in the future (a clock
/// moved back) counts as new.
#[must_use]
pub fn prune_selection(times: &[SystemTime], policy: &ReviewPolicy, now: SystemTime) -> Vec<usize> {
    let max_age = Duration::from_secs(policy.max_age_days.saturating_mul(DAY));
    let is_young = |t: &SystemTime| now.duration_since(*t).map_or(true, |age| age < max_age);
    times
        .iter()
        .enumerate()
        .filter(|&(i, t)| {
            let is_kept = i < policy.keep || is_young(t);
            !is_kept || i >= policy.max_entries
        })
        .map(|(i, _)| i)
        .collect()
}

/// The indices (into `sizes`, newest first, in bytes) of the entries to remove so that the
/// ones left add up to at most `max_bytes`: the newest are kept while they fit, and from the
/// first that does not fit every older one goes too, so the store always holds the newest
/// stretch. `doomed` (already removed by [`prune_selection`]) count for nothing.
#[must_use]
pub fn over_budget(sizes: &[u64], doomed: &[usize], max_bytes: u64) -> Vec<usize> {
    let mut total = 0u64;
    let mut is_full = false;
    let mut out = Vec::new();
    for (i, &size) in sizes.iter().enumerate() {
        if doomed.contains(&i) {
            continue;
        }
        total = total.saturating_add(size);
        is_full |= total > max_bytes;
        if is_full {
            out.push(i);
        }
    }
    out
}
