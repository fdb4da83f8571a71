//! Reading one command line's words: options (with the values they take) and operands, and
//! the wrappers and assignments before the program it runs (`sudo`, `env A=b`, `timeout 5`).

use super::lex::Word;

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

    pub fn value(&self, names: &[&str]) -> Option<&Word> {
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

pub(super) const fn grammar(
    short_values: &'static str,
    long_values: &'static [&'static str],
) -> Grammar {
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

/// The program a command line runs (its name without directories) and its arguments, past
/// assignments and wrappers (`sudo`, `env`, `time`).
pub(super) fn program(words: &[Word]) -> Option<(&str, &[Word])> {
    let (first, args) = strip_prefix(words)?.split_first()?;
    Some((first.text.rsplit('/').next().unwrap_or(&first.text), args))
}

/// Leading words that only wrap the real command; `None` when the rest cannot be analysed.
pub(super) fn strip_prefix(mut words: &[Word]) -> Option<&[Word]> {
    loop {
        let (first, rest) = words.split_first()?;
        if is_assignment(first) {
            words = rest;
            continue;
        }
        words = match first.text.as_str() {
            "then" | "do" | "else" | "elif" | "if" | "while" | "until" | "!" | "{" | "}" | "fi"
            | "done" | "esac" | "time" | "nohup" | "exec" | "builtin" | "command" => rest,
            "for" | "case" | "function" | "select" | "watch" | "parallel" | "trap" => return None,
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

pub(super) fn skip_options(words: &[Word], grammar: Grammar) -> &[Word] {
    let parsed = parse(words, Grammar { is_posix: true, ..grammar });
    let used = words.len() - parsed.operands.len();
    &words[used..]
}

pub(super) fn is_assignment(word: &Word) -> bool {
    let Some((name, _)) = word.text.split_once('=') else { return false };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
