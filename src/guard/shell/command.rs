//! Per-command rules: which words of a simple command are files, and what the command does
//! with them. Options that take a value are listed so their values are not mistaken for files;
//! commands not listed here are not checked. Writers, archives and patches are in `write`, what
//! runs other commands in `indirect`, `git` in `git`.

use super::args::{Grammar, grammar, is_assignment, parse, skip_options, strip_prefix};
use super::lex::Word;
use super::{Ctx, git, indirect, write};
use crate::guard::Role;
use std::path::{Path, PathBuf};

/// Analyse one simple command. `is_chained`: a `cd` here affects the commands after it.
pub(super) fn dispatch(words: &[Word], is_chained: bool, ctx: &mut Ctx) {
    let Some(words) = strip_prefix(words) else { return };
    let Some((first, args)) = words.split_first() else { return };
    if !first.is_literal {
        return;
    }
    let name = first.text.rsplit('/').next().unwrap_or(&first.text);
    // `./run.sh`, `bin/tool`: the program itself is a workspace file, and may be a script.
    if first.text.contains('/') {
        if !first.text.starts_with('/') {
            ctx.add(first, Role::Existing);
        }
        indirect::executed(first, ctx);
    }
    run_rule(name, args, is_chained, ctx);
}

fn run_rule(name: &str, args: &[Word], is_chained: bool, ctx: &mut Ctx) {
    match name {
        "cd" | "pushd" => {
            let parsed = parse(args, Grammar::default());
            if is_chained {
                ctx.change_dir(parsed.operands.first().copied());
            } else if let Some(dir) = parsed.operands.first() {
                ctx.add(dir, Role::Directory);
            }
        }
        "git" => git::check(args, ctx),
        "patchgate" => patchgate_rule(args, ctx),
        "xargs" => indirect::xargs(args, ctx),
        "eval" => indirect::eval(args, ctx),
        "alias" => indirect::alias(args, ctx),
        "apply_patch" | "applypatch" => indirect::apply_patch(args, ctx),
        "source" | "." => {
            let parsed = parse(args, Grammar { is_posix: true, ..Grammar::default() });
            if let Some(file) = parsed.operands.first() {
                ctx.add(file, Role::Existing);
                indirect::script_file(file, ctx);
            }
        }
        _ if write::rule(name, args, ctx) => {}
        _ if file_rule(name, args, ctx) => {}
        _ if interpreter_rule(name, args, ctx) => {}
        _ => discovery_rule(name, args, ctx),
    }
}

/// Commands that read, edit, remove or create files.
fn file_rule(name: &str, args: &[Word], ctx: &mut Ctx) -> bool {
    match name {
        "cat" | "less" | "more" | "wc" | "nl" | "tac" | "stat" | "md5sum" | "sha1sum"
        | "sha256sum" | "sha512sum" | "file" | "bat" | "batcat" | "strings" | "dos2unix"
        | "rmdir" | "unlink" | "shred" | "cut" => {
            read_all(args, grammar("dfcb", &[]), ctx);
        }
        "head" | "tail" => read_all(args, grammar("ncs", &["--lines", "--bytes"]), ctx),
        "diff" | "cmp" => read_all(args, grammar("UCxXIFLS", &["--label"]), ctx),
        "sed" => scripted(
            args,
            grammar("efl", &["--expression", "--file"]),
            &["-e", "-f", "--expression", "--file"],
            ctx,
        ),
        "awk" | "gawk" | "mawk" => awk(args, ctx),
        "rm" => {
            let parsed = parse(args, Grammar::default());
            let role =
                if parsed.has(&["-f", "--force"]) { Role::Unchecked } else { Role::Existing };
            ctx.add_all(parsed.operands, role);
        }
        "touch" => {
            let parsed = parse(args, grammar("dtr", &["--date", "--reference"]));
            ctx.add_all(parsed.operands, Role::Create);
        }
        "mkdir" => {
            let parsed = parse(args, grammar("m", &["--mode"]));
            let role =
                if parsed.has(&["-p", "--parents"]) { Role::CreateDirs } else { Role::Create };
            ctx.add_all(parsed.operands, role);
        }
        "cp" | "mv" => copy_or_move(args, ctx),
        "ln" => link(args, ctx),
        "chmod" | "chown" | "chgrp" => change_mode(name, args, ctx),
        "sort" => {
            let parsed = parse(args, grammar("ktTSo", &["--output", "--key"]));
            if let Some(out) = parsed.value(&["-o", "--output"]) {
                ctx.add(out, Role::Create);
            }
            ctx.add_all(parsed.operands, Role::Existing);
        }
        _ => return false,
    }
    true
}

/// `patchgate hook install|uninstall`, `guard install|uninstall`, `declare` and `review
/// apply|drop` change how changes are checked or override a rejection: the user's business,
/// not the agent's. The subcommand is found past the global options (`--repo DIR`, `-q`) and
/// their values, wherever it stands.
fn patchgate_rule(args: &[Word], ctx: &mut Ctx) {
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let operands: Vec<&str> = words.iter().copied().filter(|w| !w.starts_with('-')).collect();
    let refused = operands.iter().enumerate().find_map(|(at, word)| {
        let next = operands.get(at + 1).copied();
        match (*word, next) {
            ("hook", Some("install" | "uninstall")) => {
                Some("changes which git hooks run patchgate")
            }
            ("guard", Some("install" | "uninstall")) => {
                Some("changes which agent hooks run patchgate's guard")
            }
            ("declare", _) => Some("changes the declaration the commit hook checks against"),
            ("review", Some("apply" | "drop")) => {
                Some("overrides or drops a rejected result, which a person decides")
            }
            _ => None,
        }
    });
    let Some(refused) = refused else { return };
    let reason = format!("{refused}; an agent may not do that: ask the user");
    ctx.refuse(format!("patchgate {}", words.join(" ")), reason);
}

fn read_all(args: &[Word], grammar: Grammar, ctx: &mut Ctx) {
    let parsed = parse(args, grammar);
    ctx.add_all(parsed.operands, Role::Existing);
}

/// `sed SCRIPT FILE...`: the first operand is the script unless `-e`/`-f` gave it.
fn scripted(args: &[Word], grammar: Grammar, script_opts: &[&str], ctx: &mut Ctx) {
    let parsed = parse(args, grammar);
    let skip = usize::from(!parsed.has(script_opts));
    // `-i` edits the files in place (`-i.bak` keeps a copy).
    let is_in_place = parsed.flags.iter().any(|f| f == "-i" || f == "--in-place");
    let role = if is_in_place { Role::Modify } else { Role::Existing };
    ctx.add_all(parsed.operands.into_iter().skip(skip), role);
}

fn awk(args: &[Word], ctx: &mut Ctx) {
    let parsed = parse(args, grammar("fvF", &["--file", "--assign", "--field-separator"]));
    let skip = usize::from(!parsed.has(&["-f", "--file"]));
    let files = parsed.operands.into_iter().skip(skip).filter(|w| !is_assignment(w));
    ctx.add_all(files, Role::Existing);
}

fn copy_or_move(args: &[Word], ctx: &mut Ctx) {
    let parsed = parse(args, grammar("tS", &["--target-directory", "--suffix"]));
    write::sources_and_destination(&parsed, ctx);
}

/// `ln [-s] TARGET... LINK|DIR`: a symbolic link's target must stay inside the workspace,
/// resolved from the link's own directory (`ln -s ../outside evil` is refused).
fn link(args: &[Word], ctx: &mut Ctx) {
    let parsed = parse(args, grammar("tS", &["--target-directory", "--suffix"]));
    let is_symbolic = parsed.has(&["-s", "--symbolic"]);
    let (targets, link_dir): (Vec<&Word>, PathBuf) =
        match (parsed.value(&["-t", "--target-directory"]), parsed.operands.split_last()) {
            (Some(dir), _) => {
                ctx.add(dir, Role::Directory);
                (parsed.operands.clone(), PathBuf::from(&dir.text))
            }
            (None, Some((last, rest))) if !rest.is_empty() => {
                ctx.add(last, Role::Create);
                let dir = if ctx.is_dir(last) {
                    PathBuf::from(&last.text)
                } else {
                    Path::new(&last.text).parent().map(Path::to_path_buf).unwrap_or_default()
                };
                (rest.to_vec(), dir)
            }
            _ => (parsed.operands.clone(), PathBuf::new()),
        };
    for target in targets {
        if is_symbolic {
            ctx.add_link_target(target, &link_dir);
        } else {
            ctx.add(target, Role::Existing);
        }
    }
}

/// `chmod MODE FILE...` (a mode may look like an option: `chmod -x run.sh`).
fn change_mode(name: &str, args: &[Word], ctx: &mut Ctx) {
    let is_mode = |w: &Word| {
        name == "chmod"
            && w.text.len() > 1
            && w.text.starts_with('-')
            && w.text[1..].chars().all(|c| "rwxXst".contains(c))
    };
    let mode_at = args.iter().position(is_mode);
    let rest: Vec<Word> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != mode_at)
        .map(|(_, w)| w.clone())
        .collect();
    let parsed = parse(&rest, Grammar::default());
    let has_reference = parsed.flags.iter().any(|f| f == "--reference");
    let skip = usize::from(mode_at.is_none() && !has_reference);
    ctx.add_all(parsed.operands.into_iter().skip(skip), Role::Existing);
}

/// Interpreters run their first operand as a script; `-c`/`-e`/`-m` mean there is none.
fn interpreter_rule(name: &str, args: &[Word], ctx: &mut Ctx) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let (values, stops): (&str, &[&str]) = match base {
        "python" | "pypy" => ("WXQmc", &["-c", "-m"]),
        "node" | "nodejs" | "tsx" | "ts-node" | "bun" => {
            ("rep", &["-e", "-p", "--eval", "--print"])
        }
        _ if indirect::is_shell(base) => {
            indirect::shell(base, args, ctx);
            return true;
        }
        "ruby" | "perl" => ("IrCx", &["-e", "-E"]),
        "php" => ("cd", &["-r"]),
        "Rscript" => ("", &["-e"]),
        "pytest" | "py.test" => {
            pytest(args, ctx);
            return true;
        }
        "uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye" | "npx" | "bunx" | "pnpx" => {
            runner(args, ctx);
            return true;
        }
        _ => return false,
    };
    let long = &["--require", "--import", "--loader"];
    let parsed = parse(args, Grammar { short_values: values, long_values: long, is_posix: true });
    if parsed.values.iter().any(|(n, w)| n == "-m" && w.text == "pytest") {
        let after =
            args.iter().position(|w| w.text == "pytest").map_or(&[][..], |i| &args[i + 1..]);
        pytest(after, ctx);
    } else if !parsed.has(stops) {
        ctx.add_all(parsed.operands.first().copied(), Role::Existing);
    }
    true
}

/// `uv run`, `poetry run`, `npx`: analyse the command they run.
fn runner(args: &[Word], ctx: &mut Ctx) {
    let args = match args.first() {
        Some(w) if w.text == "run" || w.text == "exec" => &args[1..],
        _ => args,
    };
    let long = &[
        "--with",
        "--python",
        "--project",
        "--directory",
        "--package",
        "--extra",
        "--group",
        "--env-file",
        "--from",
    ];
    let rest = skip_options(args, grammar("pw", long));
    dispatch(rest, false, ctx);
}

/// pytest operands are paths (`tests/test_a.py::test_x`) or other words (`-k expr` values are
/// options); only words that look like paths are checked.
fn pytest(args: &[Word], ctx: &mut Ctx) {
    let long = &[
        "--rootdir",
        "--confcutdir",
        "--basetemp",
        "--ignore",
        "--deselect",
        "--junitxml",
        "--maxfail",
        "--tb",
        "--durations",
        "--cov-report",
        "--override-ini",
    ];
    let parsed = parse(args, grammar("kmpcornW", long));
    for word in parsed.operands {
        let path = word.text.split("::").next().unwrap_or(&word.text);
        let is_python = Path::new(path).extension().is_some_and(|e| e.eq_ignore_ascii_case("py"));
        if path.contains('/') || is_python {
            let trimmed = Word { text: path.to_owned(), is_literal: word.is_literal };
            ctx.add(&trimmed, Role::Existing);
        }
    }
}

/// Listing and search commands: they reset the hallucination counter; `ls`, `tree`, `find`
/// and `du` operands are still checked, so a missing one gets the parent listing.
fn discovery_rule(name: &str, args: &[Word], ctx: &mut Ctx) {
    let checked = match name {
        "ls" | "exa" | "eza" => parse(args, grammar("IwT", &["--ignore", "--width"])).operands,
        "tree" => parse(args, grammar("LPIo", &["--filelimit"])).operands,
        "du" => parse(args, grammar("dBt", &["--max-depth", "--exclude"])).operands,
        "find" => {
            indirect::find_exec(args, ctx);
            args.iter().take_while(|w| !w.text.starts_with(['-', '(', '!'])).collect()
        }
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "fd" | "fdfind" | "locate"
        | "git-ls-files" => Vec::new(),
        _ => return,
    };
    ctx.plan.is_discovery = true;
    ctx.add_all(checked, Role::Directory);
}
