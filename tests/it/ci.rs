//! `patchgate ci` as CI runs it: the GitHub Actions and GitLab CI check scripts of
//! `docs/commands/ci.md`, run as written in a fresh clone of a bare remote that an agent pushed
//! branches to with real `git push` (no server hook runs there, as on a hosted remote).

use crate::support::{TestRepo, code, data, patchgate};
use std::path::Path;
use std::process::{Command, Output};

const STRICT: &str = "excluded = [\"secrets/**\"]\n";
const LAX: &str = "excluded = []\n";

/// The check script of the workflow in `docs/commands/ci.md` whose first line is `file`: the
/// block after the `marker` line, as indented under it.
fn documented_script(file: &str, marker: &str) -> String {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands/ci.md"))
            .expect("docs/commands/ci.md");
    let block = page.split("```yaml\n").find(|b| b.starts_with(file)).expect("the workflow");
    let lines: Vec<&str> = block.lines().collect();
    let at = lines.iter().position(|l| l.trim_end().ends_with(marker)).expect("the check step");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let outer = indent(lines[at]);
    let body: Vec<&str> = lines[at + 1..]
        .iter()
        .copied()
        .take_while(|l| l.trim().is_empty() || indent(l) > outer)
        .collect();
    let inner =
        body.iter().filter(|l| !l.trim().is_empty()).map(|l| indent(l)).min().expect("a script");
    body.iter().map(|l| l.get(inner..).unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// A bare remote, an admin's clone that pushed `main`, and the remote's path.
struct Hosted {
    remote: tempfile::TempDir,
    admin: TestRepo,
}

impl Hosted {
    fn new(history: &[(&str, &str)]) -> Self {
        let remote = tempfile::tempdir().expect("remote");
        let init = Command::new("git")
            .args(["init", "-q", "--bare", "-b", "main"])
            .arg(remote.path())
            .output();
        assert!(init.expect("git init").status.success());
        let admin = TestRepo::new();
        admin.git(&["remote", "add", "origin", remote.path().to_str().expect("utf-8")]);
        for (policy, message) in history {
            admin.commit(&[(".patchgate.toml", policy), ("src/a.rs", message)], message);
        }
        admin.git(&["push", "-q", "origin", "main"]);
        Self { remote, admin }
    }

    /// An agent's clone that pushes `branch` with `commits` (files, message) on top of main.
    fn agent_pushes(&self, branch: &str, commits: &[(&[(&str, &str)], &str)]) -> String {
        let agent = TestRepo::new();
        agent.git(&["fetch", "-q", self.remote.path().to_str().expect("utf-8"), "main"]);
        agent.git(&["checkout", "-q", "-b", branch, "FETCH_HEAD"]);
        for (files, message) in commits {
            agent.commit(files, message);
        }
        agent.git(&[
            "push",
            "-q",
            self.remote.path().to_str().expect("utf-8"),
            &format!("HEAD:refs/heads/{branch}"),
        ]);
        agent.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }

    /// A fresh full clone, as the CI runner checks it out.
    fn ci_clone(&self) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("ci");
        let out = Command::new("git")
            .args(["clone", "-q"])
            .arg(self.remote.path())
            .arg(dir.path().join("w"))
            .output();
        assert!(out.expect("clone").status.success());
        dir
    }
}

/// Run a documented script in `dir` with `env`, patchgate on `PATH`.
fn run_script(dir: &Path, script: &str, env: &[(&str, &str)]) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_patchgate")).parent().expect("bin dir");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the script")
}

fn github_pr(dir: &Path, head: &str) -> Output {
    let script = documented_script("# .github/workflows/patchgate.yml", "run: |");
    run_script(dir, &script, &[("TARGET", "main"), ("HEAD_SHA", head), ("BEFORE", "")])
}

fn gitlab_mr(dir: &Path, head: &str) -> Output {
    let script = documented_script("# .gitlab-ci.yml", "- |");
    run_script(
        dir,
        &script,
        &[("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main"), ("CI_COMMIT_SHA", head)],
    )
}

#[test]
fn the_documented_checks_fail_an_excluded_file_and_pass_a_declared_change() {
    let hosted = Hosted::new(&[(STRICT, "a\n")]);
    let secret = hosted.agent_pushes(
        "key",
        &[(&[("secrets/key.pem", "k\n")], "key\n\nPatchgate-Declared: secrets/key.pem")],
    );
    let good = hosted
        .agent_pushes("good", &[(&[("src/a.rs", "b\n")], "edit\n\nPatchgate-Declared: src/a.rs")]);
    let ci = hosted.ci_clone();
    let work = ci.path().join("w");
    for (name, check) in [("github", github_pr as fn(&Path, &str) -> Output), ("gitlab", gitlab_mr)]
    {
        let out = check(&work, &secret);
        assert_eq!(code(&out), 1, "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("secrets/key.pem") && stderr.contains("excluded"),
            "{name}: {stderr}"
        );
        let out = check(&work, &good);
        assert_eq!(code(&out), 0, "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_branch_that_relaxes_the_policy_is_judged_under_the_target_s() {
    let hosted = Hosted::new(&[(STRICT, "a\n")]);
    let head = hosted.agent_pushes(
        "relax",
        &[
            (&[(".patchgate.toml", LAX)], "relax\n\nPatchgate-Declared: .patchgate.toml"),
            (&[("secrets/key.pem", "k\n")], "key\n\nPatchgate-Declared: secrets/key.pem"),
        ],
    );
    let ci = hosted.ci_clone();
    let work = ci.path().join("w");
    assert_eq!(code(&github_pr(&work, &head)), 1);
    let out = patchgate()
        .current_dir(&work)
        .args(["--format", "json", "ci", &format!("origin/main...{head}")])
        .output()
        .expect("run");
    assert_eq!(code(&out), 1);
    let report = data(&out);
    assert_eq!(report["hook"], "ci");
    assert_eq!(report["policy"], "origin/main:.patchgate.toml");
    let reasons: Vec<Vec<String>> = report["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| {
            c["violations"]
                .as_array()
                .expect("v")
                .iter()
                .map(|v| v["reason"].as_str().expect("r").to_owned())
                .collect()
        })
        .collect();
    assert_eq!(reasons, [vec!["policy_change".to_owned()], vec!["excluded".to_owned()]]);
    // With `policy_change = "declared"` in the target's policy, the declared change passes, and
    // the secret is still judged under the target's policy.
    let hosted =
        Hosted::new(&[(&format!("{STRICT}[server]\npolicy_change = \"declared\"\n"), "a\n")]);
    let relax = hosted.agent_pushes(
        "relax",
        &[(&[(".patchgate.toml", LAX)], "relax\n\nPatchgate-Declared: .patchgate.toml")],
    );
    let ci = hosted.ci_clone();
    assert_eq!(code(&github_pr(&ci.path().join("w"), &relax)), 0);
}

#[test]
fn a_push_to_main_is_checked_and_a_force_push_to_a_laxer_policy_fails() {
    let hosted = Hosted::new(&[(LAX, "a\n"), (STRICT, "b\n")]);
    let strict = hosted.admin.git(&["rev-parse", "HEAD"]).trim().to_owned();
    let lax = hosted.admin.git(&["rev-parse", "HEAD~1"]).trim().to_owned();
    let script = documented_script("# .github/workflows/patchgate.yml", "run: |");
    // A push of a declared change to main: what it brought passes.
    hosted.admin.commit(&[("src/b.rs", "b\n")], "b\n\nPatchgate-Declared: src/b.rs");
    hosted.admin.git(&["push", "-q", "origin", "main"]);
    let pushed = hosted.admin.git(&["rev-parse", "HEAD"]).trim().to_owned();
    let ci = hosted.ci_clone();
    let out = run_script(
        &ci.path().join("w"),
        &script,
        &[("TARGET", ""), ("HEAD_SHA", &pushed), ("BEFORE", &strict)],
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    // A force push back to the lax commit brings no commit, and another policy.
    hosted.admin.git(&["push", "-q", "--force", "origin", &format!("{lax}:refs/heads/main")]);
    let ci = hosted.ci_clone();
    let out = run_script(
        &ci.path().join("w"),
        &script,
        &[("TARGET", ""), ("HEAD_SHA", &lax), ("BEFORE", &pushed)],
    );
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not descend"), "{out:?}");
}

#[test]
fn a_range_that_is_not_two_commits_is_refused_input() {
    let hosted = Hosted::new(&[(STRICT, "a\n")]);
    for range in ["main", "main..", "..main", "main..nosuchref"] {
        let out =
            patchgate().current_dir(hosted.admin.path()).args(["ci", range]).output().expect("run");
        assert_eq!(code(&out), 2, "{range}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
