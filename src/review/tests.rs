use super::*;
use crate::finding::Acceptance;
use crate::rule::{Report, RuleId, Violation};
use serde_json::json;
use std::time::{Duration, SystemTime};

fn at(secs: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
}

fn days(n: u64) -> u64 {
    n * 86_400
}

fn report() -> Report {
    let v = Violation::new(
        RuleId::Undeclared,
        crate::finding::Code::from_name("file_not_declared"),
        "patch modifies b.txt",
    )
    .in_file("b.txt")
    .at(Some(1), Some(6));
    Report::from_violations(vec![v], Vec::new(), &Acceptance::default())
}

fn new_entry(step_id: &str) -> NewEntry {
    NewEntry {
        step: json!({"id": step_id, "description": "change a.txt"}),
        result: json!({"mode": "apply", "success": true, "patch": "diff --git a/b.txt b/b.txt\n",
            "filesWritten": ["a.txt"]})
        .to_string(),
        report: report(),
        base: Some("0".repeat(40)),
        run: None,
    }
}

#[test]
fn ids_are_stable_and_depend_on_content_and_time() {
    let a = Entry::new(new_entry("s1"), at(100));
    assert_eq!(a.id, Entry::new(new_entry("s1"), at(100)).id);
    assert_ne!(a.id, Entry::new(new_entry("s1"), at(101)).id);
    assert_ne!(a.id, Entry::new(new_entry("s2"), at(100)).id);
    assert_eq!(a.id.len(), 64);
    assert!(a.id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
}

#[test]
fn entry_accessors_read_step_and_result() {
    let e = Entry::new(new_entry("s1"), at(100));
    assert_eq!(e.step_id(), Some("s1"));
    assert_eq!(e.step_description(), Some("change a.txt"));
    assert_eq!(e.patch(), Some("diff --git a/b.txt b/b.txt\n"));
    assert_eq!(e.rules(), [RuleId::Undeclared]);
    assert!(!e.files().is_empty());
    assert_eq!(e.verdict, e.report.verdict);
}

#[test]
fn files_fall_back_to_violations_when_result_is_not_json() {
    let mut new = new_entry("s1");
    new.result = "I changed it".to_owned();
    let e = Entry::new(new, at(1));
    assert_eq!(e.patch(), None);
    assert_eq!(e.files(), ["b.txt"]);
}

#[test]
fn short_ids_grow_only_where_ids_collide() {
    let a = "abcdef0123456789".repeat(4);
    let b = format!("abcdef01234{}", "0".repeat(53));
    let c = "1234567890abcdef".repeat(4);
    let short = short_ids(&[a.as_str(), b.as_str(), c.as_str()]);
    assert_eq!(short[a.as_str()], "abcdef012345");
    assert_eq!(short[b.as_str()], "abcdef012340");
    assert_eq!(short[c.as_str()], "12345678");
}

#[test]
fn prune_keeps_the_newest_n_or_the_young_and_caps_the_total() {
    let policy =
        ReviewPolicy { keep: 2, max_age_days: 30, max_entries: 4, ..ReviewPolicy::default() };
    let now = at(days(100));
    let young = [99, 98, 97, 96].map(|d| at(days(d)));
    assert_eq!(prune_selection(&young, &policy, now), Vec::<usize>::new());
    // newest first: 1, 40, 50, 60 days old; the two newest stay however old
    let mixed = [99, 60, 50, 40].map(|d| at(days(d)));
    assert_eq!(prune_selection(&mixed, &policy, now), vec![2, 3]);
    let burst = [100, 100, 99, 99, 99, 98].map(|d| at(days(d)));
    assert_eq!(prune_selection(&burst, &policy, now), vec![4, 5]);
}

#[test]
fn prune_treats_future_entries_as_young() {
    let policy =
        ReviewPolicy { keep: 0, max_age_days: 1, max_entries: 10, ..ReviewPolicy::default() };
    assert!(prune_selection(&[at(500)], &policy, at(100)).is_empty());
    assert_eq!(prune_selection(&[at(0)], &policy, at(days(2))), vec![0]);
}

#[test]
fn policy_reads_from_the_review_table() {
    let cfg =
        crate::config::Config::from_toml("[review]\nkeep = 3\n", std::path::Path::new("x.toml"))
            .unwrap();
    let policy: ReviewPolicy = cfg.section("review").unwrap();
    assert_eq!(policy, ReviewPolicy { keep: 3, ..ReviewPolicy::default() });
    let bad = crate::config::Config::from_toml("[review]\nkept = 3\n", "x.toml".as_ref()).unwrap();
    assert!(bad.section::<ReviewPolicy>("review").is_err());
}

#[test]
fn ages_are_compact() {
    let now = at(days(100));
    let age = |secs: u64| format_age(at(days(100) - secs), now);
    assert_eq!(
        [age(5), age(300), age(7_200), age(days(3)), age(days(21))],
        ["5s", "5m", "2h", "3d", "3w"]
    );
    assert_eq!(format_age(at(days(101)), now), "now");
}

#[test]
fn since_takes_durations_dates_and_timestamps() {
    let now = at(days(100));
    assert_eq!(parse_since("2h", now).unwrap(), at(days(100) - 7_200));
    assert_eq!(parse_since("3d", now).unwrap(), at(days(97)));
    assert_eq!(parse_since("1970-01-03", now).unwrap(), at(days(2)));
    assert_eq!(parse_since("1970-01-03T01:00:00Z", now).unwrap(), at(days(2) + 3_600));
    assert!(parse_since("yesterday", now).is_err());
    assert!(parse_since("1970-13-40", now).is_err());
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path().join("rejected"));
    (dir, store)
}

#[test]
fn a_missing_store_is_empty() {
    let (_dir, store) = store();
    let listing = store.list().unwrap();
    assert!(listing.entries.is_empty() && listing.skipped.is_empty());
}

#[test]
fn written_entries_list_newest_first_and_round_trip() {
    let (_dir, store) = store();
    let old = Entry::new(new_entry("old"), at(100));
    let new = Entry::new(new_entry("new"), at(200));
    store.write(&old).unwrap();
    store.write(&new).unwrap();
    let listing = store.list().unwrap();
    assert_eq!(listing.entries, [new, old]);
    let names: Vec<String> = std::fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".tmp")), "{names:?}");
}

#[test]
fn corrupted_and_foreign_files_are_skipped_not_fatal() {
    let (_dir, store) = store();
    let good = Entry::new(new_entry("good"), at(100));
    let bad = Entry::new(new_entry("bad"), at(200));
    store.write(&good).unwrap();
    let bad_ref = store.write(&bad).unwrap();
    let text = std::fs::read_to_string(&bad_ref.path).unwrap();
    std::fs::write(&bad_ref.path, &text[..text.len() / 2]).unwrap();
    std::fs::write(store.dir().join("notes.txt"), "hello").unwrap();
    let listing = store.list().unwrap();
    assert_eq!(listing.entries, [good]);
    assert_eq!(listing.skipped.len(), 2);
    let err = store.load(&bad_ref).unwrap_err();
    assert_eq!(err.code().as_str(), "corrupt_entry");
    assert!(!err.is_input());
}

#[test]
fn ids_resolve_by_unique_prefix() {
    let (_dir, store) = store();
    let e = Entry::new(new_entry("s"), at(100));
    store.write(&e).unwrap();
    assert_eq!(store.resolve(&e.id[..4]).unwrap().id, e.id);
    assert_eq!(store.resolve(&e.id.to_uppercase()[..10]).unwrap().id, e.id);
    let other = if e.id.starts_with('0') { "1111" } else { "0000" };
    assert_eq!(store.resolve(other).unwrap_err().code().as_str(), "unknown_id");
    assert_eq!(store.resolve("abc").unwrap_err().code().as_str(), "invalid_id");
    assert_eq!(store.resolve("xyz12").unwrap_err().code().as_str(), "invalid_id");
}

#[test]
fn ambiguous_prefixes_list_the_candidates() {
    let (_dir, store) = store();
    std::fs::create_dir_all(store.dir()).unwrap();
    // Lookup reads file names only, so crafted names give colliding ids.
    let ids = [format!("abcd1234{}", "0".repeat(56)), format!("abcd1235{}", "0".repeat(56))];
    for (t, id) in ids.iter().enumerate() {
        std::fs::write(store.dir().join(format!("{t:020}-{id}.json")), "{}").unwrap();
    }
    match store.resolve("ABCD").unwrap_err() {
        ReviewError::AmbiguousId { candidates, .. } => {
            assert_eq!(candidates, ["abcd1234", "abcd1235"]);
        }
        other => panic!("expected ambiguity, got {other}"),
    }
    assert_eq!(store.resolve("abcd1235").unwrap().id, ids[1]);
}

#[test]
fn rewriting_an_entry_keeps_one_file() {
    let (_dir, store) = store();
    let mut e = Entry::new(new_entry("s"), at(100));
    store.write(&e).unwrap();
    e.overrides.push(Override {
        who: Some("A <a@example.com>".to_owned()),
        time: at(150),
        rules: vec![RuleId::Undeclared],
        overridden: vec!["undeclared: patch modifies b.txt".to_owned()],
        head: None,
        index: false,
    });
    store.write(&e).unwrap();
    let listing = store.list().unwrap();
    assert_eq!(listing.entries, [e]);
}

#[test]
fn pruning_removes_what_the_policy_drops_and_stale_temps() {
    let (_dir, store) = store();
    for t in 1..=5 {
        store.write(&Entry::new(new_entry("s"), at(days(t)))).unwrap();
    }
    let stale = store.dir().join(".tmp-crashed");
    std::fs::write(&stale, "{").unwrap();
    let policy =
        ReviewPolicy { keep: 2, max_age_days: 1, max_entries: 100, ..ReviewPolicy::default() };
    let now = SystemTime::now();
    assert_eq!(store.prune(&policy, now + Duration::from_hours(2)).unwrap(), 3);
    let times: Vec<SystemTime> = store.list().unwrap().entries.iter().map(|e| e.time).collect();
    assert_eq!(times, [at(days(5)), at(days(4))]);
    assert!(!stale.exists());
}

#[test]
fn remove_all_removes_unreadable_entries_too() {
    let (_dir, store) = store();
    let r = store.write(&Entry::new(new_entry("s"), at(1))).unwrap();
    std::fs::write(&r.path, "garbage").unwrap();
    store.write(&Entry::new(new_entry("t"), at(2))).unwrap();
    assert_eq!(store.remove_all().unwrap(), 2);
    assert!(store.list().unwrap().entries.is_empty());
}

#[test]
fn recording_notes_say_what_happened() {
    assert_eq!(Recording::NotRejected.note(), None);
    let note = Recording::Recorded { id: "abcd1234".into(), pruned: 0 }.note().unwrap();
    assert_eq!(note.code, "rejection_recorded");
    let note = Recording::Skipped("no repository".into()).note().unwrap();
    assert_eq!(note.code, "rejection_not_recorded");
}

fn step() -> crate::step::Step {
    crate::step::Step { description: "x".to_owned(), ..Default::default() }
}

fn record(
    repo: Option<&git2::Repository>,
    config: &crate::config::Config,
    result: &[u8],
    report: &Report,
) -> Recording {
    let step = step();
    let ctx = super::Judged { step: &step, result, config, repo, base: None, run: json!({}) };
    record_rejection(&ctx, report)
}

#[test]
fn recording_without_a_repository_is_skipped() {
    let config = crate::config::Config::default();
    let got = record(None, &config, b"{}", &report());
    assert!(matches!(got, Recording::Skipped(_)), "{got:?}");
    let accepted = Report::from_violations(Vec::new(), Vec::new(), &Acceptance::default());
    let got = record(None, &config, b"{}", &accepted);
    assert_eq!(got, Recording::NotRejected);
}

#[test]
fn recording_writes_into_the_common_dir_and_prunes() {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let text = "[review]\nkeep = 2\nmax_age_days = 0\n";
    let config = crate::config::Config::from_toml(text, "x.toml".as_ref()).unwrap();
    for _ in 0..4 {
        let got = record(Some(&repo), &config, b"not json", &report());
        assert!(matches!(got, Recording::Recorded { .. }), "{got:?}");
    }
    let listing = Store::for_repo(&repo).list().unwrap();
    assert_eq!(listing.entries.len(), 2);
    let e = &listing.entries[0];
    assert_eq!(
        (e.base.as_deref(), e.step_description(), e.result.as_str()),
        (None, Some("x"), "not json")
    );
    assert!(Store::for_repo(&repo).dir().starts_with(repo.commondir()));
}

#[test]
fn a_bad_review_policy_fails_the_recording_not_the_caller() {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let config =
        crate::config::Config::from_toml("[review]\nkept = 1\n", "x.toml".as_ref()).unwrap();
    let got = record(Some(&repo), &config, b"{}", &report());
    assert!(matches!(got, Recording::Failed(_)), "{got:?}");
    assert!(Store::for_repo(&repo).list().unwrap().entries.is_empty());
}

#[test]
fn overrides_must_name_every_remaining_rule() {
    let scope = Violation::new(
        RuleId::Scope,
        crate::finding::Code::from_name("outside_allowed_files"),
        "x",
    );
    let undeclared = Violation::new(
        RuleId::Undeclared,
        crate::finding::Code::from_name("file_not_declared"),
        "y",
    );
    let report =
        Report::from_violations(vec![scope, undeclared], Vec::new(), &Acceptance::default());
    let partial = decide_override(&report, &[RuleId::Scope]);
    assert!(!partial.is_allowed());
    assert_eq!(partial.uncovered().map(|v| v.rule).collect::<Vec<_>>(), [RuleId::Undeclared]);
    let full = decide_override(&report, &[RuleId::Undeclared, RuleId::Scope, RuleId::Mode]);
    assert!(full.is_allowed());
    assert_eq!(full.unused, [RuleId::Mode]);
    let clean = Report::from_violations(Vec::new(), Vec::new(), &Acceptance::default());
    assert!(decide_override(&clean, &[]).is_allowed());
}

#[test]
fn concurrent_writers_and_pruners_never_fail_and_stay_bounded() {
    let (_dir, store) = store();
    let policy =
        ReviewPolicy { keep: 5, max_age_days: 0, max_entries: 100, ..ReviewPolicy::default() };
    std::thread::scope(|scope| {
        for t in 0..6 {
            let store = &store;
            scope.spawn(move || {
                for n in 0..10 {
                    let entry = Entry::new(new_entry(&format!("t{t}-{n}")), SystemTime::now());
                    store.write(&entry).unwrap();
                    store.prune(&policy, SystemTime::now()).unwrap();
                }
            });
        }
    });
    let listing = store.list().unwrap();
    assert!(listing.skipped.is_empty(), "{:?}", listing.skipped);
    assert_eq!(listing.entries.len(), 5);
}

#[test]
fn the_byte_budget_keeps_the_newest_stretch() {
    use super::over_budget;
    // newest first; 10 + 20 fit in 35, the 30 does not, and nothing older stays after it.
    assert_eq!(over_budget(&[10, 20, 30, 1], &[], 35), vec![2, 3]);
    // Entries already pruned by count or age take no room.
    assert_eq!(over_budget(&[10, 100, 20, 1], &[1], 35), Vec::<usize>::new());
    // A newest entry over the whole budget goes too (record refuses to write one).
    assert_eq!(over_budget(&[50, 1], &[], 35), vec![0, 1]);
    assert!(over_budget(&[], &[], 0).is_empty());
}
