use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

fn lines(input: &[u8], max: usize) -> Vec<(usize, usize, Option<String>)> {
    Lines::new(input, max)
        .map(|l| (l.number, l.len, l.bytes.map(|b| String::from_utf8(b).unwrap())))
        .collect()
}

#[test]
fn lines_skip_blanks_strip_line_ends_and_drop_what_is_too_long_without_losing_the_next() {
    let input = b"{\"a\":1}\r\n\n   \n0123456789abcdef\n{\"b\":2}";
    let got = lines(input, 10);
    assert_eq!(
        got,
        [(1, 9, Some("{\"a\":1}".to_owned())), (4, 17, None), (5, 7, Some("{\"b\":2}".to_owned())),]
    );
}

#[test]
fn a_read_error_ends_the_lines_and_is_kept() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk gone"))
        }
    }
    let mut lines = Lines::new(std::io::BufReader::new(Broken), 10);
    assert!(lines.next().is_none());
    assert_eq!(lines.error().unwrap().to_string(), "disk gone");
}

const STEP: &str = r#"{"description": "Change a"}"#;

#[test]
fn an_item_keeps_the_result_object_as_sent_and_reads_a_string_as_its_text() {
    let line = format!(r#"{{"id": 7, "step": {STEP}, "result": {{"patch": "a", "patch": "b"}}}}"#);
    let item = read_item(line.as_bytes()).unwrap();
    assert_eq!(item.id, ItemId::Number(7));
    assert_eq!(item.step.description, "Change a");
    // A key named twice stays so: the `schema` rule, not the batch reader, refuses it.
    assert_eq!(item.result, br#"{"patch": "a", "patch": "b"}"#);
    let line = format!(
        r#"{{"id": "x", "step": {STEP:?}, "result": "not json", "repo": "/r", "base": "v1"}}"#
    );
    let item = read_item(line.as_bytes()).unwrap();
    assert_eq!(item.result, b"not json");
    assert_eq!(item.repo.as_deref(), Some(std::path::Path::new("/r")));
    assert_eq!(item.base.as_deref(), Some("v1"));
}

#[test]
fn a_bad_line_is_an_error_with_its_code_and_the_id_when_there_is_one() {
    let code = |line: &str| read_item(line.as_bytes()).map(|_| ()).unwrap_err();
    assert_eq!(code("{\"id\": 1,").code.as_str(), "not_json");
    assert_eq!(code(r#"{"step": {}, "result": {}}"#).code.as_str(), "bad_item");
    assert_eq!(code(r#"{"id": {}, "step": {}, "result": {}}"#).code.as_str(), "bad_item");
    let typo = code(&format!(r#"{{"id": 1, "step": {STEP}, "result": {{}}, "bsae": "v1"}}"#));
    assert_eq!(typo.code.as_str(), "bad_item");
    assert!(typo.message.contains("bsae"), "{}", typo.message);
    let step = code(r#"{"id": "s", "step": {"description": ""}, "result": {}}"#);
    assert_eq!((step.code.as_str(), step.id), ("invalid_step", Some(ItemId::Text("s".into()))));
    let no_result = code(&format!(r#"{{"id": 2, "step": {STEP}}}"#));
    assert_eq!((no_result.code.as_str(), no_result.id), ("bad_item", Some(ItemId::Number(2))));
}

#[test]
fn answers_come_in_input_order_with_at_most_the_window_held() {
    let held = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    let items = (0..200_u64).inspect(|_| {
        let now = held.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
    });
    let parallel = Parallel::new(3);
    let mut answers = Vec::new();
    run_ordered(
        items,
        parallel,
        || (),
        |(), n| {
            // Earlier items take longer, so answers arrive out of order.
            std::thread::sleep(std::time::Duration::from_micros((200 - n) % 7 * 300));
            n * 2
        },
        |answer| {
            held.fetch_sub(1, Ordering::SeqCst);
            answers.push(answer);
        },
    );
    assert_eq!(answers, (0..200).map(|n| n * 2).collect::<Vec<_>>());
    let most = most.load(Ordering::SeqCst);
    assert!(most <= parallel.window, "{most} items held at once, window {}", parallel.window);
    assert!(most > 1, "the work ran one item at a time");
}

/// A repository with two commits; HEAD at the first.
fn repo_with_two_commits() -> (tempfile::TempDir, git2::Oid, git2::Oid) {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let me = git2::Signature::now("t", "t@example.org").unwrap();
    let commit = |text: &str, parents: &[&git2::Commit<'_>]| {
        std::fs::write(dir.path().join("a.txt"), text).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(std::path::Path::new("a.txt")).unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        repo.commit(None, &me, &me, text, &tree, parents).unwrap()
    };
    let first = commit("one\n", &[]);
    let second = commit("two\n", &[&repo.find_commit(first).unwrap()]);
    repo.reference("refs/heads/main", first, true, "").unwrap();
    repo.set_head("refs/heads/main").unwrap();
    (dir, first, second)
}

#[test]
fn a_session_resolves_each_base_once_and_drops_the_least_recently_used() {
    let (dir, first, second) = repo_with_two_commits();
    let mut session = Session::new();
    let head = |session: &mut Session| {
        session.with_repo(dir.path(), |open| Ok(open.base("HEAD").unwrap().commit)).unwrap()
    };
    assert_eq!(head(&mut session), Some(first));
    // HEAD moves; the session keeps the tree it resolved (one snapshot per run).
    let repo = git2::Repository::open(dir.path()).unwrap();
    repo.reference("refs/heads/main", second, true, "").unwrap();
    assert_eq!(head(&mut session), Some(first));
    // Enough other revisions push HEAD's tree out: it is resolved again, anew.
    session
        .with_repo(dir.path(), |open| {
            for rev in ["main~1", "main^{commit}", &first.to_string(), &second.to_string()] {
                open.base(rev).unwrap();
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(head(&mut session), Some(second));
}

#[test]
fn a_session_answers_a_directory_without_a_repository_as_the_line_s_error() {
    let none = tempfile::tempdir().unwrap();
    let mut session = Session::new();
    let err = session.with_repo(none.path(), |_| Ok(())).unwrap_err();
    assert_eq!((err.code.as_str(), err.is_input_refused), ("repository", true));
}

#[test]
fn a_session_reads_each_revision_s_policy_once_and_a_refused_one_again() {
    let (dir, ..) = repo_with_two_commits();
    let mut session = Session::new();
    let reads = std::cell::Cell::new(0);
    let read = |ok: bool| {
        reads.set(reads.get() + 1);
        if ok { Ok(crate::config::Config::default()) } else { Err("refused") }
    };
    session
        .with_repo(dir.path(), |open| {
            assert_eq!(open.policy("main", || read(false)).unwrap_err(), "refused");
            assert_eq!(open.policy("main", || read(false)).unwrap_err(), "refused");
            assert_eq!(reads.get(), 2, "a refused policy is read again");
            open.policy("main", || read(true)).unwrap();
            open.policy("main", || read(true)).unwrap();
            open.policy("main~1", || read(true)).unwrap();
            assert_eq!(reads.get(), 4, "a policy read is kept per revision");
            Ok(())
        })
        .unwrap();
}
