//! What a command runs besides its own words: the scripts of command substitutions, a shell's
//! script (from `-c`, a file, a heredoc, or a pipe from `echo`/`printf`/`cat`), `eval`,
//! `xargs`'s command with the items it is fed, `find -exec`, `alias` bodies, and
//! `apply_patch`'s envelope. Each is read as the shell would read it, in the same directory.
//!
//! A shell given a script the guard cannot read (piped from another program's output, built at
//! run time: `base64 -d | sh`, `eval "$(curl ...)"`) is refused: the shell is the guard's own
//! language, and an unreadable script is the way around every rule. A program in any other
//! language is not read at all (see the module above).

use super::args::{Grammar, parse, program};
use super::lex::{self, Word};
use super::{Ctx, Stdin, write};
use crate::guard::{Role, envelope};

/// Scripts read from a file at most this large; a larger one is not read.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// Items `xargs` is fed that are read one by one at most.
const MAX_ITEMS: usize = 64;

/// Shells whose script the guard reads.
pub(super) fn is_shell(name: &str) -> bool {
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh")
}

const fn grammar(short_values: &'static str, long_values: &'static [&'static str]) -> Grammar {
    Grammar { short_values, long_values, is_posix: true }
}

fn unreadable(ctx: &mut Ctx, command: String, how: &str) {
    let reason = format!(
        "runs a shell script patchgate cannot read ({how}), so the commands in it cannot be \
         checked; run those commands themselves"
    );
    ctx.refuse(command, reason);
}

/// The scripts of the command's substitutions, and of those in its unquoted heredocs (a
/// quoted one, `<<'EOF'`, is text).
pub(super) fn substitutions(command: &lex::Command, ctx: &mut Ctx) {
    for script in &command.substitutions {
        ctx.nested(script);
    }
    for heredoc in command.heredocs.iter().filter(|h| !h.is_quoted) {
        for script in lex::substitutions_in(&heredoc.body) {
            ctx.nested(&script);
        }
    }
}

/// What `command` writes to a pipe, when the script shows it: `echo`, `printf` with a format
/// alone or `%s` formats, `cat` of a heredoc or of one file.
pub(super) fn stdout_of(command: &lex::Command, ctx: &Ctx) -> Stdin {
    let Some((name, args)) = program(&command.words) else { return Stdin::Unknown };
    if args.iter().any(|w| !w.is_literal) {
        return Stdin::Unknown;
    }
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let known = match name {
        "echo" => {
            let words: Vec<&str> =
                texts.iter().copied().skip_while(|t| matches!(*t, "-n" | "-e" | "-E")).collect();
            Some(format!("{}\n", words.join(" ")))
        }
        "printf" => printf(&texts),
        "cat" if texts.is_empty() => match &ctx.stdin {
            Stdin::Text(text) => Some(text.clone()),
            _ => None,
        },
        "cat" if texts.len() == 1 => read_script(texts[0], ctx),
        _ => None,
    };
    known.map_or(Stdin::Unknown, Stdin::Text)
}

fn printf(texts: &[&str]) -> Option<String> {
    let (format, args) = texts.split_first()?;
    let format = format.replace("\\n", "\n").replace("\\t", "\t");
    if args.is_empty() && !format.replace("%%", "").contains('%') {
        return Some(format.replace("%%", "%"));
    }
    let separator = format.strip_prefix("%s")?;
    (!separator.contains('%')).then(|| {
        args.iter().fold(String::new(), |mut out, arg| {
            out.push_str(arg);
            out.push_str(separator);
            out
        })
    })
}

/// What `command < FILE` reads: the file's text, or unknown when it cannot be read.
pub(super) fn stdin_file(command: &lex::Command, ctx: &Ctx) -> Option<Stdin> {
    let (_, file) =
        command.redirects.iter().rev().find(|(kind, _)| *kind == lex::RedirectKind::Read)?;
    let text = file.is_literal.then(|| write::read_patch(file, ctx)).flatten();
    Some(text.map_or(Stdin::Unknown, Stdin::Text))
}

/// A file's text when it is a readable regular file no larger than [`MAX_SCRIPT_BYTES`].
fn read_script(file: &str, ctx: &Ctx) -> Option<String> {
    let path = ctx.cwd.as_ref()?.join(file);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.len() <= MAX_SCRIPT_BYTES).then_some(())?;
    let bytes = std::fs::read(path).ok()?;
    (!bytes.contains(&0)).then(|| String::from_utf8_lossy(&bytes).into_owned())
}

/// `sh`, `bash`, ...: the script of `-c`, of standard input (`-s`, or no operand), or of the
/// file named first.
pub(super) fn shell(name: &str, args: &[Word], ctx: &mut Ctx) {
    let parsed = parse(args, grammar("oOc", &["--rcfile", "--init-file"]));
    let written = || format!("{name} {}", words(args));
    if let Some((_, script)) = parsed.values.iter().find(|(n, _)| n == "-c") {
        if script.is_literal {
            ctx.nested(&script.text);
        } else {
            unreadable(ctx, written(), "built at run time");
        }
        return;
    }
    if parsed.has(&["-s"]) || parsed.operands.is_empty() {
        match ctx.stdin.clone() {
            Stdin::Text(text) => ctx.nested(&text),
            Stdin::Unknown => unreadable(ctx, written(), "piped from another program's output"),
            Stdin::Inherited => {}
        }
        return;
    }
    let file = parsed.operands[0];
    ctx.add(file, Role::Existing);
    script_file(file, ctx);
}

/// A shell script run from a file (`bash x.sh`, `source x.sh`, `./x.sh` with a shell's `#!`
/// line or none): its findings count; its file operands are its own business.
pub(super) fn script_file(file: &Word, ctx: &mut Ctx) {
    if !file.is_literal {
        return;
    }
    if let Some(text) = read_script(&file.text, ctx) {
        ctx.nested_findings(&text);
    }
}

/// `./x.sh`, `bin/tool`: a file run directly is a shell script when its `#!` line names a shell
/// or it has none (the shell then runs it itself).
pub(super) fn executed(file: &Word, ctx: &mut Ctx) {
    let Some(text) = (file.is_literal).then(|| read_script(&file.text, ctx)).flatten() else {
        return;
    };
    let first = text.lines().next().unwrap_or("");
    let is_shell_script = first.strip_prefix("#!").is_none_or(|line| {
        let mut parts = line.split_whitespace();
        let interpreter = parts.next().unwrap_or("");
        let name = interpreter.rsplit('/').next().unwrap_or("");
        let name =
            if name == "env" { parts.find(|p| !p.starts_with('-')).unwrap_or("") } else { name };
        is_shell(name)
    });
    if is_shell_script {
        ctx.nested_findings(&text);
    }
}

/// `eval WORDS`: the words joined are a script.
pub(super) fn eval(args: &[Word], ctx: &mut Ctx) {
    if args.iter().all(|w| w.is_literal) {
        let script = words(args);
        ctx.nested(&script);
    } else {
        unreadable(ctx, format!("eval {}", words(args)), "built at run time");
    }
}

/// `alias NAME='VALUE'`: what the alias will run.
pub(super) fn alias(args: &[Word], ctx: &mut Ctx) {
    for word in args {
        match word.text.split_once('=') {
            Some((_, body)) if word.is_literal => ctx.nested_findings(body),
            Some(_) => unreadable(ctx, format!("alias {}", word.text), "built at run time"),
            None => {}
        }
    }
}

/// `xargs [OPTIONS] COMMAND...`: the command, with the items it is fed when the script shows
/// them (`echo a b | xargs rm`, `xargs -a FILE`); without them, the command as written, refused
/// when the items decide what it does (a shell, `eval`, `git` beyond reading commands).
pub(super) fn xargs(args: &[Word], ctx: &mut Ctx) {
    let long = &[
        "--max-args",
        "--replace",
        "--max-lines",
        "--delimiter",
        "--max-procs",
        "--max-chars",
        "--eof",
        "--arg-file",
    ];
    let parsed = parse(args, grammar("nILdPsEa", long));
    let value = |names: &[&str]| {
        parsed.values.iter().find(|(n, _)| names.contains(&n.as_str())).map(|(_, w)| w.clone())
    };
    let command: Vec<Word> = parsed.operands.iter().map(|w| (*w).clone()).collect();
    if command.is_empty() {
        return;
    }
    let text = match value(&["-a", "--arg-file"]) {
        Some(file) => file.is_literal.then(|| read_script(&file.text, ctx)).flatten(),
        None => match &ctx.stdin {
            Stdin::Text(text) => Some(text.clone()),
            _ => None,
        },
    };
    let is_null = parsed.has(&["-0", "--null"]);
    let items = text.and_then(|t| split_items(&t, is_null, value(&["-d", "--delimiter"])));
    let replace = value(&["-I", "--replace"])
        .map(|w| w.text)
        .filter(|marker| !marker.is_empty())
        .or_else(|| parsed.has(&["-i"]).then(|| "{}".to_owned()));
    match items {
        Some(items) if items.len() <= MAX_ITEMS => {
            for words in fed(&command, &items, replace.as_deref()) {
                ctx.run_words(words);
            }
        }
        _ => {
            ctx.run_words(command.clone());
            if hands_over(&command) {
                unreadable(
                    ctx,
                    format!("xargs {}", words(args)),
                    "its arguments come from the \
                                                                  output of another program",
                );
            }
        }
    }
}

fn split_items(text: &str, is_null: bool, delimiter: Option<Word>) -> Option<Vec<String>> {
    let parts: Vec<String> = if is_null {
        text.split('\0').map(str::to_owned).collect()
    } else if let Some(d) = delimiter {
        let d = if d.text == "\\n" { "\n".to_owned() } else { d.text };
        text.split(d.as_str()).map(str::to_owned).collect()
    } else {
        shell_words::split(text).ok()?
    };
    Some(parts.into_iter().filter(|p| !p.is_empty()).collect())
}

/// The command lines `xargs` runs: the items appended, or each put in place of `replace`.
fn fed(command: &[Word], items: &[String], replace: Option<&str>) -> Vec<Vec<Word>> {
    let literal = |text: String| Word { text, is_literal: true };
    match replace {
        Some(marker) => items
            .iter()
            .map(|item| command.iter().map(|w| literal(w.text.replace(marker, item))).collect())
            .collect(),
        None => vec![command.iter().cloned().chain(items.iter().cloned().map(literal)).collect()],
    }
}

/// Whether unseen arguments decide what `command` does: anything but git's reading commands
/// and `git add` (a commit's options could come in, `--no-verify` among them).
fn hands_over(command: &[Word]) -> bool {
    let Some((name, args)) = program(command) else { return true };
    match name {
        "git" => !args.first().is_some_and(|w| {
            w.text != "commit" && crate::guard::protect::is_reader("git", &[w.text.as_str()])
        }),
        "eval" | "xargs" | "env" | "sudo" | "patchgate" | "exec" | "command" => true,
        _ => is_shell(name),
    }
}

/// `find ... -exec CMD ... ;` (and `-execdir`, `-ok`, `-okdir`): each command it runs, `{}`
/// standing for files only `find` knows.
pub(super) fn find_exec(args: &[Word], ctx: &mut Ctx) {
    let mut at = 0;
    while at < args.len() {
        if matches!(args[at].text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let end = args[at + 1..]
                .iter()
                .position(|w| w.text == ";" || w.text == "+")
                .map_or(args.len(), |p| at + 1 + p);
            ctx.run_words(args[at + 1..end].to_vec());
            at = end;
        }
        at += 1;
    }
}

/// `apply_patch` (Codex's patch tool run through its shell): the envelope comes as the first
/// word or on standard input (its heredoc); unseen, its targets are unseen files here.
pub(super) fn apply_patch(args: &[Word], ctx: &mut Ctx) {
    let from_word = args.iter().find(|w| w.is_literal && w.text.contains("*** Begin Patch"));
    let text = match (from_word, &ctx.stdin) {
        (Some(word), _) => Some(word.text.clone()),
        (None, Stdin::Text(text)) => Some(text.clone()),
        (None, _) => None,
    };
    match (text, &ctx.cwd) {
        (Some(text), Some(cwd)) => {
            let paths = envelope::paths(&text, cwd);
            ctx.plan.operands.extend(paths);
        }
        (Some(_), None) => {}
        (None, _) => write::applies(None, None, "apply_patch", ctx),
    }
}

fn words(args: &[Word]) -> String {
    args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
}
