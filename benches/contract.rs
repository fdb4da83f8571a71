//! The argument checks and reply checks, against git on the same job in the same run.
//!
//! `cargo bench --bench contract` (release build). Prints:
//! - `patchgate check-arg --type branch NAME` against `git check-ref-format --branch NAME`, one
//!   process per call each (process start included; the guard and hook pay it too), median of
//!   `PATCHGATE_BENCH_RUNS` (default 101) calls, and the ratio;
//! - the library calls per value/reply (`check_arg` per type, `check_executor_output` and
//!   `check_agent_reply` on the seed fixtures), as the time per call.

use patchgate::contract::{
    AgentExpect, ArgPolicy, ArgType, ExecutorOptions, check_agent_reply, check_arg,
    check_executor_output,
};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let runs: usize =
        std::env::var("PATCHGATE_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(101);
    let names = ["plan/STORY-0001.2.3", "feature/../main", "feature/x.lock"];
    let pg = env!("CARGO_BIN_EXE_patchgate");
    let ours = median(runs, || process(pg, &["check-arg", "--type", "branch"], &names));
    let git = median(runs, || process("git", &["check-ref-format", "--branch"], &names));
    println!(
        "process per call: patchgate check-arg {:.2} ms, git check-ref-format {:.2} ms, ratio {:.2}",
        ms(ours) / 3.0,
        ms(git) / 3.0,
        ms(ours) / ms(git)
    );
    library();
}

fn library() {
    let values = [
        (ArgType::Path, "/home/user/project/src/module/file.txt"),
        (ArgType::ResourceId, "files%2fetc%2fpasswd"),
        (ArgType::Identifier, "usr-a1b2c3"),
        (ArgType::TicketId, "STORY-0001.2.3"),
        (ArgType::Branch, "plan/STORY-0001.2.3"),
        (ArgType::Operation, "story-deep"),
    ];
    let _ = ArgPolicy::builtin();
    for (ty, value) in values {
        let per = per_call(100_000, || {
            std::hint::black_box(check_arg(ty, std::hint::black_box(value)));
        });
        println!(
            "check_arg {:<11} {value:<40} {:>7.0} ns/call",
            ty.as_str(),
            per.as_secs_f64() * 1e9
        );
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/contract");
    let reply = std::fs::read(fixtures.join("seed000-valid-completed/reply.txt")).expect("fixture");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let per = per_call(10_000, || {
        std::hint::black_box(check_executor_output(&reply, root, ExecutorOptions::default()));
    });
    println!(
        "check_executor_output (seed 000 valid reply)  {:>7.1} us/call",
        per.as_secs_f64() * 1e6
    );
    let reply = std::fs::read(fixtures.join("seed004-valid-partial/reply.txt")).expect("fixture");
    let expect = AgentExpect { agent: "ticket-analyzer".into(), operation: None, max_list: None };
    let per = per_call(10_000, || {
        std::hint::black_box(check_agent_reply(&reply, &expect, ArgPolicy::builtin()));
    });
    println!(
        "check_agent_reply (seed 004 partial reply)    {:>7.1} us/call",
        per.as_secs_f64() * 1e6
    );
}

/// Run `program args NAME` for each name; the total wall time.
fn process(program: &str, args: &[&str], names: &[&str]) -> Duration {
    let started = Instant::now();
    for name in names {
        Command::new(program).args(args).arg(name).output().expect("run");
    }
    started.elapsed()
}

fn median(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[times.len() / 2]
}

fn per_call(n: u32, mut f: impl FnMut()) -> Duration {
    let started = Instant::now();
    for _ in 0..n {
        f();
    }
    started.elapsed() / n
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
