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
