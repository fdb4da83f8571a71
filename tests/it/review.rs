//! `patchgate review` through the real binary: rejections recorded by `validate`, then listed,
//! shown, exported, applied over an override, and dropped, in throwaway repositories.

use crate::support::{TestRepo, code, data, fixtures, json};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Adds `b.txt` without declaring it: an `undeclared` rejection whose patch still applies.
const PATCH: &str = "diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-old
+new
diff --git a/b.txt b/b.txt
new file mode 100644
--- /dev/null
+++ b/b.txt
@@ -0,0 +1 @@
+hello
";

/// A repository with `a.txt` committed, and a place outside it for step and result files.
struct Setup {
    repo: TestRepo,
    inputs: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let repo = TestRepo::new();
        repo.commit(&[("a.txt", "old\n")], "init");
        Self { repo, inputs: tempfile::tempdir().expect("tempdir") }
    }

    fn input(&self, name: &str, value: &Value) -> PathBuf {
        let path = self.inputs.path().join(name);
        std::fs::write(&path, value.to_string()).expect("write input");
        path
    }

    /// Run `validate` on the undeclared-file result for step `step_id`; extra args appended.
    fn reject(&self, step_id: &str, extra: &[&str]) -> Output {
        let result = serde_json::json!({
            "mode": "apply", "success": true, "patch": PATCH,
            "filesWritten": ["a.txt"], "filesTouched": ["a.txt"],
            "summary": "Changed old to new in a.txt",
        });
        self.reject_result(step_id, result.to_string().as_bytes(), extra)
    }

    /// Run `validate` on `result` (raw bytes) for step `step_id`; it must reject.
    fn reject_result(&self, step_id: &str, result: &[u8], extra: &[&str]) -> Output {
        let step = serde_json::json!({
            "id": step_id,
            "description": "Change old to new in a.txt",
            "allowedFiles": ["a.txt", "b.txt"],
        });
        let step = self.input("step.json", &step);
        let result_file = self.inputs.path().join("result.json");
        std::fs::write(&result_file, result).expect("write input");
        let mut cmd = self.repo.patchgate();
        cmd.arg("validate").arg("--step").arg(&step).arg("--result").arg(&result_file).args(extra);
        let out = cmd.output().expect("run validate");
        assert_eq!(code(&out), 1, "validate must reject: {}", String::from_utf8_lossy(&out.stdout));
        out
    }

    fn review(&self, args: &[&str]) -> Output {
        self.repo.patchgate().arg("review").args(args).output().expect("run review")
    }

    /// `review list --format json`, checked to succeed.
    fn list(&self) -> Vec<Value> {
        let out = self.review(&["list", "--format", "json"]);
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        data(&out).as_array().expect("list is an array").clone()
    }

    fn store(&self) -> PathBuf {
        self.repo.path().join(".git/patchgate/rejected")
    }

    fn only_id(&self) -> String {
        let list = self.list();
        assert_eq!(list.len(), 1, "{list:?}");
        list[0]["id"].as_str().expect("id").to_owned()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_rejected_result_appears_in_the_list() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let list = s.list();
    assert_eq!(list.len(), 1);
    let row = &list[0];
    assert_eq!(row["step_id"], "step-1");
    assert_eq!(row["rule"], "undeclared");
    assert!(row["reason"].as_str().unwrap().starts_with("undeclared: "), "{row}");
    assert_eq!(row["id"].as_str().unwrap().len(), 8);
    assert!(row["full_id"].as_str().unwrap().starts_with(row["id"].as_str().unwrap()));
    assert_eq!(row["base"].as_str().unwrap(), s.repo.git(&["rev-parse", "HEAD"]).trim());
    let files: Vec<&str> =
        row["files"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(files.contains(&"b.txt"), "{files:?}");
}

/// The entry names the commit the result was validated against: `--base`, not HEAD.
#[test]
fn the_recorded_base_is_the_one_validated_against() {
    let s = Setup::new();
    let first = s.repo.git(&["rev-parse", "HEAD"]).trim().to_owned();
    s.repo.commit(&[("c.txt", "later\n")], "move on");
    s.reject("step-1", &["--base", &first]);
    assert_eq!(s.list()[0]["base"].as_str(), Some(first.as_str()));
}

#[test]
fn no_record_records_nothing() {
    let s = Setup::new();
    s.reject("step-1", &["--no-record"]);
    assert!(s.list().is_empty());
    assert!(!s.store().exists());
}

#[test]
fn review_without_subcommand_lists_as_text() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let out = s.review(&[]);
    assert_eq!(code(&out), 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let cols: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!((cols[0], cols[2], cols[3]), (s.only_id().as_str(), "step-1", "undeclared"));
}

#[test]
fn filters_select_by_rule_step_and_time() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    s.reject("step-2", &[]);
    let count = |args: &[&str]| {
        let out = s.review(&[&["list", "--format", "json"], args].concat());
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        data(&out).as_array().unwrap().len()
    };
    assert_eq!(count(&[]), 2);
    assert_eq!(count(&["--step", "step-2"]), 1);
    assert_eq!(count(&["--rule", "undeclared"]), 2);
    assert_eq!(count(&["--rule", "scope"]), 0);
    assert_eq!(count(&["--since", "1h"]), 2);
    assert_eq!(count(&["--since", "2999-01-01"]), 0);
    let list = s.list();
    assert_eq!(
        (&list[0]["step_id"], &list[1]["step_id"]),
        (&Value::from("step-2"), &"step-1".into())
    );
    assert_eq!(code(&s.review(&["list", "--rule", "nope"])), 2);
    assert_eq!(code(&s.review(&["list", "--since", "yesterday"])), 2);
}

#[test]
fn show_json_annotates_the_violation_at_its_line() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    let out = s.review(&["show", &id, "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = data(&out);
    assert_eq!(v["short_id"], id.as_str());
    assert_eq!(v["entry"]["step"]["id"], "step-1");
    assert_eq!(v["patch"], PATCH);
    let undeclared: Vec<&Value> =
        v["annotations"].as_array().unwrap().iter().filter(|a| a["rule"] == "undeclared").collect();
    assert_eq!(undeclared.len(), 1, "{v}");
    let a = undeclared[0];
    assert_eq!(a["severity"], "error");
    assert_eq!(a["file"], "b.txt");
    let line = a["line"].as_u64().expect("placed on a patch line");
    let text = PATCH.lines().nth(usize::try_from(line).unwrap() - 1).unwrap();
    assert_eq!(a["line_text"], text);
    assert!(text.contains("b.txt"), "annotated line {line}: {text}");
}

/// The text form with colours off, against `fixtures/review/show.txt` (`PATCHGATE_BLESS=1`
/// rewrites it). The id, base commit and date change every run, the version every release:
/// they are masked.
#[test]
fn show_text_matches_the_snapshot() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    let out = s.review(&["show", &id, "--color", "never"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let head = s.repo.git(&["rev-parse", "HEAD"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "colour codes with --color never");
    let masked: String = text
        .replace(&id, "<ID>")
        .replace(&head.trim()[..12], "<BASE>")
        .replace(concat!("patchgate ", env!("CARGO_PKG_VERSION")), "patchgate <VERSION>")
        .lines()
        .map(|l| if l.starts_with("date:") { "date:     <DATE>" } else { l })
        .fold(String::new(), |acc, l| acc + l + "\n");
    let expected_path = fixtures().join("review/show.txt");
    if std::env::var_os("PATCHGATE_BLESS").is_some() {
        std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
        std::fs::write(&expected_path, &masked).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).expect("run with PATCHGATE_BLESS=1");
    assert_eq!(masked, expected);
}

#[test]
fn show_colours_only_when_asked() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    let always = s.review(&["show", &id, "--color", "always"]);
    assert!(always.stdout.contains(&0x1b));
    let auto = s.repo.patchgate().args(["review", "show", &id]).output().unwrap();
    assert!(!auto.stdout.contains(&0x1b), "not a terminal: no colour");
    let no_color = s.repo.patchgate().env("NO_COLOR", "1").args(["review", "show", &id]).output();
    assert!(!no_color.unwrap().stdout.contains(&0x1b));
}

#[test]
fn the_store_stays_bounded() {
    let s = Setup::new();
    // The policy validate reads: the base tree's.
    s.repo.commit(&[(".patchgate.toml", "[review]\nkeep = 2\nmax_age_days = 0\n")], "policy");
    for n in 1..=5 {
        s.reject(&format!("step-{n}"), &[]);
    }
    let steps: Vec<Value> = s.list().iter().map(|e| e["step_id"].clone()).collect();
    assert_eq!(steps, ["step-5", "step-4"]);
    assert_eq!(std::fs::read_dir(s.store()).unwrap().count(), 2);
}

/// The entry files in the store and their total size.
fn store_bytes(s: &Setup) -> (usize, u64) {
    let files: Vec<u64> = std::fs::read_dir(s.store())
        .expect("store")
        .map(|e| e.expect("entry").metadata().expect("metadata").len())
        .collect();
    (files.len(), files.iter().sum())
}

#[test]
fn the_store_stays_bounded_in_bytes() {
    let s = Setup::new();
    s.reject("step-0", &[]);
    let (_, one) = store_bytes(&s);
    // Room for two entries and a half: however many are written, at most two stay.
    let budget = one * 5 / 2;
    s.repo.commit(&[(".patchgate.toml", &format!("[review]\nmax_bytes = {budget}\n"))], "policy");
    for n in 1..=4 {
        s.reject(&format!("step-{n}"), &[]);
    }
    let (count, total) = store_bytes(&s);
    assert!(total <= budget, "{total} bytes in the store, budget {budget}");
    assert_eq!(count, 2);
    let steps: Vec<Value> = s.list().iter().map(|e| e["step_id"].clone()).collect();
    assert_eq!(steps, ["step-4", "step-3"], "the newest stay");

    // A result larger than the whole budget is not kept, with a warning on stderr.
    s.repo
        .commit(&[(".patchgate.toml", &format!("[review]\nmax_bytes = {}\n", one / 2))], "policy");
    let out = s.reject("step-big", &[]);
    assert!(!out.stderr.is_empty(), "a warning says the rejection was not recorded");
    assert!(s.list().iter().all(|e| e["step_id"] != "step-big"));
}

#[test]
fn the_reason_column_fits_the_terminal_width() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let table = |columns: &str| {
        let out = s.repo.patchgate().args(["review", "list"]).env("COLUMNS", columns).output();
        String::from_utf8(out.expect("run review").stdout).expect("utf-8")
    };
    let narrow = table("80");
    assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
    assert!(narrow.lines().nth(1).is_some_and(|l| l.contains('…')), "{narrow}");
    let wide = table("300");
    let reason = s.list()[0]["reason"].as_str().expect("reason").to_owned();
    assert!(wide.contains(&reason), "the whole reason fits in 300 columns: {wide}");
}

#[test]
fn a_corrupted_entry_is_skipped_with_a_warning() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    s.reject("step-2", &[]);
    let list = s.list();
    let victim = list[0]["full_id"].as_str().unwrap().to_owned();
    let file = entry_file(&s.store(), &victim);
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, &text[..text.len() / 2]).unwrap();
    std::fs::write(s.store().join("garbage"), b"\x00\xff not json").unwrap();
    let out = s.review(&["list", "--format", "json"]);
    assert_eq!(code(&out), 0);
    let rows = data(&out);
    assert_eq!(rows.as_array().unwrap().len(), 1);
    assert_eq!(rows[0]["step_id"], "step-1");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains(&victim[..8]), "the warning names the entry: {err}");
    // Showing it fails cleanly, and it can be dropped.
    assert_eq!(code(&s.review(&["show", &victim[..8]])), 3);
    assert_eq!(code(&s.review(&["drop", &victim[..8]])), 0);
    assert_eq!(stderr(&s.review(&["list"])).lines().count(), 1, "only the garbage file is left");
}

/// A 4-digit prefix no id in the test store starts with (ids are random; one entry is known).
fn absent_prefix(id: &str) -> String {
    if id.starts_with("ffff") { "0000" } else { "ffff" }.to_owned()
}

fn entry_file(store: &Path, full_id: &str) -> PathBuf {
    std::fs::read_dir(store)
        .expect("read the store")
        .map(|e| e.expect("read a store entry").path())
        .find(|p| p.to_string_lossy().contains(full_id))
        .expect("entry file")
}

#[test]
fn unknown_and_ambiguous_ids_are_refused() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let full = s.list()[0]["full_id"].as_str().unwrap().to_owned();
    let out = s.review(&["show", &absent_prefix(&full), "--format", "json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["error"]["code"], "unknown_id");
    assert_eq!(code(&s.review(&["show", "zz"])), 2);
    // A second file whose id shares the first 12 digits, not the 13th.
    let digit = if full.as_bytes()[12] == b'0' { '1' } else { '0' };
    let twin = format!("{}{digit}{}", &full[..12], "0".repeat(51));
    std::fs::write(s.store().join(format!("{:020}-{twin}.json", 1)), "{}").unwrap();
    let out = s.review(&["show", &full[..8], "--format", "json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["error"]["code"], "ambiguous_id");
    assert_eq!(code(&s.review(&["show", &full[..13], "--format", "json"])), 0);
}

#[test]
fn export_round_trips_through_git_apply() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    let file = s.inputs.path().join("out.patch");
    let out = s.review(&["export", &id, "-o", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PATCH);
    s.repo.git(&["apply", "--check", file.to_str().unwrap()]);
    let stdout = s.review(&["export", &id]);
    assert_eq!(stdout.stdout, PATCH.as_bytes());
    let as_json = data(&s.review(&["export", &id, "--format", "json"]));
    assert_eq!(as_json["patch"], PATCH);
}

#[test]
fn drop_removes_entries() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    s.reject("step-2", &[]);
    let list = s.list();
    let first = list[0]["id"].as_str().unwrap();
    let out = s.review(&["drop", first, "--format", "json"]);
    assert_eq!(code(&out), 0);
    assert_eq!(data(&out)["ids"], serde_json::json!([first]));
    assert_eq!(s.list().len(), 1);
    // One unknown id refuses the whole drop.
    let rest = s.list()[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(code(&s.review(&["drop", &rest, &absent_prefix(&rest)])), 2);
    assert_eq!(s.list().len(), 1);
    assert_eq!(code(&s.review(&["drop", "--all"])), 0);
    assert!(s.list().is_empty());
    assert_eq!(code(&s.review(&["drop"])), 2, "drop needs ids or --all");
}

#[test]
fn apply_needs_every_remaining_rule_overridden() {
    let s = Setup::new();
    s.repo.git(&["config", "user.name", "Rev Iewer"]);
    s.repo.git(&["config", "user.email", "rev@example.com"]);
    s.reject("step-1", &[]);
    let id = s.only_id();
    let worktree = || {
        let read = |f: &str| std::fs::read_to_string(s.repo.path().join(f)).ok();
        (read("a.txt"), read("b.txt"))
    };
    let untouched = (Some("old\n".to_owned()), None);

    let out = s.review(&["apply", &id, "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let v = data(&out);
    assert_eq!(v["action"], "refused");
    assert_eq!(v["remaining"][0]["rule"], "undeclared");
    assert_eq!(v["remaining"][0]["is_overridden"], false);
    assert_eq!(worktree(), untouched);

    let out = s.review(&["apply", &id, "--override", "scope", "--format", "json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(data(&out)["action"], "refused");
    assert_eq!(worktree(), untouched);
    assert_eq!(code(&s.review(&["apply", &id, "--override", "no-such-rule"])), 2);

    let out = s.review(&["apply", &id, "--override", "undeclared", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = data(&out);
    assert_eq!(v["action"], "applied");
    assert_eq!(v["files"], serde_json::json!(["a.txt", "b.txt"]));
    assert_eq!(worktree(), (Some("new\n".to_owned()), Some("hello\n".to_owned())));
    assert_eq!(s.repo.git(&["diff", "--cached", "--name-only"]), "", "no --index: index untouched");

    let shown = data(&s.review(&["show", &id, "--format", "json"]));
    let recorded = &shown["entry"]["overrides"][0];
    assert_eq!(recorded["who"], "Rev Iewer <rev@example.com>");
    assert_eq!(recorded["rules"], serde_json::json!(["undeclared"]));
    assert_eq!(recorded["head"].as_str().unwrap(), s.repo.git(&["rev-parse", "HEAD"]).trim());
    assert_eq!(s.list()[0]["is_applied"], true);
}

#[test]
fn apply_with_index_stages_the_files() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    let out = s.review(&["apply", &id, "--index", "--override", "undeclared"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(s.repo.git(&["diff", "--cached", "--name-only"]), "a.txt\nb.txt\n");
    assert_eq!(s.repo.git(&["status", "--porcelain"]), "M  a.txt\nA  b.txt\n");
}

#[test]
fn apply_leaves_uncommitted_edits_alone() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    s.repo.write("a.txt", "edited by hand\n");
    let out = s.review(&["apply", &id, "--override", "undeclared", "--format", "json"]);
    assert_eq!(code(&out), 3);
    assert_eq!(json(&out)["error"]["code"], "worktree_dirty");
    let a = std::fs::read_to_string(s.repo.path().join("a.txt")).unwrap();
    assert_eq!(a, "edited by hand\n");
    assert!(!s.repo.path().join("b.txt").exists());
    assert_eq!(s.list()[0]["is_applied"], false);
}

/// Re-validation runs against the current HEAD: once `a.txt` moved on, the stored patch no longer
/// applies, and no override makes it.
/// A result rejected under `--strip 0 --repair` (bare paths, a miscounted hunk) is judged again
/// under the same run: its paths read as written and its counts repaired, so overriding the one
/// rule that said no applies it (under the default run it would not even apply).
#[test]
fn apply_judges_again_under_the_run_the_result_was_rejected_in() {
    let s = Setup::new();
    let bare = "diff --git a.txt a.txt\n--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new\n\
                diff --git b.txt b.txt\nnew file mode 100644\n--- /dev/null\n+++ b.txt\n\
                @@ -0,0 +1 @@\n+hello\n+world\n";
    let result = serde_json::json!({
        "mode": "apply", "success": true, "patch": bare,
        "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "Changed old to new",
    });
    let out =
        s.reject_result("step-1", result.to_string().as_bytes(), &["--strip", "0", "--repair"]);
    assert!(json(&out)["reason"].as_str().unwrap().starts_with("undeclared:"), "{}", json(&out));
    let id = s.only_id();
    let out = s.review(&["apply", &id, "--override", "undeclared", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}{}", stderr(&out), String::from_utf8_lossy(&out.stdout));
    assert_eq!(data(&out)["files"], serde_json::json!(["a.txt", "b.txt"]));
    let b = std::fs::read_to_string(s.repo.path().join("b.txt")).unwrap();
    assert_eq!(b, "hello\nworld\n");
}

#[test]
fn apply_revalidates_against_the_current_head() {
    let s = Setup::new();
    s.reject("step-1", &[]);
    let id = s.only_id();
    s.repo.commit(&[("a.txt", "changed upstream\n")], "move on");
    let out = s.review(&["apply", &id, "--override", "undeclared", "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let remaining = data(&out)["remaining"].clone();
    let uncovered: Vec<&Value> =
        remaining.as_array().unwrap().iter().filter(|v| v["is_overridden"] == false).collect();
    assert_eq!(uncovered.len(), 1, "{remaining}");
    assert_eq!(uncovered[0]["rule"], "malformed");
    // Naming `malformed` too cannot make a patch apply that does not.
    let args = ["apply", &id, "--override", "undeclared", "--override", "malformed"];
    let out = s.review(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(json(&out)["error"]["code"], "cannot_apply");
    let a = std::fs::read_to_string(s.repo.path().join("a.txt")).unwrap();
    assert_eq!(a, "changed upstream\n");
    assert!(!s.repo.path().join("b.txt").exists());
}

#[test]
fn a_result_without_a_patch_is_kept_raw_and_cannot_be_exported() {
    let s = Setup::new();
    s.reject_result("step-1", b"Sorry, I could not find a.txt.", &[]);
    let id = s.only_id();
    let shown = data(&s.review(&["show", &id, "--format", "json"]));
    assert_eq!(shown["entry"]["result"], "Sorry, I could not find a.txt.");
    assert_eq!(shown["patch"], Value::Null);
    assert_eq!(shown["annotations"][0]["rule"], "schema");
    let out = s.review(&["export", &id, "--format", "json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["error"]["code"], "no_patch");
}

/// A result naming `patch` twice is rejected by `schema` before any rule reads a patch. Before,
/// `review export` handed out the second patch (serde keeps the last key) as the entry's patch,
/// one no rule had judged (here a write outside `allowedFiles`), and `review show` displayed it.
/// Now neither patch is the entry's; `review apply --override schema` never writes it either.
#[test]
fn a_result_naming_patch_twice_has_no_patch_to_export_show_or_apply() {
    let s = Setup::new();
    let evil = "diff --git a/evil.txt b/evil.txt\nnew file mode 100644\n--- /dev/null\n+++ b/evil.txt\n@@ -0,0 +1 @@\n+pwned\n";
    let result = format!(
        r#"{{"mode": "apply", "success": true, "patch": {}, "patch": {},
            "filesWritten": ["a.txt"], "filesTouched": ["a.txt"], "summary": "Changed a.txt"}}"#,
        serde_json::to_string(PATCH).unwrap(),
        serde_json::to_string(evil).unwrap(),
    );
    let out = s.reject_result("step-1", result.as_bytes(), &["--format", "json"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("schema"), "rejected by schema");
    let id = s.only_id();
    let out = s.review(&["export", &id, "--format", "json"]);
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
    let message = json(&out)["error"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("names a key twice"), "{message}");
    let shown = data(&s.review(&["show", &id, "--format", "json"])).to_string();
    assert!(!shown.contains("\"patch\":\"diff --git a/evil.txt"), "shown as the patch: {shown}");
    let out = s.review(&["apply", &id, "--override", "schema", "--format", "json"]);
    assert_ne!(code(&out), 0, "{}", stderr(&out));
    assert!(!s.repo.path().join("evil.txt").exists(), "the unjudged patch was not applied");
    assert_eq!(std::fs::read_to_string(s.repo.path().join("a.txt")).unwrap(), "old\n");
}

/// A result over a mebibyte has its patch decoded in place (one copy of it in memory, not
/// three); the record then holds the same document, the patch written back where it was, and
/// `review apply` judges it as `validate` did.
#[test]
fn a_large_result_is_recorded_with_every_key_and_value() {
    let s = Setup::new();
    let lines = 120_000;
    let mut patch = PATCH.replace("@@ -0,0 +1 @@\n+hello\n", &format!("@@ -0,0 +1,{lines} @@\n"));
    for i in 0..lines {
        writeln!(patch, "+line {i}\twith \"quotes\" \\ and caf\u{e9}").unwrap();
    }
    let sent = format!(
        r#"{{"summary": "Changed old to new in a.txt", "mode": "apply", "success": true,
            "patch": {}, "extra": {{"note": "kept"}},
            "filesWritten": ["a.txt"], "filesTouched": ["a.txt"]}}"#,
        serde_json::to_string(&patch).unwrap()
    );
    assert!(sent.len() > 4 << 20, "{} bytes: large enough to be decoded in place", sent.len());
    let out = s.reject_result("step-1", sent.as_bytes(), &[]);
    let verdict = json(&out);
    let unrecorded = json(&s.reject_result("step-1", sent.as_bytes(), &["--no-record"]));
    assert_eq!(verdict, unrecorded);
    let reason = verdict["reason"].as_str().unwrap();
    assert!(reason.starts_with("undeclared: patch creates b.txt"), "{verdict}");

    let id = s.only_id();
    let shown = data(&s.review(&["show", &id, "--format", "json"]));
    let recorded: Value =
        serde_json::from_str(shown["entry"]["result"].as_str().expect("result text")).unwrap();
    let sent_value: Value = serde_json::from_str(&sent).unwrap();
    assert_eq!(recorded, sent_value);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&recorded), keys(&sent_value), "key order kept");
    assert_eq!(shown["patch"], patch.as_str());

    let out = s.review(&["apply", &id, "--override", "undeclared", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = std::fs::read_to_string(s.repo.path().join("b.txt")).unwrap();
    assert_eq!(written.lines().count(), lines);
    assert!(
        written.starts_with("line 0\twith \"quotes\" \\ and caf\u{e9}\n"),
        "{}",
        &written[..40]
    );
}

/// A large result refused before its patch is read (here: `success` is a string) is recorded
/// with its patch all the same.
#[test]
fn a_large_result_refused_by_the_schema_keeps_its_patch() {
    let s = Setup::new();
    let mut patch = PATCH.replace("@@ -0,0 +1 @@\n+hello\n", "@@ -0,0 +1,100000 @@\n");
    for i in 0..100_000 {
        writeln!(patch, "+line {i}").unwrap();
    }
    let sent = serde_json::json!({
        "mode": "apply", "success": "yes", "patch": patch,
        "filesWritten": ["a.txt"], "filesTouched": ["a.txt"],
    });
    let sent_text = sent.to_string();
    assert!(sent_text.len() > 1 << 20, "large enough to be decoded in place");
    let verdict = json(&s.reject_result("step-1", sent_text.as_bytes(), &[]));
    assert!(verdict["reason"].as_str().unwrap().starts_with("schema: "), "{verdict}");
    let id = s.only_id();
    let shown = data(&s.review(&["show", &id, "--format", "json"]));
    let recorded: Value =
        serde_json::from_str(shown["entry"]["result"].as_str().expect("result text")).unwrap();
    assert_eq!(recorded, sent);
}
