//! Fuzz the policy reader: how `.patchgate.toml` is found and read, from the worktree and from
//! a commit's tree. The first byte picks the form, the rest is the file's bytes, in which every
//! `@` stands for a planted secret (an agent that swaps the policy for a link to
//! `~/.aws/credentials`, or writes a key into it, hopes the next error shows it).
//!
//! Invariants: a link (in the worktree or mode 120000 in a tree), a directory, and a file over
//! 1 MiB are refused, never read as "no policy"; the worktree file and the same blob in a tree
//! give the same answer; no message about a policy, from reading it or from any of its tables,
//! holds any part of the secret.
#![no_main]

use git2::{Oid, Repository};
use libfuzzer_sys::fuzz_target;
use patchgate::config::{Config, ConfigError};
use patchgate::contract::ContractConfig;
use patchgate::guard::GuardPolicy;
use patchgate::hook::HookPolicy;
use patchgate::review::ReviewPolicy;
use patchgate::rule::RulePolicy;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const SECRET: &[u8] = b"AKIAFUZZSECRETKEY42";
/// A piece of the secret no message of patchgate's own holds.
const PIECE: &str = "UZZSE";

const LINK: u8 = 1;
const DIRECTORY: u8 = 2;
const OVERSIZED: u8 = 4;

struct Fixture {
    repo: Repository,
    root: PathBuf,
    outside: PathBuf,
}

fn fixture() -> &'static std::sync::Mutex<Fixture> {
    static FIXTURE: OnceLock<std::sync::Mutex<Fixture>> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let top =
            std::env::temp_dir().join(format!("patchgate-fuzz-policy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        let root = top.join("repo");
        let outside = top.join("credentials");
        let repo = Repository::init(&root).expect("init");
        std::sync::Mutex::new(Fixture { repo, root, outside })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&form, text)) = data.split_first() else { return };
    let mut bytes = Vec::with_capacity(text.len());
    for &b in text {
        if b == b'@' { bytes.extend_from_slice(SECRET) } else { bytes.push(b) }
    }
    if form & OVERSIZED != 0 {
        bytes.resize((1 << 20) + 1, b'\n');
    }
    let fx = fixture().lock().expect("one input at a time");
    let file = fx.root.join(".patchgate.toml");
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&file);
    if form & LINK != 0 {
        std::fs::write(&fx.outside, &bytes).expect("credentials");
        std::os::unix::fs::symlink(&fx.outside, &file).expect("link");
    } else if form & DIRECTORY != 0 {
        std::fs::create_dir(&file).expect("directory");
    } else {
        std::fs::write(&file, &bytes).expect("policy");
    }
    let refused = form & (LINK | DIRECTORY | OVERSIZED) != 0;
    let worktree = Config::load(&fx.root);
    check(&worktree, refused);
    let blob = fx.repo.blob(&bytes).expect("blob");
    let mode = if form & LINK != 0 { 0o120_000 } else { 0o100_644 };
    let in_tree = from_tree(&fx.repo, blob, mode);
    check(&in_tree, form & (LINK | OVERSIZED) != 0);
    if form & (LINK | DIRECTORY) == 0 {
        assert_eq!(worktree.is_ok(), in_tree.is_ok(), "the worktree and the tree disagree");
    }
});

fn from_tree(repo: &Repository, blob: Oid, mode: i32) -> Result<Config, ConfigError> {
    let mut builder = repo.treebuilder(None).expect("tree builder");
    builder.insert(".patchgate.toml", blob, mode).expect("insert");
    let tree = repo.find_tree(builder.write().expect("tree")).expect("tree");
    Config::from_tree(repo, &tree, Path::new("HEAD:.patchgate.toml"))
}

/// A refused form is an error; no message holds the secret, down to every table's.
fn check(read: &Result<Config, ConfigError>, refused: bool) {
    let config = match read {
        Ok(config) => {
            assert!(!refused, "a link, a directory or an oversized file was read as a policy");
            config
        }
        Err(e) => return assert_quiet(e),
    };
    let sections = [
        config.section::<RulePolicy>("rules").err(),
        config.section::<ReviewPolicy>("review").err(),
        config.section::<HookPolicy>("hook").err(),
        config.section::<GuardPolicy>("guard").err(),
        config.section::<ContractConfig>("contract").err(),
        config.section::<patchgate::scratch::ScratchPolicy>("scratch").err(),
    ];
    sections.iter().flatten().for_each(assert_quiet);
    if let Err(e) = config.excluded_globs() {
        assert!(!e.to_string().contains(PIECE), "a glob error quotes the secret: {e}");
    }
}

fn assert_quiet(e: &ConfigError) {
    let message = e.to_string();
    assert!(!message.contains(PIECE), "a policy message quotes the secret: {message}");
}
