//! Per-command rules: which words of a simple command are files, and what the command does
//! with them. Options that take a value are listed so their values are not mistaken for files;
//! commands not listed here are not checked.

use super::lex::Word;
use super::{Ctx, git};
use crate::guard::Role;
use std::path::{Path, PathBuf};

/// Options and operands of one command line.
#[derive(Debug, Default)]
pub(super) struct Parsed<'a> {
    pub operands: Vec<&'a Word>,
    /// Every option seen, as written up to any `=` (`-f`, `-r`, `--force`); short clusters are
    /// split (`-rf` gives `-r`, `-f`).
    pub flags: Vec<String>,
    /// Options with their values (`-t DIR`, `--target-directory=DIR`).
    pub values: Vec<(String, Word)>,
}

impl Parsed<'_> {
    pub fn has(&self, names: &[&str]) -> bool {
        self.flags.iter().any(|f| names.contains(&f.as_str()))
    }

    fn value(&self, names: &[&str]) -> Option<&Word> {
        self.values.iter().find(|(n, _)| names.contains(&n.as_str())).map(|(_, w)| w)
    }
}

/// How to read a command's options.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Grammar {
    /// Short options that take a value (`"nc"` for `head -n 5`).
    pub short_values: &'static str,
    /// Long options that take a value as the next word.
    pub long_values: &'static [&'static str],
    /// Stop reading options at the first operand (interpreters: the rest belongs to the script).
    pub is_posix: bool,
}

const fn grammar(short_values: &'static str, long_values: &'static [&'static str]) -> Grammar {
    Grammar { short_values, long_values, is_posix: false }
}

/// Split `args` into options and operands.
pub(super) fn parse(args: &[Word], grammar: Grammar) -> Parsed<'_> {
    let mut out = Parsed::default();
    let mut at = 0;
    let mut only_operands = false;
    while at < args.len() {
        let word = &args[at];
        at += 1;
        let text = word.text.as_str();
        if only_operands || text == "-" || !text.starts_with('-') || !word.is_literal {
            out.operands.push(word);
            only_operands |= grammar.is_posix;
            continue;
        }
        if text == "--" {
            only_operands = true;
        } else if let Some(long) = text.strip_prefix("--") {
            at += parse_long(long, args.get(at), grammar, &mut out);
        } else {
            at += parse_short(&text[1..], args.get(at), grammar, &mut out);
        }
    }
    out
}

fn parse_long(long: &str, next: Option<&Word>, grammar: Grammar, out: &mut Parsed<'_>) -> usize {
    let (name, attached) = match long.split_once('=') {
        Some((name, value)) => (format!("--{name}"), Some(value)),
        None => (format!("--{long}"), None),
    };
    out.flags.push(name.clone());
    if let Some(value) = attached {
        out.values.push((name, Word { text: value.to_owned(), is_literal: true }));
        return 0;
    }
    match next {
        Some(value) if grammar.long_values.contains(&name.as_str()) => {
            out.values.push((name, value.clone()));
            1
        }
        _ => 0,
    }
}

fn parse_short(
    cluster: &str,
    next: Option<&Word>,
    grammar: Grammar,
    out: &mut Parsed<'_>,
) -> usize {
    for (i, c) in cluster.char_indices() {
        let name = format!("-{c}");
        out.flags.push(name.clone());
        if !grammar.short_values.contains(c) {
            continue;
        }
        let rest = &cluster[i + c.len_utf8()..];
        if !rest.is_empty() {
            out.values.push((name, Word { text: rest.to_owned(), is_literal: true }));
            return 0;
        }
        return match next {
            Some(value) => {
                out.values.push((name, value.clone()));
                1
            }
            None => 0,
        };
    }
    0
}

/// Analyse one simple command. `is_chained`: a `cd` here affects the commands after it.
pub(super) fn dispatch(words: &[Word], is_chained: bool, ctx: &mut Ctx) {
    let Some(words) = strip_prefix(words) else { return };
    let Some((first, args)) = words.split_first() else { return };
    if !first.is_literal {
        return;
    }
    let name = first.text.rsplit('/').next().unwrap_or(&first.text);
    // `./run.sh`, `bin/tool`: the program itself is a workspace file.
    if first.text.contains('/') && !first.text.starts_with('/') {
        ctx.add(first, Role::Existing);
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
        _ if file_rule(name, args, ctx) => {}
        _ if interpreter_rule(name, args, ctx) => {}
        _ => discovery_rule(name, args, ctx),
    }
}

/// The program a command line runs (its name without directories) and its arguments, past
/// assignments and wrappers (`sudo`, `env`, `time`).
pub(super) fn program(words: &[Word]) -> Option<(&str, &[Word])> {
    let (first, args) = strip_prefix(words)?.split_first()?;
    Some((first.text.rsplit('/').next().unwrap_or(&first.text), args))
}

/// Leading words that only wrap the real command; `None` when the rest cannot be analysed.
fn strip_prefix(mut words: &[Word]) -> Option<&[Word]> {
    loop {
        let (first, rest) = words.split_first()?;
        if is_assignment(first) {
            words = rest;
            continue;
        }
        words = match first.text.as_str() {
            "then" | "do" | "else" | "elif" | "if" | "while" | "until" | "!" | "{" | "}" | "fi"
            | "done" | "esac" | "time" | "nohup" | "exec" | "builtin" | "command" => rest,
            "for" | "case" | "function" | "select" | "xargs" | "watch" | "parallel" | "eval"
            | "trap" | "alias" => return None,
            "sudo" | "doas" => skip_options(rest, grammar("ugCDhprTtU", &["--user", "--group"])),
            "env" => skip_options(rest, grammar("uCS", &["--unset", "--chdir"])),
            "nice" | "ionice" => skip_options(rest, grammar("ncpt", &["--adjustment"])),
            "stdbuf" => skip_options(rest, grammar("ioe", &[])),
            "timeout" => {
                skip_options(rest, grammar("sk", &["--signal", "--kill-after"])).get(1..)?
            }
            _ => return Some(words),
        };
    }
}

fn skip_options(words: &[Word], grammar: Grammar) -> &[Word] {
    let parsed = parse(words, Grammar { is_posix: true, ..grammar });
    let used = words.len() - parsed.operands.len();
    &words[used..]
}

fn is_assignment(word: &Word) -> bool {
    let Some((name, _)) = word.text.split_once('=') else { return false };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Commands that read, edit, remove or create files.
fn file_rule(name: &str, args: &[Word], ctx: &mut Ctx) -> bool {
    match name {
        "cat" | "less" | "more" | "wc" | "nl" | "tac" | "stat" | "md5sum" | "sha1sum"
        | "sha256sum" | "sha512sum" | "file" | "bat" | "batcat" | "strings" | "dos2unix"
        | "source" | "." | "rmdir" | "unlink" | "shred" | "cut" => {
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

/// `patchgate hook install|uninstall` and `patchgate declare` change how commits are checked:
/// the user's business, not the agent's.
fn patchgate_rule(args: &[Word], ctx: &mut Ctx) {
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let mut rest = words.iter().skip_while(|w| w.starts_with('-'));
    let refused = match (rest.next(), rest.next()) {
        (Some(&"hook"), Some(&("install" | "uninstall"))) => {
            "changes which git hooks run patchgate"
        }
        (Some(&"declare"), _) => "changes the declaration the commit hook checks against",
        _ => return,
    };
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
    ctx.add_all(parsed.operands.into_iter().skip(skip), Role::Existing);
}

fn awk(args: &[Word], ctx: &mut Ctx) {
    let parsed = parse(args, grammar("fvF", &["--file", "--assign", "--field-separator"]));
    let skip = usize::from(!parsed.has(&["-f", "--file"]));
    let files = parsed.operands.into_iter().skip(skip).filter(|w| !is_assignment(w));
    ctx.add_all(files, Role::Existing);
}

fn copy_or_move(args: &[Word], ctx: &mut Ctx) {
    let target = ["-t", "--target-directory"];
    let parsed = parse(args, grammar("tS", &["--target-directory", "--suffix"]));
    if let Some(dir) = parsed.value(&target) {
        ctx.add(dir, Role::Directory);
        ctx.add_all(parsed.operands, Role::Existing);
        return;
    }
    match parsed.operands.split_last() {
        Some((dest, sources)) if !sources.is_empty() => {
            ctx.add_all(sources.iter().copied(), Role::Existing);
            ctx.add(dest, Role::Create);
        }
        _ => ctx.add_all(parsed.operands, Role::Existing),
    }
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
        "bash" | "sh" | "zsh" | "dash" | "ksh" => ("oOc", &["-c", "-s"]),
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
    if let Some(script) = parsed.values.iter().find(|(n, _)| n == "-c" && base.ends_with("sh")) {
        ctx.nested(&script.1);
    } else if parsed.values.iter().any(|(n, w)| n == "-m" && w.text == "pytest") {
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
        "find" => args.iter().take_while(|w| !w.text.starts_with(['-', '(', '!'])).collect(),
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "fd" | "fdfind" | "locate"
        | "git-ls-files" => Vec::new(),
        _ => return,
    };
    ctx.plan.is_discovery = true;
    ctx.add_all(checked, Role::Directory);
}
