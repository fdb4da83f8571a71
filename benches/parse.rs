//! Parse throughput on a large real git diff, against references measured in the same run on the
//! same bytes: a plain `memchr` line scan (the floor: counts lines starting with `+`, `-`, `@@`,
//! `diff --git`) and `git apply --stat` (git's own parser, process start included).
//!
//! ```sh
//! cargo bench --bench parse                 # input: benches/corpus.sh (fetched on first run)
//! PATCHGATE_BENCH_INPUT=big.diff PATCHGATE_BENCH_RUNS=11 cargo bench --bench parse
//! ```
//! Each measure is the minimum of N runs (default 15), interleaved to spread machine noise.
#![allow(clippy::cast_precision_loss, reason = "sizes in MB for display")]

use patchgate::patch::{ParseOptions, parse};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn input_path() -> PathBuf {
    if let Some(path) = std::env::var_os("PATCHGATE_BENCH_INPUT") {
        return PathBuf::from(path);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/corpus.sh");
    let out = Command::new("bash").arg(&script).output().expect("run benches/corpus.sh");
    assert!(out.status.success(), "corpus.sh: {}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).expect("utf-8 path").trim())
}

/// The floor: one `memchr` per line and a look at its first bytes.
fn line_scan(bytes: &[u8]) -> [usize; 4] {
    let mut counts = [0usize; 4];
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        match line.first() {
            Some(b'+') => counts[0] += 1,
            Some(b'-') => counts[1] += 1,
            Some(b'@') if line.starts_with(b"@@") => counts[2] += 1,
            Some(b'd') if line.starts_with(b"diff --git ") => counts[3] += 1,
            _ => {}
        }
        start = end + 1;
    }
    counts
}

fn patchgate_parse(bytes: &[u8]) -> usize {
    let parsed = parse(bytes, &ParseOptions::default());
    assert!(parsed.is_ok(), "the benchmark input has defects: {:?}", &parsed.defects[..1]);
    parsed.patch.files.len()
}

fn git_apply_stat(path: &Path) {
    let out = Command::new("git")
        .args(["apply", "--stat"])
        .arg(path)
        .current_dir(path.parent().expect("input has a parent"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git apply --stat: {}", String::from_utf8_lossy(&out.stderr));
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn main() {
    let path = input_path();
    let bytes = std::fs::read(&path).expect("read the benchmark input");
    let runs: usize =
        std::env::var("PATCHGATE_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(15);
    let files = patchgate_parse(&bytes);
    let [mut ours, mut floor, mut git] = [Duration::MAX; 3];
    for _ in 0..runs {
        ours = ours.min(time(|| {
            black_box(patchgate_parse(black_box(&bytes)));
        }));
        floor = floor.min(time(|| {
            black_box(line_scan(black_box(&bytes)));
        }));
        git = git.min(time(|| git_apply_stat(&path)));
    }
    let n = bytes.len();
    println!(
        "input: {} ({:.1} MB, {files} file entries), min of {runs} runs",
        path.display(),
        n as f64 / 1e6
    );
    println!(
        "patchgate parse     {:>8.2} ms  {:>7.0} MB/s",
        ours.as_secs_f64() * 1e3,
        mb_per_s(n, ours)
    );
    println!(
        "memchr line scan    {:>8.2} ms  {:>7.0} MB/s",
        floor.as_secs_f64() * 1e3,
        mb_per_s(n, floor)
    );
    println!(
        "git apply --stat    {:>8.2} ms  {:>7.0} MB/s  (process start included)",
        git.as_secs_f64() * 1e3,
        mb_per_s(n, git)
    );
    println!(
        "ratio parse / line scan: {:.2}x (target <= 2.5x)",
        ours.as_secs_f64() / floor.as_secs_f64()
    );
    println!("ratio git apply --stat / parse: {:.2}x", git.as_secs_f64() / ours.as_secs_f64());
}
