//! The documentation keeps up with the binary: every command and subcommand has its page under
//! `docs/commands/`, naming each of its options; every stable code is in `docs/codes.md`; every
//! relative link of the README and `docs/` leads to a file and heading that exist.

use crate::support::patchgate;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Options every command takes, documented once in the guide.
const GLOBAL_OPTIONS: &[&str] =
    &["--repo", "--format", "--color", "--quiet", "--help", "--version"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `patchgate ARGS --help`, as text.
fn help(args: &[&str]) -> String {
    let out = patchgate().args(args).arg("--help").output().expect("run patchgate --help");
    assert!(out.status.success(), "patchgate {args:?} --help failed");
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The names under the `Commands:` heading of a help text (`help` left out).
fn subcommands(help: &str) -> Vec<String> {
    let Some(section) = help.split("\nCommands:\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The long options under the `Options:` heading of a help text.
fn options(help: &str) -> BTreeSet<String> {
    let section = help.split("\nOptions:\n").nth(1).unwrap_or_default();
    section
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l =
                l.strip_prefix("-").and_then(|rest| rest.split_once(", ")).map_or(l, |(_, r)| r);
            l.starts_with("--").then(|| l.split([' ', '=', '<']).next().unwrap_or(l).to_owned())
        })
        .collect()
}

/// Every command path (`["validate"]`, `["hook", "install"]`), read from the binary's help.
fn command_tree() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for top in subcommands(&help(&[])) {
        let subs = subcommands(&help(&[&top]));
        out.push(vec![top.clone()]);
        out.extend(subs.into_iter().map(|sub| vec![top.clone(), sub]));
    }
    out
}

#[test]
fn every_command_and_option_has_its_page() {
    let mut missing = Vec::new();
    for path in command_tree() {
        let page_path = root().join("docs/commands").join(format!("{}.md", path[0]));
        let Ok(page) = std::fs::read_to_string(&page_path) else {
            missing.push(format!("docs/commands/{}.md: no page", path[0]));
            continue;
        };
        let shown = path.join(" ");
        if path.len() > 1 && !page.contains(&format!("{} {}", path[0], path[1])) {
            missing.push(format!("docs/commands/{}.md: `{shown}` is not named", path[0]));
        }
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        for option in options(&help(&args)) {
            if !GLOBAL_OPTIONS.contains(&option.as_str()) && !page.contains(option.as_str()) {
                missing.push(format!("docs/commands/{}.md: `{shown} {option}`", path[0]));
            }
        }
    }
    let guide = read(&root().join("docs/guide.md"));
    for option in GLOBAL_OPTIONS.iter().filter(|o| !matches!(**o, "--help" | "--version")) {
        if !guide.contains(option) {
            missing.push(format!("docs/guide.md: the global option {option}"));
        }
    }
    assert!(missing.is_empty(), "undocumented:\n{}", missing.join("\n"));
}

/// The wire names of every stable code table of the library.
fn stable_codes() -> Vec<(&'static str, Vec<&'static str>)> {
    use patchgate::contract::{FilterReason, ReplyCode};
    use patchgate::declare::PatternRefusal;
    use patchgate::finding::{
        CheckCode, DefectCode, ErrorCode, NoteKind, PathErrorCode, RepairKind, RuleId, WarningCode,
    };
    use patchgate::report::NoticeCode;
    fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
        all.iter().map(|c| name(*c)).collect()
    }
    vec![
        ("RuleId", names(RuleId::ALL, RuleId::as_str)),
        ("CheckCode", names(CheckCode::ALL, CheckCode::as_str)),
        ("DefectCode", names(DefectCode::ALL, DefectCode::as_str)),
        ("WarningCode", names(WarningCode::ALL, WarningCode::as_str)),
        ("PathErrorCode", names(PathErrorCode::ALL, PathErrorCode::as_str)),
        ("NoteKind", names(NoteKind::ALL, NoteKind::as_str)),
        ("RepairKind", names(RepairKind::ALL, RepairKind::as_str)),
        ("ErrorCode", names(ErrorCode::ALL, ErrorCode::as_str)),
        ("NoticeCode", names(NoticeCode::ALL, NoticeCode::as_str)),
        ("ReplyCode", names(ReplyCode::ALL, ReplyCode::as_str)),
        ("FilterReason", names(FilterReason::ALL, FilterReason::as_str)),
        ("PatternRefusal", names(PatternRefusal::ALL, PatternRefusal::as_str)),
        (
            "RejectedPattern",
            names(
                patchgate::contract::RejectedPattern::ALL,
                patchgate::contract::RejectedPattern::as_str,
            ),
        ),
        ("DenyCode", names(patchgate::guard::DenyCode::ALL, patchgate::guard::DenyCode::as_str)),
        ("hook Reason", names(patchgate::hook::Reason::ALL, patchgate::hook::Reason::as_str)),
        (
            "batch LineCode",
            names(patchgate::batch::LineCode::ALL, patchgate::batch::LineCode::as_str),
        ),
    ]
}

#[test]
fn every_stable_code_is_in_the_codes_table() {
    let table = read(&root().join("docs/codes.md"));
    let mut missing = Vec::new();
    for (family, codes) in stable_codes() {
        for code in codes {
            if !table.contains(&format!("| `{code}` |")) {
                missing.push(format!("{family}: {code}"));
            }
        }
    }
    assert!(missing.is_empty(), "codes missing from docs/codes.md:\n{}", missing.join("\n"));
}

/// Each error code's row gives the exit code the binary uses for it.
#[test]
fn the_codes_table_gives_each_error_its_exit_code() {
    use patchgate::finding::ErrorCode;
    let table = read(&root().join("docs/codes.md"));
    for code in ErrorCode::ALL {
        let exit = if code.is_input_refused() { 2 } else { 3 };
        let row = format!("| `{code}` | error (JSON envelope `error.code`) | {exit} |");
        assert!(table.contains(&row), "docs/codes.md: {code} should read exit {exit}");
    }
}

fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read docs") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out
}

/// GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut in_fence = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// `](target)` links that are neither absolute URLs nor mail addresses.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|t| !t.contains("://") && !t.starts_with("mailto:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_relative_link_leads_somewhere() {
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = read(&file);
        let dir = file.parent().expect("a parent");
        for link in relative_links(&text) {
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() { file.clone() } else { dir.join(path) };
            let shown = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
            if !target.exists() {
                broken.push(format!("{shown}: {link}: no such file"));
            } else if !fragment.is_empty() && !anchors(&read(&target)).contains(fragment) {
                broken.push(format!("{shown}: {link}: no such heading"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_stays_a_front_door() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(lines < 400, "README.md has {lines} lines; move detail under docs/");
}
