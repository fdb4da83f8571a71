//! Completions and man pages, generated from the command definitions; help without seed
//! numbers.

use crate::support::{code, patchgate};

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
