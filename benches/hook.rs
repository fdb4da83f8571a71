//! The pre-commit hook on a generated 100,000-file repository, against
//! `git diff --cached --name-only` on the same repository, in the same run.
//!
//! `cargo bench --bench hook` (release build). `PATCHGATE_BENCH_FILES` changes the size,
//! `PATCHGATE_BENCH_RUNS` the number of timed runs (median reported).
//!
//! The repository is written by `git fast-import` (one blob, 100,000 paths in 100 x 10
//! directories) and its index by `git read-tree`, so generation takes seconds, not minutes. Then
//! a few changes are staged (modify, add, delete) and a declaration covers them, so the
//! hook does its whole job and allows the commit.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let files: usize = env_or("PATCHGATE_BENCH_FILES", 100_000);
    let runs: usize = env_or("PATCHGATE_BENCH_RUNS", 21);
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    let started = Instant::now();
    generate(repo, files);
    stage_changes(repo);
    println!("generated {files} files in {:.1} s", started.elapsed().as_secs_f64());
    let pg = env!("CARGO_BIN_EXE_patchgate");
    let declared = run(repo, pg, &["declare", "d05/**"]);
    assert!(declared, "declare failed");
    let git = median(runs, || run(repo, "git", &["diff", "--cached", "--name-only"]));
    let hook = median(runs, || run(repo, pg, &["hook", "run", "pre-commit"]));
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("git diff --cached --name-only  median {:8.2} ms ({runs} runs)", ms(git));
    println!("patchgate hook run pre-commit  median {:8.2} ms ({runs} runs)", ms(hook));
    println!("ratio hook / git diff --cached: {:.2} (target <= 1.20)", ms(hook) / ms(git));
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn git(repo: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(repo).env("GIT_CONFIG_GLOBAL", "/dev/null").env("GIT_CONFIG_NOSYSTEM", "1");
    cmd
}

fn generate(repo: &Path, files: usize) {
    assert!(git(repo).args(["init", "-q", "-b", "main"]).status().expect("git init").success());
    let mut import = git(repo)
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import");
    let mut stream = String::from("blob\nmark :1\ndata 6\nhello\n");
    stream.push_str("commit refs/heads/main\ncommitter B <b@e> 0 +0000\ndata 5\nbase\n");
    for i in 0..files {
        let (dir, sub, file) = (i / 1000 % 100, i / 100 % 10, i);
        let _ = writeln!(stream, "M 100644 :1 d{dir:02}/s{sub}/f{file:06}.txt");
    }
    stream.push('\n');
    let mut stdin = import.stdin.take().expect("stdin piped");
    stdin.write_all(stream.as_bytes()).expect("feed fast-import");
    drop(stdin);
    assert!(import.wait().expect("fast-import").success());
    assert!(git(repo).args(["read-tree", "HEAD"]).status().expect("read-tree").success());
}

/// Modify one file, add one and delete one, all under `d05/s3`.
fn stage_changes(repo: &Path) {
    let out = git(repo)
        .args(["hash-object", "-w", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(b"changed\n")?;
            c.wait_with_output()
        })
        .expect("hash-object");
    let blob = String::from_utf8(out.stdout).expect("hex").trim().to_owned();
    let info = format!(
        "100644 {blob}\td05/s3/f005300.txt\n100644 {blob}\td05/s3/new.txt\n\
         0 0000000000000000000000000000000000000000\td05/s3/f005301.txt\n"
    );
    let mut update = git(repo)
        .args(["update-index", "--index-info"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("update-index");
    update.stdin.take().expect("stdin").write_all(info.as_bytes()).expect("index info");
    assert!(update.wait().expect("update-index").success());
}

fn run(repo: &Path, program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .current_dir(repo)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdout(Stdio::null())
        .status()
        .expect("run")
        .success()
}

fn median(runs: usize, mut f: impl FnMut() -> bool) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            assert!(f(), "benchmarked command failed");
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}
