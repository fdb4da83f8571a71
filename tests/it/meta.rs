//! Completions and man pages, generated from the command definitions; the JSON Schemas by name;
//! help without seed numbers.

use crate::support::{code, json, patchgate};

#[test]
fn completions_cover_every_main_command_in_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = patchgate().args(["completions", shell]).output().expect("run patchgate");
        assert_eq!(code(&out), 0, "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        for command in ["validate", "apply", "hook", "guard", "review"] {
            assert!(script.contains(command), "{shell} completes {command}");
        }
    }
    let out = patchgate().args(["completions", "tcsh"]).output().expect("run patchgate");
    assert_eq!(code(&out), 2, "an unknown shell is a usage error");
}

#[test]
fn man_pages_are_written_for_the_tool_and_each_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = patchgate().arg("man").arg(dir.path()).output().expect("run patchgate");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let main = std::fs::read_to_string(dir.path().join("patchgate.1")).expect("patchgate.1");
    assert!(main.contains(".TH patchgate"), "{}", &main[..main.len().min(200)]);
    let validate = std::fs::read_to_string(dir.path().join("patchgate-validate.1")).expect("page");
    assert!(validate.contains(r"\-\-no\-repo"), "options are documented (roff escapes dashes)");
}

#[test]
fn help_lists_the_main_commands_first_and_names_no_seed_numbers() {
    let out = patchgate().arg("--help").output().expect("run patchgate");
    let help = String::from_utf8_lossy(&out.stdout);
    let at = |name: &str| help.find(&format!("  {name} ")).expect(name);
    assert!(at("validate") < at("apply") && at("apply") < at("hook") && at("guard") < at("parse"));
    for command in ["validate", "apply", "check-arg", "contract", "escape-md", "paths"] {
        let out = patchgate().args([command, "--help"]).output().expect("run patchgate");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("seed "), "{command} --help speaks of seeds: {text}");
    }
}

/// The commands' arguments are built only when a command runs; the man pages and completions
/// build them all. Each command's page documents the options its `--help` does, under the
/// summary the command list gives it.
#[test]
fn each_commands_page_and_help_agree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = patchgate().arg("man").arg(dir.path()).output().expect("run patchgate");
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let out = patchgate().arg("--help").output().expect("run patchgate");
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let listing = help.split("Commands:").nth(1).expect("a command list");
    let listing = listing.split("\n\n").next().expect("the list");
    let commands: Vec<(&str, &str)> = listing
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once(' '))
        .map(|(name, summary)| (name, summary.trim()))
        .filter(|(name, _)| !name.is_empty() && *name != "help")
        .collect();
    assert!(commands.len() >= 14, "{listing}");
    let out = patchgate().args(["completions", "bash"]).output().expect("run patchgate");
    let bash = String::from_utf8_lossy(&out.stdout).into_owned();
    let flags = |text: &str| -> std::collections::BTreeSet<String> {
        let text = text.replace(r"\-", "-");
        regex::Regex::new(r"--[a-z][a-z-]*")
            .expect("regex")
            .find_iter(&text)
            .map(|m| m.as_str().to_owned())
            .collect()
    };
    for (name, summary) in commands {
        let out = patchgate().args([name, "--help"]).output().expect("run patchgate");
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        let first: String = summary.chars().take(24).collect();
        assert!(help.starts_with(&first), "{name} --help opens with its summary: {help}");
        let page = dir.path().join(format!("patchgate-{name}.1"));
        let page = std::fs::read_to_string(&page).expect("a page per command");
        let documented = flags(&page);
        assert!(documented.len() >= 2, "{name}: {documented:?}");
        assert_eq!(documented, flags(&help), "{name}: the page and --help name the same options");
        // `patchgate help hook install` completes like `patchgate hook install`.
        let Some(own) = help.split("Commands:\n").nth(1) else { continue };
        let own = own.split("\n\n").next().expect("the list");
        let names = own.lines().filter_map(|l| l.strip_prefix("  ")?.split(' ').next());
        for sub in names.filter(|s| !s.is_empty() && *s != "help") {
            let case = format!("patchgate__subcmd__help__subcmd__{name}__subcmd__{sub}");
            assert!(
                bash.contains(&case.replace('-', "__subcmd__")),
                "bash completes help {name} {sub}"
            );
        }
    }
}

/// Every command that needs a repository says so the same way: a directory `--repo` names that
/// is no repository is refused input (exit 2, `not_a_repository`); no repository around the
/// current directory means it cannot do its job there (exit 3, `no_repository`).
#[test]
fn a_missing_repository_exits_alike_in_every_command() {
    let outside = tempfile::tempdir().expect("tempdir");
    let step = crate::support::fixtures().join("validate/accepted/step.json");
    let result = crate::support::fixtures().join("validate/accepted/result.json");
    let (step, result) = (step.to_str().unwrap(), result.to_str().unwrap());
    let commands: [&[&str]; 8] = [
        &["validate", "--step", step, "--result", result],
        &["apply", "--step", step, "--result", result],
        &["repair", result],
        &["review", "list"],
        &["hook", "status"],
        &["hook", "install"],
        &["declare", "--show"],
        &["declare", "src/a.rs"],
    ];
    let dir = outside.path().to_str().unwrap();
    for args in commands {
        let run = |extra: &[&str]| {
            let out = patchgate()
                .current_dir(outside.path())
                .env("GIT_CEILING_DIRECTORIES", outside.path().parent().unwrap())
                .args(args)
                .args(extra)
                .args(["--format", "json"])
                .output()
                .expect("run patchgate");
            (code(&out), crate::support::json(&out)["error"]["code"].clone())
        };
        assert_eq!(run(&[]), (3, "no_repository".into()), "{args:?}");
        assert_eq!(run(&["--repo", dir]), (2, "not_a_repository".into()), "{args:?} --repo");
    }
}

#[test]
fn schema_prints_each_published_schema_by_name_and_refuses_an_unknown_one() {
    let names = patchgate().arg("schema").output().expect("run");
    assert_eq!(code(&names), 0);
    let names = String::from_utf8(names.stdout).expect("utf-8");
    let published = patchgate::report::json_schemas();
    assert_eq!(names.lines().count(), published.len(), "{names}");
    for (file, text) in &published {
        let name = file.trim_end_matches(".schema.json");
        assert!(names.lines().any(|l| l == name), "{name} not listed: {names}");
        for arg in [name, file] {
            let out = patchgate().args(["schema", arg]).output().expect("run");
            assert_eq!(code(&out), 0, "{arg}");
            assert_eq!(String::from_utf8(out.stdout).expect("utf-8"), format!("{text}\n"));
        }
    }
    let out = patchgate().args(["--format", "json", "schema", "stepp"]).output().expect("run");
    assert_eq!(code(&out), 2);
    let message = json(&out)["error"]["message"].as_str().expect("message").to_owned();
    assert!(message.contains("no schema named 'stepp'") && message.contains("execute-step"));
}
