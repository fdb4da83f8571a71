//! Real corpora: every commit of this project's own history, and a large real diff between two
//! published versions of a crate (`benches/corpus.sh`). Both must parse without a defect and
//! agree, file entry by file entry, with diffy 0.5 (git-diff mode) and `git apply --numstat`;
//! rendering the parsed model gives back git's bytes exactly.

use patchgate::patch::{BinaryKind, FilePatch, Operation, ParseOptions, parse, render};
use std::path::Path;
use std::process::Command;

/// What two parsers must agree on for one file entry.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    old: Option<Vec<u8>>,
    new: Option<Vec<u8>>,
    operation: &'static str,
    hunks: usize,
    added: usize,
    removed: usize,
    is_binary: bool,
}

fn operation_name(op: Operation) -> &'static str {
    match op {
        Operation::Modify => "modify",
        Operation::Create => "create",
        Operation::Delete => "delete",
        Operation::Rename => "rename",
        Operation::Copy => "copy",
    }
}

fn ours(file: &FilePatch<'_>) -> Entry {
    Entry {
        old: file.old_path.clone(),
        new: file.new_path.clone(),
        operation: operation_name(file.operation),
        hunks: file.hunks.len(),
        added: file.added(),
        removed: file.removed(),
        is_binary: file.binary.is_some(),
    }
}

/// diffy's view of the same bytes, prefixes stripped like ours.
fn diffy_entries(bytes: &[u8]) -> Vec<Entry> {
    use diffy::patch_set::{FileOperation, ParseOptions as DiffyOptions, PatchKind, PatchSet};
    let mut entries = Vec::new();
    for file in PatchSet::parse_bytes(bytes, DiffyOptions::gitdiff()) {
        let file = file.unwrap_or_else(|e| panic!("diffy rejects the corpus: {e}"));
        let own = |p: &[u8]| Some(p.to_vec());
        // git names renames and copies without the `a/` `b/` prefixes (`rename from src/x`),
        // and diffy takes those names as they are: only the other operations carry a prefix.
        let operation = file.operation();
        let prefix = usize::from(!matches!(
            operation,
            FileOperation::Rename { .. } | FileOperation::Copy { .. }
        ));
        let (old, new, operation) = match operation.strip_prefix(prefix) {
            FileOperation::Create(p) => (None, own(&p), "create"),
            FileOperation::Delete(p) => (own(&p), None, "delete"),
            FileOperation::Modify { original, modified } => {
                (own(&original), own(&modified), "modify")
            }
            FileOperation::Rename { from, to } => (own(&from), own(&to), "rename"),
            FileOperation::Copy { from, to } => (own(&from), own(&to), "copy"),
        };
        let (hunks, added, removed) = match file.patch() {
            PatchKind::Text(patch) => {
                let lines = patch.hunks().iter().flat_map(|h| h.lines().iter());
                let (mut added, mut removed) = (0, 0);
                for line in lines {
                    match line {
                        diffy::Line::Insert(_) => added += 1,
                        diffy::Line::Delete(_) => removed += 1,
                        diffy::Line::Context(_) => {}
                    }
                }
                (patch.hunks().len(), added, removed)
            }
            PatchKind::Binary(_) => (0, 0, 0),
        };
        let is_binary = file.patch().is_binary();
        entries.push(Entry { old, new, operation, hunks, added, removed, is_binary });
    }
    entries
}

/// `git apply --numstat`: (added, removed) per entry, `None` for binary.
fn numstat(patch_file: &Path) -> Vec<Option<(usize, usize)>> {
    let out = Command::new("git")
        .args(["apply", "--numstat"])
        .arg(patch_file)
        .current_dir(patch_file.parent().expect("patch has a parent"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git apply --numstat: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let added = fields.next().and_then(|f| f.parse().ok());
            let removed = fields.next().and_then(|f| f.parse().ok());
            added.zip(removed)
        })
        .collect()
}

/// Parse `bytes` strictly and cross-check them; `label` names the input in failures.
fn check_corpus(label: &str, bytes: &[u8], patch_file: &Path) -> usize {
    let parsed = parse(bytes, &ParseOptions::default());
    assert!(parsed.defects.is_empty(), "{label}: defects {:#?}", parsed.defects);
    let rendered = render(&parsed.patch);
    if rendered != bytes {
        let at = rendered
            .iter()
            .zip(bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(rendered.len().min(bytes.len()));
        panic!(
            "{label}: rendering differs from git's own bytes at offset {at}:\n{}\n---\n{}",
            String::from_utf8_lossy(&bytes[at.saturating_sub(80)..(at + 80).min(bytes.len())]),
            String::from_utf8_lossy(
                &rendered[at.saturating_sub(80)..(at + 80).min(rendered.len())]
            )
        );
    }
    let ours: Vec<Entry> = parsed.patch.files.iter().map(ours).collect();
    let theirs = diffy_entries(bytes);
    assert_eq!(ours.len(), theirs.len(), "{label}: file count differs from diffy");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "{label}: entry {i} differs from diffy");
    }
    std::fs::write(patch_file, bytes).expect("write corpus patch");
    let stats = numstat(patch_file);
    let expected: Vec<Option<(usize, usize)>> = parsed
        .patch
        .files
        .iter()
        .map(|f| match &f.binary {
            Some(b) if b.kind == BinaryKind::GitPatch || b.kind == BinaryKind::Marker => None,
            _ => Some((f.added(), f.removed())),
        })
        .collect();
    assert_eq!(expected, stats, "{label}: +/- per entry differ from git apply --numstat");
    ours.len()
}

fn git(args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR")])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

const SEPARATOR: &[u8] = b"patchgate-corpus-commit ";

#[test]
fn own_history_parses_without_defects_and_agrees_with_diffy_and_git() {
    let format = format!("--format={}%H", String::from_utf8_lossy(SEPARATOR));
    let args =
        ["log", "-p", "-M", "--binary", "--no-merges", "--no-color", "--no-ext-diff", &format];
    // A source tree without its history cannot run this test: fail, never pass unrun.
    let Some(log) = git(&args) else {
        panic!("{} is not a git checkout: run the tests from a clone", env!("CARGO_MANIFEST_DIR"));
    };
    let scratch = tempfile::tempdir().expect("tempdir");
    let patch_file = scratch.path().join("commit.diff");
    let mut commits = 0;
    for chunk in split_commits(&log) {
        let (id, diff) = chunk.split_at(memchr::memchr(b'\n', chunk).unwrap_or(chunk.len()));
        let diff = diff.strip_prefix(b"\n\n").unwrap_or(diff);
        if diff.is_empty() {
            continue;
        }
        check_corpus(&String::from_utf8_lossy(id), diff, &patch_file);
        commits += 1;
    }
    assert!(commits > 0, "git log printed no commit with a diff");
}

/// Split `git log` output at the separator lines (content lines are always prefixed, so the
/// separator cannot occur inside a diff at the start of a line).
fn split_commits(log: &[u8]) -> Vec<&[u8]> {
    let mut starts: Vec<usize> = memchr::memmem::find_iter(log, SEPARATOR)
        .filter(|&i| i == 0 || log[i - 1] == b'\n')
        .map(|i| i + SEPARATOR.len())
        .collect();
    starts.push(log.len() + SEPARATOR.len());
    starts.windows(2).map(|w| &log[w[0]..w[1] - SEPARATOR.len()]).collect()
}

/// The large real diff of `benches/corpus.sh` (network on first run: `cargo fetch`).
#[test]
#[ignore = "fetches two crate versions; run by .ci/run with --ignored corpus"]
fn corpus_large_real_diff_parses_and_agrees_with_diffy_and_git() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/corpus.sh");
    let out = Command::new("bash").arg(&script).output().expect("run benches/corpus.sh");
    assert!(out.status.success(), "corpus.sh: {}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8(out.stdout).expect("utf-8 path");
    let bytes = std::fs::read(path.trim()).expect("read the corpus diff");
    let scratch = tempfile::tempdir().expect("tempdir");
    let files = check_corpus(path.trim(), &bytes, &scratch.path().join("corpus.diff"));
    assert!(files > 100, "corpus has only {files} entries");
}
