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

/// Repository paths of one kind (files, or directories) grouped by basename.
///
/// Two parts: the names, one line each (`name\0offset\0length\n`) ordered by length, and per
/// name the NUL-separated parent directories of its paths at that offset. A query scans only
/// the names within [`MAX_LENGTH_DIFFERENCE`] of its own length (no other can match) and reads
/// the directories of the few that match; a cached index (see `guard::files`) keeps the second
/// part on disk and reads those lines with positioned reads.
#[derive(Debug)]
pub struct Index {
    /// The names part, or of a cached index the lines a query needs.
    names: String,
    /// Where `names` starts in the whole names part.
    names_at: usize,
    /// For each name length present, ascending: the offset of its first line in `names`.
    lengths: Vec<(usize, usize)>,
    dirs: Dirs,
}

#[derive(Debug)]
enum Dirs {
    Memory(String),
    /// A cache file and the offset of the directories part in it.
    File(std::fs::File, u64),
}

impl Default for Index {
    fn default() -> Self {
        let dirs = Dirs::Memory(String::new());
        Self { names: String::new(), names_at: 0, lengths: Vec::new(), dirs }
    }
}

impl Index {
    /// Index repository-relative `paths` (paths holding a newline or NUL are left out).
    pub fn new<'a>(paths: impl Iterator<Item = &'a str>) -> Self {
        let mut keyed: Vec<(u128, &str, &str)> = paths
            .filter(|p| !p.is_empty() && !p.contains(['\n', '\0']))
            .map(|p| match p.rsplit_once('/') {
                Some((dir, name)) => (sort_key(name), name, dir),
                None => (sort_key(p), p, ""),
            })
            .collect();
        // By (length, name, directory). The key settles most comparisons without reading the
        // strings (comparing whole names was a third of building the index of a large
        // repository, on the guard's first miss after the index changed).
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| (a.1.len(), a.1, a.2).cmp(&(b.1.len(), b.1, b.2)))
        });
        keyed.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
        let mut lengths = Vec::new();
        let mut names = String::new();
        let mut dirs = String::with_capacity(keyed.iter().map(|(_, _, d)| d.len() + 1).sum());
        for run in keyed.chunk_by(|a, b| a.1 == b.1) {
            let name = run[0].1;
            if lengths.last().is_none_or(|&(len, _)| len != name.len()) {
                lengths.push((name.len(), names.len()));
            }
            let offset = dirs.len();
            for (i, (_, _, dir)) in run.iter().enumerate() {
                if i > 0 {
                    dirs.push('\0');
                }
                dirs.push_str(dir);
            }
            // By hand: `write!` of two numbers per name was a sixth of building the index.
            names.push_str(name);
            names.push('\0');
            push_number(&mut names, offset);
            names.push('\0');
            push_number(&mut names, dirs.len() - offset);
            names.push('\n');
        }
        Self { names, names_at: 0, lengths, dirs: Dirs::Memory(dirs) }
    }

    /// An index kept in the cache `file`, its names part (`names_len` bytes) at `offset`
    /// followed by the directories part; `lengths` as [`Index::lengths_text`] wrote it. Only
    /// the names a query for a basename of `query_len` bytes scans are read.
    pub(crate) fn on_disk(
        file: std::fs::File,
        (offset, names_len): (u64, usize),
        lengths: &str,
        query_len: usize,
    ) -> Option<Self> {
        let lengths = lengths
            .split(',')
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (len, at) = l.split_once(':')?;
                Some((len.parse().ok()?, at.parse().ok()?))
            })
            .collect::<Option<Vec<(usize, usize)>>>()?;
        let (from, to) = window(&lengths, names_len, query_len);
        let names = read_at(&file, offset + from as u64, to.checked_sub(from)?)?;
        let dirs = Dirs::File(file, offset + names_len as u64);
        Some(Self { names, names_at: from, lengths, dirs })
    }

    /// The length table as one word (`3:0,4:120,...`), for the cache header.
    pub(crate) fn lengths_text(&self) -> String {
        let items: Vec<String> =
            self.lengths.iter().map(|(len, at)| format!("{len}:{at}")).collect();
        items.join(",")
    }

    /// The two parts, for writing the cache; `None` for an index read from one.
    pub(crate) fn parts(&self) -> Option<(&str, &str)> {
        match &self.dirs {
            Dirs::Memory(dirs) => Some((&self.names, dirs)),
            Dirs::File(..) => None,
        }
    }

    /// Each basename with the location of its directories.
    fn groups(&self) -> impl Iterator<Item = (&str, &str)> {
        lines(&self.names)
    }

    /// The basenames within [`MAX_LENGTH_DIFFERENCE`] of `len`.
    fn near(&self, len: usize) -> impl Iterator<Item = (&str, &str)> {
        let (from, to) = window(&self.lengths, self.names_at + self.names.len(), len);
        let (from, to) = (from.saturating_sub(self.names_at), to.saturating_sub(self.names_at));
        lines(self.names.get(from..to.min(self.names.len())).unwrap_or(""))
    }

    /// The paths named `name`, from the location part of its line (`offset\0length`).
    fn paths(&self, name: &str, location: &str) -> Vec<String> {
        let Some((offset, length)) = location.split_once('\0') else { return Vec::new() };
        let (Ok(offset), Ok(length)) = (offset.parse::<usize>(), length.parse::<usize>()) else {
            return Vec::new();
        };
        let read;
        let dirs = match &self.dirs {
            Dirs::Memory(dirs) => dirs.get(offset..offset + length).unwrap_or(""),
            Dirs::File(file, base) => {
                read = read_at(file, base + offset as u64, length).unwrap_or_default();
                read.as_str()
            }
        };
        let join =
            |dir: &str| if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") };
        dirs.split('\0').map(join).collect()
    }

    /// Number of unique basenames (of a cached index: among those read for its query).
    #[must_use]
    pub fn len(&self) -> usize {
        self.groups().count()
    }

    /// Whether nothing is indexed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// `n` in decimal at the end of `out`.
fn push_number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + u8::try_from(n % 10).unwrap_or(0);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
}

/// A name's length in the top byte and its first 15 bytes below, so that comparing keys orders
/// names by length, then bytes, as far as the key reaches. Names of 255 bytes and more share one
/// key (their lengths do not fit), and the whole comparison orders them.
fn sort_key(name: &str) -> u128 {
    let Ok(len) = u8::try_from(name.len()) else { return u128::from(u8::MAX) << 120 };
    if len == u8::MAX {
        return u128::from(u8::MAX) << 120;
    }
    let mut bytes = [0u8; 16];
    bytes[0] = len;
    let head = &name.as_bytes()[..name.len().min(15)];
    bytes[1..=head.len()].copy_from_slice(head);
    u128::from_be_bytes(bytes)
}

/// The byte range of the names part (`end` bytes) holding the names within
/// [`MAX_LENGTH_DIFFERENCE`] of `len`.
fn window(lengths: &[(usize, usize)], end: usize, len: usize) -> (usize, usize) {
    let start_of = |accept: &dyn Fn(usize) -> bool| {
        lengths.iter().find(|(l, _)| accept(*l)).map_or(end, |&(_, at)| at)
    };
    let from = start_of(&|l| l + MAX_LENGTH_DIFFERENCE >= len);
    (from, start_of(&|l| l > len + MAX_LENGTH_DIFFERENCE).max(from))
}

/// The length in bytes of the basename [`suggest`] looks for in `requested`.
pub(crate) fn query_len(requested: &str) -> usize {
    basename(requested.trim_end_matches('/')).len()
}

/// `(name, location)` of each `name\0location\n` line; lines without a NUL are skipped.
fn lines(names: &str) -> Lines<'_> {
    Lines { rest: names, last: 0 }
}

/// Each byte is looked at once, by a plain loop: lines are a few dozen bytes, too short for
/// `memchr`'s setup to pay off (it was a fifth of a miss).
struct Lines<'a> {
    rest: &'a str,
    /// The previous name's length. Lines are ordered by name length and names hold no NUL, so
    /// a NUL at this offset ends the next name too: the name is not scanned.
    last: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        while !self.rest.is_empty() {
            let bytes = self.rest.as_bytes();
            let cut = if bytes.get(self.last) == Some(&b'\0') {
                self.last
            } else {
                bytes.iter().position(|&b| b == b'\0' || b == b'\n').unwrap_or(bytes.len())
            };
            if bytes.get(cut) != Some(&b'\0') {
                self.rest = self.rest.get(cut + 1..).unwrap_or("");
                continue;
            }
            self.last = cut;
            let (Some(name), Some(tail)) = (self.rest.get(..cut), self.rest.get(cut + 1..)) else {
                return None;
            };
            let end = tail.bytes().position(|b| b == b'\n').unwrap_or(tail.len());
            self.rest = tail.get(end + 1..).unwrap_or("");
            return Some((name, tail.get(..end).unwrap_or("")));
        }
        None
    }
}

fn read_at(file: &std::fs::File, offset: u64, length: usize) -> Option<String> {
    use std::os::unix::fs::FileExt as _;
    let mut buf = vec![0; length];
    file.read_exact_at(&mut buf, offset).ok()?;
    String::from_utf8(buf).ok()
}

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
    for index in indexes {
        for (name, location) in index.near(query.name.len()) {
            let Some(name_score) = name_score(&query, name) else {
                continue;
            };
            for entry in index.paths(name, location) {
                let dirs: Vec<&str> = parent_components(&entry).collect();
                let score =
                    NAME_WEIGHT * name_score + (1.0 - NAME_WEIGHT) * dir_score(&wanted_dirs, &dirs);
                ranked.push((name_score >= EXACT, score, entry));
            }
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
/// tests come first: most of a repository's names fail the length gate.
fn name_score(query: &Query<'_>, name: &str) -> Option<f64> {
    let difference = query.name.len().abs_diff(name.len());
    if difference == 0 && name == query.name {
        return Some(1.0);
    }
    if difference == 0 && first_alike(query.name, name) && name.eq_ignore_ascii_case(query.name) {
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
fn is_same_stem(query_stem: &str, name: &str) -> bool {
    let n = query_stem.len();
    // The stem ends where `name` does or at a dot: a one-byte test before comparing.
    n > 0
        && (name.len() == n || name.as_bytes().get(n) == Some(&b'.'))
        && first_alike(query_stem, name)
        && name.as_bytes()[..n].eq_ignore_ascii_case(query_stem.as_bytes())
        && stem(name).len() == n
}

/// Whether the first bytes agree up to ASCII case (or one is empty): one byte before a
/// comparison of the whole prefix, which most names fail here.
fn first_alike(a: &str, b: &str) -> bool {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => true,
    }
}

/// A cut-short name (`ap` for `app`, `util` for `utils`): too short for the edit-distance
/// threshold, yet a common agent slip.
fn is_truncation(query_lower: &str, name: &str) -> bool {
    let shorter = query_lower.len().min(name.len());
    shorter >= 2
        && query_lower.len().abs_diff(name.len()) <= MAX_LENGTH_DIFFERENCE
        && first_alike(query_lower, name)
        && name.get(..query_lower.len()).is_some_and(|head| head.eq_ignore_ascii_case(query_lower))
}

/// The name without its last extension (`db.test.ts` gives `db.test`; `.env` stays).
fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(at) if at > 0 => &name[..at],
        _ => name,
    }
}

fn fuzzy(query: &Query<'_>, name: &str) -> Option<f64> {
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
    let name_lower = name.to_lowercase();
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
fn counts_differ_by_more(query: &Query<'_>, name: &str, limit: usize) -> bool {
    let mut left = query.counts;
    let mut unmatched = 0;
    let cap = limit + name.len();
    for b in name.bytes() {
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
