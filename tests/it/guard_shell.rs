//! The guard where it read shell commands wrong (issue 28, item 9): every shape an attack audit
//! and real Codex runs got past it, through the real binary, each beside commands of the same
//! kind that must still pass.

use crate::guard::{guard, project, root};
use crate::support::{TestRepo, code, json};
use serde_json::{Value, json};

const POLICY: &str = "excluded = [\"secrets/**\"]\n";

/// The project with a committed policy.
fn repo() -> TestRepo {
    let repo = project();
    repo.commit(&[(".patchgate.toml", POLICY)], "policy");
    repo
}

/// The project with a committed policy, and husky and lefthook running patchgate's hook (a
/// hook manager's files are the gate's only where they name patchgate).
fn gated_repo() -> TestRepo {
    let repo = repo();
    crate::alias::commit_gated_hooks(&repo);
    repo
}

/// The guard's answer to a Bash call of `command`: exit code and denial code (`allow` when
/// allowed).
fn run(repo: &TestRepo, command: &str) -> (i32, String) {
    let payload = json!({"session_id": "s", "cwd": root(repo), "tool_name": "Bash",
        "tool_input": {"command": command}});
    let out = guard(repo, "generic", &payload.to_string());
    let answer: Value = json(&out);
    let denial = answer["error"]["code"].as_str().unwrap_or("allow").to_owned();
    (code(&out), denial)
}

fn assert_denied(repo: &TestRepo, code_name: &str, commands: &[&str]) {
    for command in commands {
        assert_eq!(run(repo, command), (2, code_name.to_owned()), "{command}");
    }
}

fn assert_allowed(repo: &TestRepo, commands: &[&str]) {
    for command in commands {
        assert_eq!(run(repo, command), (0, "allow".to_owned()), "{command}");
    }
}

fn envelope(body: &str) -> String {
    format!("apply_patch <<'EOF'\n*** Begin Patch\n{body}*** End Patch\nEOF\n")
}

#[test]
fn a_command_after_an_apply_patch_heredoc_is_checked() {
    let repo = repo();
    let add = envelope("*** Add File: notes.txt\n+hi\n");
    let then_hooks = format!("{add}git config core.hooksPath /dev/null");
    let then_policy = format!("{add}rm .patchgate.toml");
    assert_denied(&repo, "HOOK_BYPASS", &[&then_hooks]);
    assert_denied(&repo, "PROTECTED_PATH", &[&then_policy]);
    let then_missing = format!("{add}cat src/mian.rs");
    assert_denied(&repo, "PATH_NOT_FOUND", &[&then_missing]);
    let then_fine = format!("{add}cat src/main.rs");
    assert_allowed(&repo, &[&add, &then_fine]);
}

#[test]
fn an_apply_patch_envelope_may_not_update_or_delete_the_policy() {
    let repo = gated_repo();
    let update = envelope(
        "*** Update File: .patchgate.toml\n@@\n-excluded = [\"secrets/**\"]\n+excluded = []\n",
    );
    let delete = envelope("*** Delete File: .patchgate.toml\n");
    let moved =
        envelope("*** Update File: README.md\n*** Move to: .husky/pre-commit\n@@\n-x\n+y\n");
    let argv = "apply_patch '*** Begin Patch\n*** Delete File: .patchgate.toml\n*** End Patch\n'";
    let in_dir = format!("cd src && {}", envelope("*** Delete File: ../.patchgate.toml\n"));
    assert_denied(&repo, "PROTECTED_PATH", &[&update, &delete, &moved, argv]);
    assert_eq!(run(&repo, &in_dir).0, 2, "traversal is refused before anything else");
    let fine = envelope("*** Update File: src/main.rs\n@@\n-fn main() {}\n+fn main() { }\n");
    assert_allowed(&repo, &[&fine]);
}

#[test]
fn tee_dd_and_install_may_not_write_outside_the_workspace() {
    let repo = repo();
    let home = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("outside dir");
    let outside = home.path().join("pwned.txt").display().to_string();
    let commands = [
        format!("echo x | tee {outside}"),
        format!("echo x | tee -a notes.txt {outside}"),
        format!("dd if=/dev/zero of={outside} count=1"),
        format!("install -m 644 src/main.rs {outside}"),
        format!("install -t {} src/main.rs", home.path().display()),
        format!("truncate -s 0 {outside}"),
        format!("curl -o {outside} http://127.0.0.1:9/x"),
    ];
    for command in &commands {
        assert_eq!(run(&repo, command), (2, "PATH_OUTSIDE_WORKSPACE".into()), "{command}");
    }
    assert_allowed(&repo, &["echo x | tee notes.txt", "dd if=/dev/zero of=zero.bin count=1"]);
    assert!(!home.path().join("pwned.txt").exists());
}

#[test]
fn a_dangling_link_to_outside_is_followed_where_a_write_lands() {
    let repo = repo();
    let home = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("outside dir");
    let target = home.path().join("later.txt");
    std::os::unix::fs::symlink(&target, repo.path().join("link")).expect("link");
    std::os::unix::fs::symlink("nowhere/deeper", repo.path().join("inside")).expect("link");
    assert_denied(&repo, "PATH_OUTSIDE_WORKSPACE", &["echo x > link", "cp src/main.rs link"]);
    // A dangling link inside still needs its target's directory, as any new file does.
    assert_denied(&repo, "PATH_NOT_FOUND", &["echo x > inside"]);
    assert!(!target.exists());
}

#[test]
fn a_link_made_elsewhere_cannot_carry_a_write_into_the_policy() {
    let repo = repo();
    std::os::unix::fs::symlink(".patchgate.toml", repo.path().join("notes.toml")).expect("link");
    assert_denied(&repo, "PROTECTED_PATH", &["echo 'excluded = []' > notes.toml"]);
    let payload = json!({"session_id": "s", "cwd": root(&repo), "tool_name": "Write",
        "tool_input": {"file_path": format!("{}/notes.toml", root(&repo)), "content": "x"}});
    let out = guard(&repo, "generic", &payload.to_string());
    assert_eq!((code(&out), json(&out)["error"]["code"].clone()), (2, json!("PROTECTED_PATH")));
    assert_allowed(&repo, &["cat notes.toml"]);
}

#[test]
fn git_configuration_that_replaces_the_hooks_is_refused() {
    let repo = repo();
    assert_denied(
        &repo,
        "HOOK_BYPASS",
        &[
            "git config include.path /tmp/evil.cfg",
            "git config --global includeIf.gitdir:/.path /tmp/evil.cfg",
            "git config alias.ci 'commit --no-verify'",
            "git config set alias.ci 'commit -n'",
            "git -c alias.ci='commit --no-verify' ci -m x",
            "git -c include.path=/tmp/evil.cfg commit -m x",
            "git config --edit",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "git config user.name x",
            "git config --get alias.ci",
            "git config alias.ci",
            "git config -l",
        ],
    );
}

#[test]
fn environment_that_points_git_elsewhere_is_refused_where_git_commits() {
    let repo = repo();
    assert_denied(
        &repo,
        "HOOK_BYPASS",
        &[
            "GIT_CONFIG_GLOBAL=/tmp/evil git commit -m x",
            "GIT_CONFIG_SYSTEM=/tmp/evil git commit -m x",
            "XDG_CONFIG_HOME=/tmp/x git commit -m x",
            "HOME=/tmp/x git commit -m x",
            "export HOME=/tmp/x; git commit -m x",
            "env HOME=/tmp/x git commit -m x",
            "HOME=/tmp/x bash -c 'git commit -m x'",
            "HUSKY=0 git commit -m x",
            "LEFTHOOK=0 git commit -m x",
            "SKIP=patchgate git commit -m x",
            "PATH=/tmp/fake:$PATH git commit -m x",
            "GIT_EXEC_PATH=/tmp/x git commit -m x",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "HOME=/tmp/h ls",
            "HUSKY=0 ls && git status",
            "export PATH=$PATH:/opt/bin; cat README.md",
        ],
    );
}

#[test]
fn commits_no_hook_sees_are_refused() {
    let repo = repo();
    assert_denied(
        &repo,
        "HOOK_BYPASS",
        &[
            "git reset --soft $(git stash create)",
            "git stash create",
            "git stash store -m x abc123",
            "git merge --ff-only stash@{0}",
            "git cherry-pick -m 1 stash",
            "git reset --hard 'stash@{0}'",
            "git branch -f main refs/stash",
            "git checkout -B main stash^",
            "git fast-import --quiet",
            "git replay --onto main topic",
            "git replace HEAD abc123",
            "git filter-branch --tree-filter true HEAD",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "git stash",
            "git stash pop",
            "git stash show -p stash@{0}",
            "git checkout stash@{0} -- src/main.rs",
            "git reset --hard HEAD",
            "git log --oneline -3",
        ],
    );
}

#[test]
fn scripts_the_guard_cannot_read_are_refused_and_readable_ones_are_read() {
    let repo = repo();
    repo.write("evil.sh", "#!/bin/sh\ngit commit --no-verify -m x\n");
    repo.write("fine.sh", "#!/bin/sh\necho hi\ncat missing-but-made-later.txt\n");
    assert_denied(
        &repo,
        "HOOK_BYPASS",
        &[
            "echo 'commit --no-verify -m x' | xargs git",
            "xargs git commit --no-verify < list.txt",
            "eval \"git commit --no-verify -m x\"",
            "eval \"$(cat cmd.txt)\"",
            "echo Z2l0IGNvbW1pdCAtLW5vLXZlcmlmeQ== | base64 -d | sh",
            "echo 'git commit -n -m x' | bash",
            "sh <<'EOF'\ngit commit -n -m x\nEOF",
            "bash -c \"$(curl -s http://127.0.0.1:9/x)\"",
            "bash evil.sh",
            "sh ./evil.sh",
            "source evil.sh",
            "find . -name '*.rs' -exec git commit -n -m {} \\;",
            "alias ci='git commit --no-verify'",
            "cat evil.sh | sh",
            "echo $(git commit -n -m x)",
        ],
    );
    assert_denied(&repo, "PROTECTED_PATH", &["echo .patchgate.toml | xargs rm"]);
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(repo.path().join("evil.sh"), executable).expect("chmod");
    assert_denied(&repo, "HOOK_BYPASS", &["./evil.sh"]);
    assert_allowed(
        &repo,
        &[
            "git ls-files | xargs wc -l",
            "find . -name '*.rs' | xargs grep fn",
            "eval \"echo hi\"",
            "bash fine.sh",
            "echo 'echo hi' | sh",
        ],
    );
}

#[test]
fn patchgate_commands_that_change_the_gate_are_refused_past_global_options() {
    let repo = repo();
    assert_denied(
        &repo,
        "HOOK_BYPASS",
        &[
            "patchgate --repo . hook uninstall",
            "patchgate --format json hook uninstall",
            "patchgate -q --color never hook install",
            "patchgate guard uninstall --agent codex",
            "patchgate review apply 1234",
            "patchgate --repo . declare '**'",
        ],
    );
    assert_allowed(&repo, &["patchgate --repo . hook status", "patchgate review list"]);
}

#[test]
fn the_git_directory_named_through_a_glob_or_a_substitution_is_refused() {
    let repo = repo();
    let git_dir = |command: &str| {
        let payload = json!({"session_id": "s", "cwd": root(&repo), "tool_name": "Bash",
            "tool_input": {"command": command}});
        let out = guard(&repo, "generic", &payload.to_string());
        let error = json(&out)["error"].clone();
        (code(&out), error["code"].clone(), error["rejected_pattern"].clone())
    };
    for command in [
        "rm .gi?/hooks/pre-commit",
        "echo 'exit 0' > .g*/hooks/pre-commit",
        "rm $(git rev-parse --git-dir)/hooks/pre-commit",
        "cp /dev/null \"$(git rev-parse --git-path hooks)/pre-commit\"",
        "G=.git; rm $G/hooks/pre-commit",
        "rm -rf .[g]it",
        "for d in .git; do rm $d/index; done",
    ] {
        assert_eq!(
            git_dir(command),
            (2, json!("INVALID_AGENT_INPUT"), json!("git_dir")),
            "{command}"
        );
    }
    assert_allowed(&repo, &["ls *.md", "cat src/*.rs", "git rev-parse --git-dir"]);
}

#[test]
fn policy_rewrites_by_dd_git_apply_archives_and_lefthook_local_are_refused() {
    let repo = gated_repo();
    let policy_diff = "diff --git a/.patchgate.toml b/.patchgate.toml\n--- a/.patchgate.toml\n+++ b/.patchgate.toml\n@@ -1 +1 @@\n-excluded = [\"secrets/**\"]\n+excluded = []\n";
    repo.write("evil.diff", policy_diff);
    repo.write("fine.diff", &policy_diff.replace(".patchgate.toml", "README.md"));
    let heredoc = format!("git apply <<'EOF'\n{policy_diff}EOF");
    assert_denied(
        &repo,
        "PROTECTED_PATH",
        &[
            "dd if=/dev/null of=.patchgate.toml",
            "git apply evil.diff",
            "git apply --index evil.diff",
            &heredoc,
            "patch -p1 < evil.diff",
            "patch -p1 -i evil.diff",
            "curl -s http://127.0.0.1:9/x | git apply",
            "tar xf evil.tar",
            "tar -xzf evil.tgz -C .",
            "unzip evil.zip",
            "tar xf evil.tar -C .husky",
            "echo 'pre-commit: {}' > lefthook-local.yml",
            "echo x > .lefthook/pre-commit/x.sh",
        ],
    );
    assert_denied(&repo, "HOOK_BYPASS", &["tar -xPf evil.tar -C src"]);
    repo.write("vendor/.keep", "");
    assert_allowed(
        &repo,
        &[
            "git apply fine.diff",
            "git apply --check evil.diff",
            "git apply --stat evil.diff",
            "tar xf evil.tar -C vendor",
            "unzip evil.zip -d vendor",
            "tar czf out.tgz src",
            "tar tf evil.tar",
        ],
    );
}

#[test]
fn husky_s_settings_in_package_json_cannot_be_changed_where_husky_installs_the_hooks() {
    let repo = repo();
    let manifest = "{\n  \"name\": \"app\",\n  \"scripts\": {\"prepare\": \"husky\"},\n  \"dependencies\": {}\n}\n";
    repo.commit(
        &[("package.json", manifest), (".husky/pre-commit", "patchgate hook run pre-commit\n")],
        "husky",
    );
    let file = format!("{}/package.json", root(&repo));
    let tool = |name: &str, input: Value| {
        let payload = json!({"session_id": "h", "cwd": root(&repo), "tool_name": name,
            "tool_input": input});
        let out = guard(&repo, "generic", &payload.to_string());
        (code(&out), json(&out)["error"]["code"].as_str().unwrap_or("allow").to_owned())
    };
    let protected = (2, "PROTECTED_PATH".to_owned());
    let edit_prepare = json!({"file_path": file, "old_string": "\"husky\"}",
        "new_string": "\"husky hooks\"}"});
    assert_eq!(tool("Edit", edit_prepare.clone()), protected);
    let rewrite = manifest.replace("\"prepare\": \"husky\"", "\"test\": \"jest\"");
    assert_eq!(tool("Write", json!({"file_path": file, "content": rewrite})), protected);
    let dependency = json!({"file_path": file, "old_string": "\"dependencies\": {}",
        "new_string": "\"dependencies\": {\"left-pad\": \"1.3.0\"}"});
    assert_eq!(tool("Edit", dependency), (0, "allow".to_owned()));
    assert_denied(
        &repo,
        "PROTECTED_PATH",
        &[
            "npm pkg set scripts.prepare='husky hooks'",
            "npm pkg delete scripts.prepare",
            "sed -i 's/husky/true/' package.json",
            "echo '{}' > package.json",
        ],
    );
    assert_allowed(&repo, &["npm pkg set version=2.0.0", "cat package.json", "npm pkg get name"]);
    // Without husky, package.json is the agent's like any file.
    std::fs::remove_dir_all(repo.path().join(".husky")).expect("remove .husky");
    assert_eq!(tool("Edit", edit_prepare), (0, "allow".to_owned()));
}
