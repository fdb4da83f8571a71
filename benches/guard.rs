//! `patchgate guard` latency per call, process start included, on a generated repository of
//! 100,000 files (`cargo bench --bench guard`; `GUARD_BENCH_FILES` and `GUARD_BENCH_RUNS`
//! change the size and the number of calls).
//!
//! The index is written in one `git update-index --index-info` (one blob for every path); only
//! the directories the queries touch exist on disk, which is all the guard reads besides the
//! index. Printed: p50/p99 for hits, misses with suggestions (the file-list cache warm) and
//! shell commands, and the same for `patchgate --version` (bare process start) as the reference
//! each is compared with; then the first miss after the index changed (one entry added, so the
//! cached file list no longer matches and is rebuilt), `GUARD_BENCH_CHANGES` times, against
//! `git ls-files` reading the same index. `GUARD_BENCH_BASELINE=PATH` runs another patchgate
//! binary (an older build) through the same calls in the same run, for a before/after ratio.
//! Wall time on a shared machine includes waiting for a CPU, so the mean CPU time per call
//! (user + system, from the children's times in `/proc/self/stat`) is printed beside it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WORDS: &[&str] = &[
    "cache", "client", "config", "db", "handler", "model", "parser", "router", "schema", "service",
    "session", "store", "test", "user", "util", "view", "worker", "api", "auth", "billing",
    "event", "index", "job", "log", "mail", "queue", "report", "search", "sync", "token",
];
const EXTENSIONS: &[&str] = &["py", "rs", "ts", "go", "md", "json"];

fn main() {
    let files: usize = env_number("GUARD_BENCH_FILES", 100_000);
    let runs: usize = env_number("GUARD_BENCH_RUNS", 200);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("temp dir resolves");
    let paths = generate_paths(files);
    let started = Instant::now();
    build_repo(&root, &paths);
    println!("generated {files} indexed files in {:.1} s", started.elapsed().as_secs_f64());
    let sample: Vec<&String> = paths.iter().step_by(paths.len() / runs.max(1)).take(runs).collect();
    for path in &sample {
        materialise(&root, path);
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_patchgate"));
    let reference = measure(runs, |_| run(&bin, &root, &["--version"], ""));
    println!("guard latency per call, process start included ({runs} calls each):");
    report("process start (patchgate --version)", &reference, &reference);
    let baseline = std::env::var_os("GUARD_BENCH_BASELINE").map(PathBuf::from);
    for (name, bin) in std::iter::once(("", &bin)).chain(baseline.iter().map(|b| ("baseline ", b)))
    {
        calls(name, bin, &root, &sample, &reference);
    }
    let changes: usize = env_number("GUARD_BENCH_CHANGES", 20);
    println!("first miss after the index changed ({changes} changes each):");
    let git_reads = after_changes(&root, changes, |_| {
        let mut ls = Command::new("git");
        ls.current_dir(&root).arg("ls-files").stdout(Stdio::null());
        ls.status().expect("run git ls-files");
    });
    report("git ls-files (reads the same index)", &git_reads, &git_reads);
    for (name, bin) in std::iter::once(("", &bin)).chain(baseline.iter().map(|b| ("baseline ", b)))
    {
        let first = after_changes(&root, changes, |i| {
            run(bin, &root, &["guard"], &payload(&root, "Read", &typo(&root, sample[i % runs])));
        });
        report(&format!("{name}first miss (rebuilds the file list)"), &first, &git_reads);
    }
}

/// Hits, misses and shell commands through `bin`.
fn calls(name: &str, bin: &Path, root: &Path, sample: &[&String], reference: &Sample) {
    let runs = sample.len();
    // The first miss builds the file-list cache, so the misses after it are warm.
    run(bin, root, &["guard"], &payload(root, "Read", &typo(root, sample[0])));
    let hits = measure(runs, |i| {
        run(bin, root, &["guard"], &payload(root, "Read", &abs(root, sample[i])))
    });
    let misses = measure(runs, |i| {
        run(bin, root, &["guard"], &payload(root, "Read", &typo(root, sample[i])))
    });
    let shell = measure(runs, |i| run(bin, root, &["guard"], &shell_payload(root, sample[i])));
    report(&format!("{name}hit (Read of an existing file)"), &hits, reference);
    report(&format!("{name}miss with suggestions"), &misses, reference);
    report(&format!("{name}shell command (cd, cat, grep, sed -i)"), &shell, reference);
}

/// `one(i)` timed right after the `i`-th change of the index (a new entry, so its size, time
/// and identity change), `changes` times; the `git update-index` runs are not timed.
fn after_changes(root: &Path, changes: usize, mut one: impl FnMut(usize)) -> Sample {
    let blob = git(root, &["hash-object", "-w", "--stdin"], b"changed\n");
    let mut times = Vec::with_capacity(changes);
    let mut cpu = Duration::ZERO;
    for i in 0..changes {
        let entry = format!("100644 {}\tchanged/file_{i}.txt\n", blob.trim());
        git(root, &["update-index", "--add", "--index-info"], entry.as_bytes());
        let cpu_before = children_cpu();
        let started = Instant::now();
        one(i);
        times.push(started.elapsed());
        cpu += children_cpu().saturating_sub(cpu_before);
    }
    times.sort_unstable();
    (times, cpu / u32::try_from(changes.max(1)).expect("changes fit"))
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Deterministic paths with realistic basename variety: nested packages, repeated names
/// (`__init__.py`, `mod.rs`) and many unique ones.
fn generate_paths(count: usize) -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).expect("31 bits fit") % n
    };
    let mut paths = Vec::with_capacity(count);
    for i in 0..count {
        let depth = 2 + next(4);
        let mut path = String::new();
        for _ in 0..depth {
            path.push_str(WORDS[next(WORDS.len())]);
            let _ = write!(path, "{}/", next(20));
        }
        let name = match next(10) {
            0 => "__init__.py".to_owned(),
            1 => "mod.rs".to_owned(),
            _ => format!(
                "{}_{}_{i}.{}",
                WORDS[next(WORDS.len())],
                WORDS[next(WORDS.len())],
                EXTENSIONS[next(EXTENSIONS.len())]
            ),
        };
        path.push_str(&name);
        paths.push(path);
    }
    paths.sort();
    paths.dedup();
    paths
}

fn git(root: &Path, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new("git")
        .current_dir(root)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run git");
    child.stdin.take().expect("stdin").write_all(stdin).expect("write to git");
    let out = child.wait_with_output().expect("git finishes");
    assert!(out.status.success(), "git {args:?} failed");
    String::from_utf8(out.stdout).expect("git prints UTF-8")
}

fn build_repo(root: &Path, paths: &[String]) {
    git(root, &["init", "-q"], b"");
    let blob = git(root, &["hash-object", "-w", "--stdin"], b"content\n");
    let mut info = String::with_capacity(paths.len() * 80);
    for path in paths {
        let _ = writeln!(info, "100644 {}\t{path}", blob.trim());
    }
    git(root, &["update-index", "--add", "--index-info"], info.as_bytes());
}

fn materialise(root: &Path, rel: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(path, "content\n").expect("write file");
}

fn abs(root: &Path, rel: &str) -> String {
    root.join(rel).display().to_string()
}

/// The path in a directory that does not exist, its name with one letter dropped: a wrong
/// directory and a typo at once.
fn typo(root: &Path, rel: &str) -> String {
    let (dir, name) = rel.rsplit_once('/').expect("nested");
    let mut name = name.to_owned();
    name.remove(1);
    root.join(dir).join("generated").join(name).display().to_string()
}

fn payload(root: &Path, tool: &str, path: &str) -> String {
    serde_json::json!({"session_id": "bench", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": {"file_path": path}})
    .to_string()
}

fn shell_payload(root: &Path, rel: &str) -> String {
    let (dir, name) = rel.split_once('/').expect("nested");
    let command =
        format!("cd {dir} && cat {name} | grep -n TODO && sed -i 's/a/b/' {name} > /dev/null");
    serde_json::json!({"session_id": "bench", "cwd": root, "tool_name": "Bash",
        "tool_input": {"command": command}})
    .to_string()
}

fn run(bin: &Path, root: &Path, args: &[&str], stdin: &str) -> Duration {
    let started = Instant::now();
    let mut child = Command::new(bin)
        .current_dir(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn patchgate");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write payload");
    child.wait().expect("patchgate finishes");
    started.elapsed()
}

/// Sorted wall times, and the mean CPU time per call.
type Sample = (Vec<Duration>, Duration);

/// `one(i)` for each of `runs` calls.
fn measure(runs: usize, mut one: impl FnMut(usize) -> Duration) -> Sample {
    let cpu_before = children_cpu();
    let mut times: Vec<Duration> = (0..runs).map(&mut one).collect();
    let cpu =
        children_cpu().saturating_sub(cpu_before) / u32::try_from(runs.max(1)).expect("runs fit");
    times.sort_unstable();
    (times, cpu)
}

/// User + system time of all waited-for children (`cutime`, `cstime`; 100 ticks a second).
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks: u64 = [13, 14].iter().filter_map(|&i| fields.get(i)?.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 10)
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(label: &str, (times, cpu): &Sample, reference: &Sample) {
    let (p50, p99) = (percentile(times, 50), percentile(times, 99));
    println!(
        "  {label:<46} p50 {:>7.2} ms  p99 {:>7.2} ms  cpu {:>6.2} ms/call  ({:.2}x the reference at p50)",
        ms(p50),
        ms(p99),
        ms(*cpu),
        p50.as_secs_f64() / percentile(&reference.0, 50).as_secs_f64()
    );
}
