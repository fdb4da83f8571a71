//! The conventions every command shares: the global `--color` (and `NO_COLOR`, `TERM=dumb`),
//! the global `-q`, the one JSON envelope, and `guard`'s refusal of `--format text`.

use crate::support::{Terminal, TestRepo, code, data, fixtures, json, patchgate, run_with_stdin};
use serde_json::Value;
use std::process::{Command, Output, Stdio};

/// A rejected result's arguments (`scope: patch modifies docs/a.md ...`), judged without a
/// repository.
fn rejected_args() -> Vec<String> {
    let case = fixtures().join("validate").join("scope-outside-allowed");
    let file = |name: &str| case.join(name).display().to_string();
    let args = ["validate", "--no-repo", "--step", &file("step.json"), "--result"];
    args.iter().map(|a| (*a).to_owned()).chain([file("result.json")]).collect()
}

/// `patchgate ARGS` outside any repository, with a colour-capable `TERM` and no `NO_COLOR`.
fn command(args: &[String], dir: &std::path::Path) -> Command {
    let mut cmd = patchgate();
    cmd.current_dir(dir)
        .env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap_or(dir))
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .args(args);
    cmd
}

/// Run `cmd` with standard output on a pseudo-terminal: `(exit, what the terminal received)`.
fn on_terminal(cmd: &mut Command) -> (i32, String) {
    let (exit, shown, _) = crate::support::on_terminal(cmd, Terminal::Stdout);
    (exit, shown)
}

/// Whether `text` holds an SGR escape (`ESC [ ... m`).
fn is_coloured(text: &str) -> bool {
    text.contains("\u{1b}[")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn color_auto_colours_a_terminal_unless_no_color_or_a_dumb_term() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut args = rejected_args();
    args.extend(["--format".into(), "text".into()]);
    let (exit, shown) = on_terminal(&mut command(&args, dir.path()));
    assert_eq!(exit, 1);
    assert!(is_coloured(&shown), "auto on a terminal colours: {shown}");
    let (_, shown) = on_terminal(command(&args, dir.path()).env("NO_COLOR", "1"));
    assert!(!is_coloured(&shown), "NO_COLOR=1: {shown}");
    let (_, shown) = on_terminal(command(&args, dir.path()).env("NO_COLOR", ""));
    assert!(is_coloured(&shown), "an empty NO_COLOR is unset: {shown}");
    let (_, shown) = on_terminal(command(&args, dir.path()).env("TERM", "dumb"));
    assert!(!is_coloured(&shown), "TERM=dumb: {shown}");
    let (_, shown) = on_terminal(command(&args, dir.path()).args(["--color", "never"]));
    assert!(!is_coloured(&shown), "--color never: {shown}");
    let piped = command(&args, dir.path()).output().expect("run patchgate");
    assert!(!is_coloured(&stdout(&piped)), "auto never colours a pipe");
    let forced = command(&args, dir.path()).args(["--color", "always"]).output().expect("run");
    assert!(is_coloured(&stdout(&forced)), "--color always colours a pipe");
}

#[test]
fn json_is_never_coloured() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut args = rejected_args();
    args.extend(["--format", "json", "--color", "always"].map(str::to_owned));
    let (exit, shown) = on_terminal(&mut command(&args, dir.path()));
    assert_eq!(exit, 1);
    let verdict: Value = serde_json::from_str(shown.trim()).expect("the verdict is plain JSON");
    assert_eq!(verdict["valid"], false);
    let out = patchgate()
        .args(["parse", "--format", "json", "--color", "always", "/nonexistent.diff"])
        .output()
        .expect("run patchgate");
    assert!(!is_coloured(&stdout(&out)), "the error envelope is plain: {}", stdout(&out));
}

/// `--color always` styles the text and changes nothing else: without its escapes it is the
/// `--color never` text.
#[test]
fn colour_only_styles_validate_parse_and_repair_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let defective = fixtures().join("parse").join("bad-line-prefix").join("patch.diff");
    let defective = defective.display().to_string();
    let mut validate = rejected_args();
    validate.extend(["--format".into(), "text".into()]);
    let parse = ["parse".to_owned(), defective.clone()].to_vec();
    let repair = ["repair", "--no-repo", "--output", "/dev/null", &defective].map(str::to_owned);
    for (args, on_stderr) in [(validate, false), (parse, false), (repair.to_vec(), true)] {
        let run = |when: &str| {
            let out = command(&args, dir.path()).args(["--color", when]).output().expect("run");
            if on_stderr { String::from_utf8_lossy(&out.stderr).into_owned() } else { stdout(&out) }
        };
        let (always, never) = (run("always"), run("never"));
        assert!(is_coloured(&always), "{args:?}: {always}");
        assert!(!is_coloured(&never), "{args:?}: {never}");
        assert_eq!(without_sgr(&always), never, "{args:?}");
    }
}

/// `text` without its SGR escapes.
fn without_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('m').expect("an SGR ends with m");
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    out
}

/// A repository with one commit, for the commands that record or read the review store.
fn repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.commit(&[("docs/a.md", "a\n"), ("src/a.rs", "a\n")], "base");
    repo
}

#[test]
fn quiet_keeps_the_verdict_and_drops_notes_and_diagnostics() {
    let repo = repo();
    let mut args = rejected_args();
    args.retain(|a| a != "--no-repo");
    args.extend(["--format".into(), "text".into()]);
    let loud = repo.patchgate().args(&args).output().expect("run patchgate");
    assert_eq!(code(&loud), 1);
    assert!(!loud.stderr.is_empty(), "without -q, a note says the rejection was kept");
    assert!(stdout(&loud).lines().count() > 1, "diagnostics, then the verdict");
    let quiet = repo.patchgate().args(&args).arg("-q").output().expect("run patchgate");
    assert_eq!(code(&quiet), 1, "exit codes do not change");
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    let last = stdout(&loud).lines().last().map(str::to_owned);
    assert_eq!(stdout(&quiet).lines().collect::<Vec<_>>(), [last.expect("a verdict line")]);
    args.truncate(args.len() - 2);
    let json_loud = repo.patchgate().args(&args).output().expect("run patchgate");
    let json_quiet = repo.patchgate().args(&args).arg("--quiet").output().expect("run");
    assert_eq!(json_quiet.stdout, json_loud.stdout, "the JSON verdict is never cut");
    let keys: Vec<String> =
        json(&json_quiet).as_object().expect("object").keys().cloned().collect();
    assert_eq!(keys, ["valid", "reason"]);
}

#[test]
fn quiet_text_is_what_a_script_needs_and_errors_still_show() {
    let defective = fixtures().join("parse").join("bad-line-prefix").join("patch.diff");
    let out = patchgate().arg("parse").arg(&defective).arg("-q").output().expect("run");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(!text.is_empty() && text.lines().all(|l| l.contains(": error[")), "{text}");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("real.txt"), "x").expect("write");
    let out = patchgate()
        .current_dir(dir.path())
        .args(["paths", "-q", "--format", "text", "--root", ".", "real.txt", "../x", "nope"])
        .output()
        .expect("run patchgate");
    assert_eq!(code(&out), 1, "a filtered path still exits 1");
    assert_eq!(stdout(&out), "real.txt\n", "only the kept paths");
    let out = patchgate().args(["parse", "-q", "/nonexistent.diff"]).output().expect("run");
    assert_eq!(code(&out), 2);
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "the error is printed");
}

/// [`rejected_args`] validated in `repo`: the id the rejection is kept under.
fn record_rejection(repo: &TestRepo) -> String {
    let mut args = rejected_args();
    args.retain(|a| a != "--no-repo");
    assert_eq!(code(&repo.patchgate().args(&args).output().expect("run")), 1);
    let rows =
        data(&repo.patchgate().args(["review", "list", "--format", "json"]).output().expect("run"));
    rows[0]["id"].as_str().expect("an id").to_owned()
}

#[test]
fn review_list_quiet_prints_the_ids() {
    let repo = repo();
    let id = record_rejection(&repo);
    let out = repo.patchgate().args(["review", "-q"]).output().expect("run patchgate");
    assert_eq!(stdout(&out), format!("{id}\n"));
}

/// Every command's `--format json` answer is the envelope, naming its command; the verdict and
/// guard's answer are not wrapped.
#[test]
fn every_json_answer_is_the_envelope_but_the_verdict_and_guard() {
    let repo = repo();
    let id = record_rejection(&repo);
    let patch = fixtures().join("parse").join("bad-line-prefix").join("patch.diff");
    let patch = patch.display().to_string();
    let reply = fixtures().join("contract").join("seed004-valid-output").join("reply.txt");
    let reply = reply.display().to_string();
    let commands: &[(&str, &[&str])] = &[
        ("parse", &["parse", &patch]),
        ("repair", &["repair", "--no-repo", &patch]),
        ("paths", &["paths", "--root", ".", "src/a.rs"]),
        ("check-arg", &["check-arg", "--type", "identifier", "abc"]),
        ("escape-md", &["escape-md", "a*b"]),
        ("contract agent", &["contract", "agent", "--agent", "doc-writer", &reply]),
        ("declare", &["declare", "--show"]),
        ("hook status", &["hook", "status"]),
        ("review list", &["review", "list"]),
        ("review show", &["review", "show", &id]),
        ("review export", &["review", "export", &id]),
        ("review drop", &["review", "drop", &id]),
    ];
    for (name, args) in commands {
        let out = repo.patchgate().args(*args).args(["--format", "json"]).output().expect("run");
        let v = json(&out);
        let keys: Vec<&String> = v.as_object().expect("an object").keys().collect();
        assert_eq!(keys, ["ok", "data", "error", "warnings", "meta"], "{name}: {v}");
        assert_eq!(v["meta"]["command"], *name, "{v}");
        assert_eq!(v["meta"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(v["ok"], v["error"].is_null(), "{name}: {v}");
    }
    let mut args = rejected_args();
    args.retain(|a| a != "--no-repo");
    let verdict = json(&repo.patchgate().args(&args).arg("--format=json").output().expect("run"));
    assert_eq!(verdict.as_object().expect("object").len(), 2, "{verdict}");
}

#[test]
fn guard_refuses_text_format_and_answers_json() {
    let repo = repo();
    let call = serde_json::json!({"session_id": "s", "cwd": repo.path(), "tool_name": "read_file",
        "tool_input": {"file_path": "src/a.rs"}});
    let call = call.to_string().into_bytes();
    let guard = |format: &str| {
        let mut cmd = repo.patchgate();
        cmd.args(["guard", "--protocol", "generic", "--format", format]);
        cmd
    };
    // Refused before standard input is read: feeding it could race the exit (EPIPE).
    let out = guard("text").stdin(Stdio::null()).output().expect("run patchgate");
    assert_eq!(code(&out), 2, "refused, which every agent reads as blocked");
    assert!(out.stdout.is_empty(), "no answer an agent could take for one");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    let out = run_with_stdin(&mut guard("json"), &call);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["decision"], "allow", "the protocol's answer, not an envelope");
}
