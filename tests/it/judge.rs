//! The built-in judge through the real binary against a scripted model server on 127.0.0.1
//! (`model_server.rs`): both APIs end to end, the answer contract (prose before one final JSON
//! block is read; prose without one, two blocks or text after it is a failure), error statuses
//! and the one retry, a slow server and the timeout, the cache, and when the judge is asked.

use crate::model_server::{Api, ModelServer, Step, prompt_tokens};
use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

const NET: &str = "pub fn fetch(url: &str) -> Result<String, Error> {
    let mut tries = 0;
    loop {
        match get(url) {
            Ok(body) => return Ok(body),
            Err(_) if tries < 3 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}
";

/// A helper added, the inline loop left in place: the halfway extraction no rule can see.
const HELPER: &str = "
fn with_retries<T>(mut call: impl FnMut() -> Result<T, Error>) -> Result<T, Error> {
    let mut tries = 0;
    loop {
        match call() {
            Ok(value) => return Ok(value),
            Err(_) if tries < 3 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}
";

fn halfway() -> String {
    format!("{NET}{HELPER}")
}

const EXTRACT: &str = "Extract the retry loop of fetch in src/net.rs into a helper function";

/// A repository holding `src/net.rs`, a step and a result whose patch turns it into `after`,
/// written outside the repository.
struct Case {
    repo: TestRepo,
    files: tempfile::TempDir,
}

impl Case {
    fn new(description: &str, after: &str) -> Self {
        let repo = TestRepo::new();
        repo.commit(&[("src/net.rs", NET)], "base");
        repo.write("src/net.rs", after);
        let patch = repo.git(&["diff"]);
        repo.git(&["checkout", "--", "src/net.rs"]);
        let files = tempfile::tempdir().expect("tempdir");
        let case = Self { repo, files };
        case.write_step(description);
        case.write_result(&patch);
        case
    }

    fn write_step(&self, description: &str) {
        let step = json!({"description": description, "mode": "apply", "allowedFiles": ["src/**"]});
        std::fs::write(self.path("step.json"), step.to_string()).expect("write step");
    }

    fn write_result(&self, patch: &str) {
        let result = json!({
            "mode": "apply", "success": true, "patch": patch,
            "filesWritten": ["src/net.rs"], "filesTouched": ["src/net.rs"],
            "summary": "Extracted the retry loop into with_retries.",
        });
        std::fs::write(self.path("result.json"), result.to_string()).expect("write result");
    }

    fn path(&self, name: &str) -> PathBuf {
        self.files.path().join(name)
    }

    /// `patchgate validate` in the repository, pointed at `server`, with `extra` arguments.
    fn validate(&self, server: &ModelServer, extra: &[&str]) -> Output {
        self.command(Some(server), extra).output().expect("run patchgate")
    }

    fn command(&self, server: Option<&ModelServer>, extra: &[&str]) -> Command {
        let mut cmd = self.repo.patchgate();
        for var in [
            "OPENAI_BASE_URL",
            "OPENAI_API_KEY",
            "ANTHROPIC_BASE_URL",
            "ANTHROPIC_API_KEY",
            "HTTP_PROXY",
            "HTTPS_PROXY",
            "ALL_PROXY",
            "http_proxy",
            "https_proxy",
            "all_proxy",
        ] {
            cmd.env_remove(var);
        }
        if let Some(server) = server {
            let (url, key) = match server.api {
                Api::OpenAi => ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
                Api::Anthropic => ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
            };
            cmd.env(url, server.base_url()).env(key, "sk-test-key");
        }
        let (step, result, report) =
            (self.path("step.json"), self.path("result.json"), self.path("report.json"));
        cmd.arg("validate")
            .arg("--step")
            .arg(step)
            .arg("--result")
            .arg(result)
            .arg("--report")
            .arg(report)
            .arg("--no-record")
            .args(extra);
        cmd
    }

    fn report(&self) -> Value {
        let text =
            std::fs::read_to_string(self.path("report.json")).expect("the report was written");
        serde_json::from_str(&text).expect("the report is JSON")
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A failure: exit 3, nothing on stdout, one line on stderr; that line.
fn failure(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(code(out), 3, "exit 3 expected; stderr: {err}");
    assert!(
        out.stdout.is_empty(),
        "no verdict on a judge failure: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn openai_compatible_server_end_to_end() {
    let answer = r#"{"valid": true, "reason": "fetch now calls with_retries"}"#;
    let server = ModelServer::start(Api::OpenAi, vec![Step::Text(answer)]);
    let case = Case::new(EXTRACT, &halfway());
    let out = case.validate(&server, &["--judge-model", "openai:qwen2.5-coder:7b"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["valid"], true);

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.header("authorization"), Some("Bearer sk-test-key"));
    assert_eq!(request.body["model"], "qwen2.5-coder:7b");
    assert_eq!(request.body["stream"], false);
    assert_eq!(request.body["temperature"], 0.0);
    assert_eq!(request.body["messages"][0]["role"], "system");
    let user = request.user_text();
    for part in [
        EXTRACT,
        "+fn with_retries<T>",
        "Extracted the retry loop",
        "### src/net.rs (lines 1-10 of 10)",
        " 1 | pub fn fetch(url: &str)",
    ] {
        assert!(user.contains(part), "the question holds {part:?}:\n{user}");
    }

    let report = case.report();
    let tokens = u64::try_from(prompt_tokens(request)).expect("small");
    assert_eq!(
        report["judge"],
        json!({"model": "openai:qwen2.5-coder:7b", "valid": true, "reason": "fetch now calls with_retries",
               "input_tokens": tokens, "output_tokens": 7, "cached": false})
    );
}

#[test]
fn anthropic_messages_end_to_end_and_a_rejection_on_one_line() {
    let answer = "```json\n{\"valid\": false, \"reason\": \"with_retries is added, but fetch\\n still runs its own inline loop\"}\n```";
    let server = ModelServer::start(Api::Anthropic, vec![Step::Text(answer)]);
    let case = Case::new(EXTRACT, &halfway());
    let out = case.validate(&server, &["--judge-model", "anthropic:claude-haiku-4-5"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        json(&out),
        json!({"valid": false, "reason": "not-implemented: the judge says: with_retries is added, but fetch still runs its own inline loop"})
    );
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some("sk-test-key"));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert!(request.header("authorization").is_none());
    assert!(request.body["system"].as_str().is_some_and(|s| s.contains("\"valid\": false")));
    assert_eq!(request.body["max_tokens"], 1024);

    let report = case.report();
    assert_eq!(report["violations"][0]["code"], "judge_rejected");
    assert_eq!(report["judge"]["model"], "anthropic:claude-haiku-4-5");
    assert_eq!(report["judge"]["valid"], false);
    assert!(report["judge"]["input_tokens"].as_u64().is_some_and(|n| n > 100));
}

#[test]
fn answers_are_cached_under_the_git_directory() {
    let server = ModelServer::start(
        Api::OpenAi,
        vec![Step::Text(r#"{"valid": false, "reason": "halfway"}"#)],
    );
    let case = Case::new(EXTRACT, &halfway());
    let args = ["--judge-model", "openai:m"];
    let first = case.validate(&server, &args);
    assert_eq!(code(&first), 1);
    assert_eq!(case.report()["judge"]["cached"], false);
    let cache = case.repo.path().join(".git/patchgate/judge");
    assert_eq!(std::fs::read_dir(&cache).expect("cache dir").count(), 1);

    let second = case.validate(&server, &args);
    assert_eq!(code(&second), 1);
    assert_eq!(json(&second), json(&first));
    assert_eq!(server.requests().len(), 1, "the second run asks nobody");
    let report = case.report();
    assert_eq!(report["judge"]["cached"], true);
    let tokens = report["judge"]["input_tokens"].as_u64().expect("the first call's cost");
    assert_eq!(report["judge"]["output_tokens"], 4, "the server's count of the answer's words");
    let text = case.validate(&server, &["--judge-model", "openai:m", "--format", "text"]);
    let expected =
        format!("judge: openai:m rejected (cached, no call; it cost {tokens} tokens in, 4 out)");
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.lines().any(|l| l == expected), "{expected} in:\n{stdout}");

    let other_model = case.validate(&server, &["--judge-model", "openai:m2"]);
    assert_eq!(code(&other_model), 1);
    assert_eq!(server.requests().len(), 2, "another model is another question");
    case.write_step(&format!("{EXTRACT}, and call it from fetch"));
    assert_eq!(code(&case.validate(&server, &args)), 1);
    assert_eq!(server.requests().len(), 3, "another step is another question");

    std::fs::write(case.repo.path().join(".patchgate.toml"), "[judge]\ncache = false\n")
        .expect("policy");
    case.repo.git(&["add", ".patchgate.toml"]);
    case.repo.git(&["commit", "-q", "-m", "policy"]);
    assert_eq!(code(&case.validate(&server, &args)), 1);
    assert_eq!(server.requests().len(), 4, "cache = false asks every time");
}

#[test]
fn prose_before_one_final_block_is_read_as_the_verdict() {
    let reply = "The helper is added, but fetch still runs its own loop.\n\n```json\n{\"valid\": false, \"reason\": \"fetch still runs its own loop\"}\n```\n";
    for api in [Api::OpenAi, Api::Anthropic] {
        let server = ModelServer::start(api, vec![Step::Text(reply)]);
        let case = Case::new(EXTRACT, &halfway());
        let model = if api == Api::OpenAi { "openai:m" } else { "anthropic:m" };
        let out = case.validate(&server, &["--judge-model", model]);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(
            json(&out)["reason"],
            "not-implemented: the judge says: fetch still runs its own loop"
        );
    }
}

#[test]
fn prose_without_one_final_block_is_a_failure_never_a_verdict() {
    let replies = [
        (
            "Sure! Here is my review:\n```json\n{\"valid\": true, \"reason\": \"looks fine\"}\n```\nLet me know if you need more.",
            "text after",
        ),
        ("The patch looks fine to me: valid.", "no ```json block"),
        (
            "First:\n```json\n{\"valid\": true}\n```\nOn second thought:\n```json\n{\"valid\": false, \"reason\": \"no\"}\n```",
            "2 JSON blocks",
        ),
    ];
    for api in [Api::OpenAi, Api::Anthropic] {
        for (reply, problem) in replies {
            let server = ModelServer::start(api, vec![Step::Text(reply)]);
            let case = Case::new(EXTRACT, &halfway());
            let model = if api == Api::OpenAi { "openai:m" } else { "anthropic:m" };
            let out = case.validate(&server, &["--judge-model", model]);
            let err = failure(&out);
            assert!(err.contains("not one JSON object") && err.contains(problem), "{err}");
            let again = case.validate(&server, &["--judge-model", model]);
            failure(&again);
            assert_eq!(server.requests().len(), 2, "an unreadable answer is not cached");
        }
    }
}

#[test]
fn error_statuses_fail_and_transient_ones_are_tried_once_more() {
    let case = Case::new(EXTRACT, &halfway());
    let args = ["--judge-model", "openai:m"];

    let unauthorized =
        ModelServer::start(Api::OpenAi, vec![Step::Error(401, "Incorrect API key provided")]);
    let err = failure(&case.validate(&unauthorized, &args));
    assert!(err.contains("HTTP 401: Incorrect API key provided; check OPENAI_API_KEY"), "{err}");
    assert_eq!(unauthorized.requests().len(), 1, "a 401 is not retried");

    let ok = r#"{"valid": true, "reason": "done"}"#;
    let flaky = ModelServer::start(Api::OpenAi, vec![Step::Error(503, "busy"), Step::Text(ok)]);
    let out = case.validate(&flaky, &args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(flaky.requests().len(), 2, "one retry after a 503");

    let overloaded = ModelServer::start(Api::Anthropic, vec![Step::Error(529, "Overloaded")]);
    let err = failure(&case.validate(&overloaded, &["--judge-model", "anthropic:m"]));
    assert!(err.contains("HTTP 529 (tried twice): Overloaded"), "{err}");
    assert_eq!(overloaded.requests().len(), 2, "exactly one retry");
}

#[test]
fn a_slow_server_times_out_and_is_tried_once_more() {
    let case = Case::new(EXTRACT, &halfway());
    let ok = r#"{"valid": true, "reason": "done"}"#;
    let args = ["--judge-model", "openai:m", "--judge-timeout", "1"];

    let slow_once = ModelServer::start(
        Api::OpenAi,
        vec![Step::Slow(Duration::from_secs(4), ok), Step::Text(ok)],
    );
    let out = case.validate(&slow_once, &args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(slow_once.requests().len(), 2);

    let slow = ModelServer::start(Api::OpenAi, vec![Step::Slow(Duration::from_secs(4), ok)]);
    let case = Case::new(EXTRACT, &halfway()); // nothing cached
    let err = failure(&case.validate(&slow, &args));
    assert!(err.contains("within 1 s (tried twice)"), "{err}");
}

#[test]
fn no_server_or_no_key_is_a_failure() {
    let case = Case::new(EXTRACT, &halfway());
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let mut cmd = case.command(None, &["--judge-model", "openai:m"]);
    cmd.env("OPENAI_BASE_URL", format!("http://127.0.0.1:{closed}/v1"));
    let err = failure(&cmd.output().expect("run"));
    assert!(err.contains("cannot reach") && err.contains("(tried twice)"), "{err}");

    let no_key = case.command(None, &["--judge-model", "anthropic:m"]).output().expect("run");
    let err = failure(&no_key);
    assert!(err.contains("ANTHROPIC_API_KEY is not set"), "{err}");
}

#[test]
fn uncertain_asks_only_where_the_rules_cannot_settle_the_step() {
    let ok = r#"{"valid": true, "reason": "done"}"#;
    let server = ModelServer::start(Api::OpenAi, vec![Step::Text(ok)]);
    let renamed = NET.replace("fetch", "fetch_body");
    let case = Case::new("Rename fetch to fetch_body in src/net.rs", &renamed);
    let out = case.validate(&server, &["--judge-model", "openai:m"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(server.requests().len(), 0, "a verified, complete rename settles the step");
    assert!(case.report().get("judge").is_none());
    let always = case.validate(&server, &["--judge-model", "openai:m", "--judge-when", "always"]);
    assert_eq!(code(&always), 0, "{}", stderr(&always));
    assert_eq!(server.requests().len(), 1, "--judge-when always asks anyway");

    // A rename that leaves a use of the old name: the rules note it, the judge is asked.
    let half = NET.replacen("fetch", "fetch_body", 1) + "// see fetch\n";
    let case = Case::new("Rename fetch to fetch_body in src/net.rs", &half);
    assert_eq!(code(&case.validate(&server, &["--judge-model", "openai:m"])), 0);
    assert_eq!(server.requests().len(), 2);
    let user = server.requests()[1].user_text();
    assert!(user.contains("rename_partial: not-implemented: possible partial rename: 'fetch' still appears in src/net.rs (1 line)"), "{user}");

    // [judge] from the policy: the model, and when = "always".
    let case = Case::new("Rename fetch to fetch_body in src/net.rs", &renamed);
    let policy = "[judge]\nmodel = \"openai:from-policy\"\nwhen = \"always\"\n";
    case.repo.commit(&[(".patchgate.toml", policy)], "policy");
    let out = case.validate(&server, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(server.requests().len(), 3);
    assert_eq!(server.requests()[2].body["model"], "from-policy");
}

#[test]
fn a_rule_rejection_is_never_sent_to_the_judge() {
    let server = ModelServer::start(Api::OpenAi, vec![Step::Text(r#"{"valid": true}"#)]);
    let case = Case::new(EXTRACT, &halfway());
    case.write_result("not a patch");
    let out = case.validate(&server, &["--judge-model", "openai:m", "--judge-timeout", "5"]);
    assert_eq!(code(&out), 1);
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn the_judge_flags_are_checked_before_anything_runs() {
    let case = Case::new(EXTRACT, &halfway());
    let bad = case.command(None, &["--judge-model", "gpt-4o"]).output().expect("run");
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
    assert!(stderr(&bad).contains("PROVIDER:MODEL"));
    let both = case
        .command(None, &["--judge-model", "openai:m", "--judge", "true"])
        .output()
        .expect("run");
    assert_eq!(code(&both), 2, "{}", stderr(&both));
    case.repo.commit(&[(".patchgate.toml", "[judge]\nmodel = \"gpt-4o\"\n")], "policy");
    let policy = case.command(None, &[]).output().expect("run");
    assert_eq!(code(&policy), 2, "{}", stderr(&policy));
    assert!(stderr(&policy).contains("[judge] model"), "{}", stderr(&policy));
}
