use super::analyse;
use crate::guard::Role;
use std::path::Path;

/// `(raw, role, base relative to /w)` of every operand of `script` run in `/w`.
fn operands(script: &str) -> Vec<(String, Role, String)> {
    analyse(script, Path::new("/w"))
        .operands
        .into_iter()
        .map(|a| (a.raw, a.role, a.base.display().to_string()))
        .collect()
}

fn raws(script: &str) -> Vec<String> {
    operands(script).into_iter().map(|(raw, _, _)| raw).collect()
}

fn bypasses(script: &str) -> bool {
    analyse(script, Path::new("/w")).bypass.is_some()
}

#[test]
fn separators_split_commands() {
    assert_eq!(
        raws("cat a.txt && wc -l b.txt; head -n 5 c.txt | tail d.txt || less e"),
        ["a.txt", "b.txt", "c.txt", "d.txt", "e"]
    );
    assert_eq!(
        raws("cat a.txt&&cat b.txt;cat c.txt|cat d.txt"),
        ["a.txt", "b.txt", "c.txt", "d.txt"]
    );
}

#[test]
fn quotes_are_removed_by_the_word_splitter() {
    assert_eq!(raws(r#"cat "my file.txt" 'it''s' a\ b"#), ["my file.txt", "its", "a b"]);
    // Operators inside quotes are text.
    assert_eq!(raws(r#"cat "a && b.txt""#), ["a && b.txt"]);
}

#[test]
fn redirections_create_or_read() {
    let ops = operands("sort < in.txt > out/new.txt 2>/dev/null 2>&1 >>log.txt");
    let roles: Vec<(&str, Role)> = ops.iter().map(|(r, role, _)| (r.as_str(), *role)).collect();
    assert_eq!(
        roles,
        [
            ("in.txt", Role::Existing),
            ("out/new.txt", Role::Create),
            ("/dev/null", Role::Create),
            ("log.txt", Role::Create),
        ]
    );
}

#[test]
fn assignments_and_wrappers_are_skipped() {
    assert_eq!(
        raws("FOO=1 BAR='x y' sudo -u root env A=b nice -n 5 timeout 10 cat x.txt"),
        ["x.txt"]
    );
    assert_eq!(raws("time nohup cat y.txt"), ["y.txt"]);
}

#[test]
fn cd_changes_the_base_of_later_operands() {
    let ops = operands("cd sub && cat y.txt; cd /abs && cat z.txt");
    assert_eq!(ops[0], ("sub".into(), Role::Directory, "/w".into()));
    assert_eq!(ops[1], ("y.txt".into(), Role::Existing, "/w/sub".into()));
    assert_eq!(ops[3], ("z.txt".into(), Role::Existing, "/abs".into()));
    // After `cd` somewhere unknown, relative operands are not guessed.
    assert!(raws("cd $DIR && cat rel.txt").is_empty());
}

#[test]
fn expansions_globs_and_home_are_not_guessed() {
    // A brace list is known; the rest only running the script would tell (the substitution's
    // own command, `find .`, is read as a command of its own).
    assert_eq!(
        raws("cat $(find . -name x) *.py ${A}/b `pwd`/c src/{a,b}.rs ~other/x"),
        [".", "src/a.rs", "src/b.rs"]
    );
    assert_eq!(raws("P=src/a.rs; cat $P \"$P\".bak"), ["src/a.rs", "src/a.rs.bak"]);
    assert!(raws("P=src/a.rs cat $P").is_empty(), "a prefix assignment is not seen by $P");
}

#[test]
fn heredoc_bodies_are_not_commands() {
    let script = "cat <<'EOF' > notes.md\nrm -rf missing\nEOF\ncat real.txt";
    assert_eq!(raws(script), ["notes.md", "real.txt"]);
    assert_eq!(raws("python3 - <<EOF\nopen('x')\nEOF"), Vec::<String>::new());
}

#[test]
fn sed_awk_and_head_skip_their_scripts_and_values() {
    assert_eq!(raws("sed -i 's/a/b/' src/a.rs"), ["src/a.rs"]);
    assert_eq!(raws("sed -e s/a/b/ -e s/c/d/ f1 f2"), ["f1", "f2"]);
    assert_eq!(raws("awk -F, '{print $1}' data.csv x=1"), ["data.csv"]);
    assert_eq!(raws("head -n 5 a.txt; tail -c100 b.txt"), ["a.txt", "b.txt"]);
}

#[test]
fn copy_and_move_destinations_may_be_new() {
    let ops = operands("cp -r a b dest/; mv -t dir c");
    let roles: Vec<(&str, Role)> = ops.iter().map(|(r, role, _)| (r.as_str(), *role)).collect();
    assert_eq!(
        roles,
        [
            ("a", Role::Existing),
            ("b", Role::Existing),
            ("dest/", Role::Create),
            ("dir", Role::Directory),
            ("c", Role::Existing),
        ]
    );
}

#[test]
fn rm_force_touch_and_mkdir_roles() {
    let roles: Vec<Role> = operands("rm -rf gone; rm there; touch new; mkdir -p a/b/c; mkdir d")
        .into_iter()
        .map(|o| o.1)
        .collect();
    assert_eq!(
        roles,
        [Role::Unchecked, Role::Existing, Role::Create, Role::CreateDirs, Role::Create]
    );
}

#[test]
fn chmod_modes_are_not_files() {
    assert_eq!(
        raws("chmod +x run.sh; chmod -x a.sh; chmod 755 b.sh; chown -R me:me c"),
        ["run.sh", "a.sh", "b.sh", "c"]
    );
}

#[test]
fn interpreters_check_only_their_script() {
    assert_eq!(raws("python3 scripts/gen.py --out x.json data.txt"), ["scripts/gen.py"]);
    assert!(raws("python -c 'print(1)'; node -e 'x'; bash -c").is_empty());
    assert_eq!(raws("node --require ts-node/register src/main.ts"), ["src/main.ts"]);
    assert_eq!(raws("./scripts/run.sh arg"), ["./scripts/run.sh"]);
}

#[test]
fn pytest_paths_drop_node_ids_and_option_values() {
    assert_eq!(
        raws("python -m pytest tests/test_a.py::test_x -k 'not slow' -q"),
        ["tests/test_a.py"]
    );
    assert_eq!(raws("uv run --with pytest pytest tests/b.py -n auto"), ["tests/b.py"]);
    assert_eq!(raws("pytest -x test_c.py"), ["test_c.py"]);
}

#[test]
fn nested_shell_scripts_are_analysed() {
    assert_eq!(raws("bash -c 'cat inner.txt && git status'"), ["inner.txt"]);
    assert!(bypasses("sh -c \"git commit --no-verify -m x\""));
}

#[test]
fn discovery_commands_are_flagged_and_search_operands_not_checked() {
    let plan = analyse("grep -rn 'foo bar' src/ | head", Path::new("/w"));
    assert!(plan.is_discovery);
    assert!(plan.operands.is_empty());
    let plan = analyse("ls -la src/missing && find lib -name '*.rs'", Path::new("/w"));
    assert!(plan.is_discovery);
    let dirs: Vec<&str> = plan.operands.iter().map(|a| a.raw.as_str()).collect();
    assert_eq!(dirs, ["src/missing", "lib"]);
}

#[test]
fn git_commit_no_verify_and_n_are_refused() {
    assert!(bypasses("git commit --no-verify -m x"));
    assert!(bypasses("git commit -n -m x"));
    assert!(bypasses("git commit -anm 'msg'"));
    assert!(bypasses("git add . && git commit --no-veri -m x"));
    assert!(bypasses("git -C repo commit -n"));
    assert!(bypasses("git push --no-verify origin main"));
}

#[test]
fn git_hooks_path_override_is_refused() {
    assert!(bypasses("git -c core.hooksPath=/dev/null commit -m x"));
    assert!(bypasses("git -c core.hookspath=x merge topic"));
    assert!(bypasses("git --config-env=core.hooksPath=HOOKS commit -m x"));
    assert!(!bypasses("git -c user.name=x commit -m x"));
}

#[test]
fn git_commands_that_keep_hooks_pass() {
    assert!(!bypasses("git commit -m 'do not use -n here'"));
    assert!(!bypasses("git commit -mn"));
    assert!(!bypasses("git commit --no-verify --verify -m x"));
    assert!(!bypasses("git push -n origin main"));
    assert!(!bypasses("git log -n 3"));
    assert!(!bypasses("echo git commit --no-verify"));
}

#[test]
fn a_refused_command_is_quoted_with_where_it_writes() {
    let finding = analyse("printf '' > .patchgate.toml", Path::new("/w")).bypass.unwrap();
    assert_eq!(finding.command, "printf '' > .patchgate.toml");
}

#[test]
fn heredocs_substitutions_and_pipes_are_read_where_they_run() {
    let script = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n\
                  *** End Patch\nEOF\ncat b.txt";
    let ops = operands(script);
    assert_eq!(ops[0], ("src/a.rs".into(), Role::Modify, "/w".into()));
    assert_eq!(ops[1].0, "b.txt");
    assert!(bypasses("cat <<EOF\n$(git commit -n -m x)\nEOF"), "an unquoted body runs");
    assert!(!bypasses("cat <<'EOF'\n$(git commit -n -m x)\nEOF"), "a quoted one is text");
    assert!(bypasses("diff <(git commit -n -m x) a"));
    assert!(bypasses("echo \"$(git commit --no-verify)\""));
    assert!(bypasses("printf 'git commit -n\\n' | sh"));
    assert!(bypasses("sh <<< 'git commit -n'"));
    assert!(!bypasses("printf 'ls\\n' | sh"));
}

#[test]
fn loops_variables_and_braces_give_the_words_they_stand_for() {
    assert_eq!(raws("for f in a.txt b.txt; do cat $f; done"), ["a.txt", "b.txt"]);
    assert_eq!(raws("export D=src; cat ${D}/x.rs"), ["src/x.rs"]);
    assert_eq!(raws("cat {a,b}/c.txt"), ["a/c.txt", "b/c.txt"]);
    assert!(raws("for f in $(ls); do cat $f; done").is_empty());
}

#[test]
fn nesting_past_the_limit_is_refused() {
    let mut script = "true".to_owned();
    for _ in 0..10 {
        script = format!("bash -c {}", shell_words::quote(&script));
    }
    assert!(bypasses(&script));
    assert!(!bypasses("bash -c 'bash -c \"echo hi\"'"));
}
