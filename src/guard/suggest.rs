//! The most likely intended files for a hallucinated path.
//!
//! Agents invent directories, misspell names, change extensions and drop or add prefixes;
//! subsequence matchers (fzf, nucleo) find nothing for those. This engine matches basenames
//! instead: exact first (any directory), the same stem with another extension, else
//! Damerau-Levenshtein (optimal string alignment) over the unique basenames (length differences
//! over 3 skipped, a character-count bound before the full distance, threshold 0.75). Exact basenames rank before
//! every other candidate; within each tier, candidates are ranked by name similarity and by the
//! directory components they share with the request.
//!
//! ```
//! use patchgate::guard::suggest::{Index, suggest};
//! let files = ["backend/tests/test_cache_simple.py", "backend/app/cache.py"];
//! let index = Index::new(files.iter().copied());
//! let wanted = "backend/tests/coverage_improvement/manual/services/test_cache_simple.py";
//! assert_eq!(suggest(&index, wanted, 5)[0], "backend/tests/test_cache_simple.py");
//! ```

/// Weight of the name against the directory evidence.
const NAME_WEIGHT: f64 = 0.7;
/// Name scores from here up are the same basename (up to letter case).
const EXACT: f64 = 0.98;
/// Lowest normalised Damerau-Levenshtein similarity of basenames worth suggesting.
const FUZZY_THRESHOLD: f64 = 0.75;
/// Basenames whose lengths differ by more than this are never similar enough.
const MAX_LENGTH_DIFFERENCE: usize = 3;

pub use super::names::Index;

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Up to `limit` paths of `index` most likely meant by `requested` (repository-relative), best
/// first.
#[must_use]
pub fn suggest(index: &Index, requested: &str, limit: usize) -> Vec<String> {
    suggest_all(&[index], requested, limit)
}

/// [`suggest`] over several indexes at once (the git index's files and those on disk it does
/// not list); a path in more than one counts once.
#[must_use]
pub fn suggest_all(indexes: &[&Index], requested: &str, limit: usize) -> Vec<String> {
    let requested = requested.trim_end_matches('/');
    let query = basename(requested);
    if query.is_empty() {
        return Vec::new();
    }
    let query = Query::new(query);
    let wanted_dirs: Vec<&str> = parent_components(requested).collect();
    let mut ranked: Vec<(bool, f64, String)> = Vec::new();
    let len = query.name.len();
    let lengths = len.saturating_sub(MAX_LENGTH_DIFFERENCE)..=len + MAX_LENGTH_DIFFERENCE;
    for index in indexes {
        // The names first; the directories only of those that match.
        let mut matched: Vec<(usize, String, f64)> = Vec::new();
        index.scan(lengths.clone(), |entry, name| {
            if let Some(score) = name_score(&query, name)
                && let Ok(name) = std::str::from_utf8(name)
            {
                matched.push((entry, name.to_owned(), score));
            }
        });
        let entries: Vec<usize> = matched.iter().map(|m| m.0).collect();
        for ((_, name, name_score), dir) in matched.into_iter().zip(index.dirs_of(&entries)) {
            let Some(dir) = dir else { continue };
            let dirs: Vec<&str> = dir.split('/').filter(|c| !c.is_empty()).collect();
            let score =
                NAME_WEIGHT * name_score + (1.0 - NAME_WEIGHT) * dir_score(&wanted_dirs, &dirs);
            let entry = if dir.is_empty() { name } else { format!("{dir}/{name}") };
            ranked.push((name_score >= EXACT, score, entry));
        }
    }
    ranked.sort_by(|a, b| {
        (b.0.cmp(&a.0))
            .then(b.1.total_cmp(&a.1))
            .then(a.2.len().cmp(&b.2.len()))
            .then(a.2.cmp(&b.2))
    });
    ranked.dedup_by(|a, b| a.2 == b.2);
    ranked.into_iter().take(limit).map(|(_, _, e)| e).collect()
}

fn parent_components(path: &str) -> impl Iterator<Item = &str> {
    let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
    parent.split('/').filter(|c| !c.is_empty())
}

/// The requested basename, with what every comparison needs computed once.
struct Query<'a> {
    name: &'a str,
    lower: String,
    stem: &'a str,
    counts: [u8; 128],
    /// The sum of `counts`.
    counted: usize,
}

impl<'a> Query<'a> {
    fn new(name: &'a str) -> Self {
        let lower = name.to_lowercase();
        let counts = char_counts(&lower);
        let counted = counts.iter().map(|&c| usize::from(c)).sum();
        Self { name, stem: stem(name), counts, counted, lower }
    }
}

/// How well `name` matches the requested basename, `None` below the threshold. The cheap
/// tests come first: most of a repository's names fail the length gate. Bytes, as the index
/// keeps them: only a name that passes the bound on character counts is read as UTF-8.
fn name_score(query: &Query<'_>, name: &[u8]) -> Option<f64> {
    let wanted = query.name.as_bytes();
    let difference = wanted.len().abs_diff(name.len());
    if difference == 0 && name == wanted {
        return Some(1.0);
    }
    if difference == 0 && first_alike(wanted, name) && name.eq_ignore_ascii_case(wanted) {
        return Some(EXACT);
    }
    if is_same_stem(query.stem, name) {
        return Some(0.9);
    }
    if difference > MAX_LENGTH_DIFFERENCE {
        return None;
    }
    if is_truncation(&query.lower, name) {
        return Some(0.8);
    }
    fuzzy(query, name)
}

/// `db.js` for `db.ts`, `Makefile` for `Makefile.txt`: the same name up to the extension.
fn is_same_stem(query_stem: &str, name: &[u8]) -> bool {
    let n = query_stem.len();
    // The stem ends where `name` does or at a dot: a one-byte test before comparing.
    n > 0
        && (name.len() == n || name.get(n) == Some(&b'.'))
        && first_alike(query_stem.as_bytes(), name)
        && name[..n].eq_ignore_ascii_case(query_stem.as_bytes())
        && stem_len(name) == n
}

/// Whether the first bytes agree up to ASCII case (or one is empty): one byte before a
/// comparison of the whole prefix, which most names fail here.
fn first_alike(a: &[u8], b: &[u8]) -> bool {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => true,
    }
}

/// A cut-short name (`ap` for `app`, `util` for `utils`): too short for the edit-distance
/// threshold, yet a common agent slip.
fn is_truncation(query_lower: &str, name: &[u8]) -> bool {
    let wanted = query_lower.as_bytes();
    let shorter = wanted.len().min(name.len());
    shorter >= 2
        && wanted.len().abs_diff(name.len()) <= MAX_LENGTH_DIFFERENCE
        && first_alike(wanted, name)
        && name.get(..wanted.len()).is_some_and(|head| head.eq_ignore_ascii_case(wanted))
}

/// The name without its last extension (`db.test.ts` gives `db.test`; `.env` stays).
fn stem(name: &str) -> &str {
    &name[..stem_len(name.as_bytes())]
}

/// The length of [`stem`] of `name`.
fn stem_len(name: &[u8]) -> usize {
    match memchr::memrchr(b'.', name) {
        Some(at) if at > 0 => at,
        _ => name.len(),
    }
}

fn fuzzy(query: &Query<'_>, name: &[u8]) -> Option<f64> {
    let (a, b) = (query.lower.len(), name.len());
    let longest = a.max(b);
    let allowed = longest / 4;
    if a.abs_diff(b) > MAX_LENGTH_DIFFERENCE.min(allowed) {
        return None;
    }
    // Each edit changes how often characters occur by at most two: a cheap lower bound of the
    // distance (one pass over the name; it subsumes a bound on which characters occur).
    if counts_differ_by_more(query, name, 2 * allowed) {
        return None;
    }
    let name_lower = std::str::from_utf8(name).ok()?.to_lowercase();
    let distance = strsim::osa_distance(&query.lower, &name_lower);
    let length = query.lower.chars().count().max(name_lower.chars().count()).max(1);
    #[allow(clippy::cast_precision_loss, reason = "file names are short")]
    let score = 1.0 - distance as f64 / length as f64;
    (score >= FUZZY_THRESHOLD).then_some(score)
}

/// Counts of (lowercased) bytes folded into 128 buckets; folding only weakens the bound.
fn char_counts(text: &str) -> [u8; 128] {
    let mut counts = [0u8; 128];
    for b in text.bytes() {
        let slot = &mut counts[usize::from(b.to_ascii_lowercase() & 127)];
        *slot = slot.saturating_add(1);
    }
    counts
}

/// The count bucket of each byte (its ASCII lowercase folded into 128), one load per byte.
const BUCKET: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "b < 256")]
        let byte = b as u8;
        table[b] = byte.to_ascii_lowercase() & 127;
        b += 1;
    }
    table
};

/// Whether the sum over bytes of the difference of their counts in the query and in `name`
/// exceeds `limit`. The sum is `2 * unmatched + |query| - |name|` (`unmatched`: bytes of
/// `name` the query has no count left for): one pass over `name` instead of over all 128
/// buckets, left as soon as the bytes unmatched so far decide it.
fn counts_differ_by_more(query: &Query<'_>, name: &[u8], limit: usize) -> bool {
    let mut left = query.counts;
    let mut unmatched = 0;
    let cap = limit + name.len();
    for &b in name {
        let slot = &mut left[usize::from(BUCKET[usize::from(b)])];
        if *slot > 0 {
            *slot -= 1;
        } else {
            unmatched += 1;
            if 2 * unmatched + query.counted > cap {
                return true;
            }
        }
    }
    2 * unmatched + query.counted > cap
}

/// Shared directory components (in any order), with a bonus for a shared trailing run.
fn dir_score(wanted: &[&str], candidate: &[&str]) -> f64 {
    let mut unused: Vec<&str> = candidate.to_vec();
    let mut shared = 0usize;
    for dir in wanted {
        if let Some(at) = unused.iter().position(|c| c == dir) {
            unused.swap_remove(at);
            shared += 1;
        }
    }
    let suffix =
        wanted.iter().rev().zip(candidate.iter().rev()).take_while(|(a, b)| a == b).count();
    let denominator = wanted.len().max(candidate.len()).max(1);
    #[allow(clippy::cast_precision_loss, reason = "path depths are tiny")]
    let score = (shared as f64 + 0.5 * suffix as f64) / (1.5 * denominator as f64);
    score
}
