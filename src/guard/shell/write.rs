//! Commands that write files named in their words (`tee`, `dd of=`, `install`, `truncate`,
//! `curl -o`, `wget -O`, `sponge`, `mkfifo`), and commands that write files their words do not
//! name: archives (`tar x`, `unzip`, `7z x`, `cpio -i`) and patches (`patch`, `git apply`),
//! whose targets are read from the patch when the script shows it, and otherwise recorded as a
//! directory that receives unseen files ([`Role::Extract`]), which may not hold what configures
//! the gate.

use super::args::{Grammar, Parsed, grammar, parse};
use super::lex::Word;
use super::{Ctx, Stdin};
use crate::guard::{Role, protect};

/// Patches read from a file at most this large; a larger one counts as unseen.
const MAX_PATCH_BYTES: u64 = 16 << 20;

/// The rule for `name`, when it is a command this module knows.
pub(super) fn rule(name: &str, args: &[Word], ctx: &mut Ctx) -> bool {
    match name {
        "tee" | "sponge" => {
            let parsed = parse(args, grammar("", &["--output-error"]));
            ctx.add_all(parsed.operands, Role::Create);
        }
        "mkfifo" | "mknod" => {
            let parsed = parse(args, grammar("mZ", &["--mode", "--context"]));
            ctx.add_all(parsed.operands.first().copied(), Role::Create);
        }
        "truncate" => {
            let parsed = parse(args, grammar("rs", &["--reference", "--size"]));
            ctx.add_all(parsed.operands, Role::Create);
        }
        "dd" => dd(args, ctx),
        "install" => install(args, ctx),
        "curl" => downloads(args, &["-o", "--output"], "oHdXAeEuxTwKbcrCmY", ctx),
        "wget" => downloads(args, &["-O", "--output-document"], "OoaePtTUYwQ", ctx),
        "tar" | "bsdtar" => tar(args, ctx),
        "unzip" => archive_into(args, grammar("dxP", &[]), &["-d"], 1, ctx),
        "7z" | "7za" | "7zz" => seven_zip(args, ctx),
        "cpio" if args.iter().any(|w| w.text.starts_with("-i") || w.text == "--extract") => {
            extract_into(None, ctx);
        }
        "patch" => patch(args, ctx),
        "npm" | "pnpm" => package_settings(args, ctx),
        _ => return false,
    }
    true
}

/// `npm pkg set scripts.prepare=...`, `npm pkg delete husky`, `npm set-script prepare ...`:
/// a write of `package.json` where husky's settings live (judged as any write of it).
fn package_settings(args: &[Word], ctx: &mut Ctx) {
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let is_husky_key = |key: &str| {
        let key = key.split('=').next().unwrap_or("");
        key == "husky" || key.starts_with("husky.") || key == "scripts.prepare"
    };
    let sets = match words.as_slice() {
        ["pkg", "set" | "delete", keys @ ..] => keys.iter().any(|k| is_husky_key(k)),
        ["set-script", "prepare", ..] => true,
        _ => false,
    };
    if sets {
        ctx.add(&Word { text: "package.json".to_owned(), is_literal: true }, Role::Create);
    }
}

/// `dd if=IN of=OUT`: operands are `key=value` words.
fn dd(args: &[Word], ctx: &mut Ctx) {
    for word in args {
        let value = |text: &str| Word { text: text.to_owned(), is_literal: word.is_literal };
        if let Some(out) = word.text.strip_prefix("of=") {
            ctx.add(&value(out), Role::Create);
        } else if let Some(input) = word.text.strip_prefix("if=") {
            ctx.add(&value(input), Role::Existing);
        }
    }
}

/// `install [-m MODE] SRC... DEST`, `install -t DIR SRC...`, `install -d DIR...`.
fn install(args: &[Word], ctx: &mut Ctx) {
    let long = &["--mode", "--owner", "--group", "--target-directory", "--suffix"];
    let parsed = parse(args, grammar("mogtSZ", long));
    if parsed.has(&["-d", "--directory"]) {
        ctx.add_all(parsed.operands, Role::CreateDirs);
        return;
    }
    sources_and_destination(&parsed, ctx);
}

/// `cp`, `mv`, `install`: sources exist; the last operand (or `-t DIR`) receives them.
pub(super) fn sources_and_destination(parsed: &Parsed<'_>, ctx: &mut Ctx) {
    if let Some(dir) = parsed.value(&["-t", "--target-directory"]) {
        ctx.add(dir, Role::Directory);
        ctx.add_all(parsed.operands.iter().copied(), Role::Existing);
        return;
    }
    match parsed.operands.split_last() {
        Some((dest, sources)) if !sources.is_empty() => {
            ctx.add_all(sources.iter().copied(), Role::Existing);
            ctx.add(dest, Role::Create);
        }
        _ => ctx.add_all(parsed.operands.iter().copied(), Role::Existing),
    }
}

/// `curl -o FILE URL`, `wget -O FILE URL`: the output file (`-` is standard output).
fn downloads(args: &[Word], outputs: &[&str], short_values: &'static str, ctx: &mut Ctx) {
    let long = &["--output", "--output-document", "--data", "--header", "--user", "--request"];
    let parsed = parse(args, grammar(short_values, long));
    for (name, value) in &parsed.values {
        if outputs.contains(&name.as_str()) {
            ctx.add(value, Role::Create);
        }
    }
}

/// `tar x`: its members are written into `-C DIR` (or the working directory) unless it names
/// them; `-P` keeps absolute names and `..`, so it may write anywhere.
fn tar(args: &[Word], ctx: &mut Ctx) {
    let Some(first) = args.first() else { return };
    // The first word may be a bundle of letters without a dash (`tar xzf a.tgz`).
    let bundle = if first.text.starts_with('-') { "" } else { first.text.as_str() };
    let rest = if bundle.is_empty() { args } else { &args[1..] };
    let long = &["--file", "--directory", "--exclude", "--transform", "--strip-components"];
    let parsed = parse(rest, grammar("fCTXb", long));
    let extracts = bundle.contains('x')
        || parsed.has(&["-x", "--extract", "--get"])
        || parsed.flags.iter().any(|f| f.starts_with("-x"));
    if !extracts {
        return;
    }
    if bundle.contains('P') || parsed.has(&["-P", "--absolute-names"]) {
        let reason = "extracts with absolute member names and '..' kept (-P), so it can write \
                      anywhere, including what configures the gate; extract without -P";
        ctx.refuse(format!("tar {}", words(args)), reason.to_owned());
        return;
    }
    let dir = parsed.values.iter().find(|(n, _)| n == "-C" || n == "--directory").map(|(_, w)| w);
    // With a bundle, the archive is the first operand; named members follow it.
    let skip = usize::from(bundle.contains('f') && !parsed.values.iter().any(|(n, _)| n == "-f"));
    let members: Vec<&Word> = parsed.operands.iter().skip(skip).copied().collect();
    if members.is_empty() {
        extract_into(dir, ctx);
    } else {
        in_dir(dir, ctx, |ctx| ctx.add_all(members, Role::Create));
    }
}

/// `unzip ARCHIVE [MEMBER...] [-d DIR]`: members named after the archive, or every member.
fn archive_into(args: &[Word], grammar: Grammar, dir_flags: &[&str], skip: usize, ctx: &mut Ctx) {
    let parsed = parse(args, grammar);
    let dir = parsed.values.iter().find(|(n, _)| dir_flags.contains(&n.as_str())).map(|(_, w)| w);
    let members: Vec<&Word> = parsed.operands.iter().skip(skip).copied().collect();
    if members.is_empty() {
        extract_into(dir, ctx);
    } else {
        in_dir(dir, ctx, |ctx| ctx.add_all(members, Role::Create));
    }
}

/// `7z x ARCHIVE [-oDIR]`.
fn seven_zip(args: &[Word], ctx: &mut Ctx) {
    if !args.first().is_some_and(|w| matches!(w.text.as_str(), "x" | "e")) {
        return;
    }
    let dir = args.iter().find_map(|w| {
        let text = w.text.strip_prefix("-o")?;
        Some(Word { text: text.to_owned(), is_literal: w.is_literal })
    });
    extract_into(dir.as_ref(), ctx);
}

/// Files the command writes without naming them go into `dir` (or the working directory).
fn extract_into(dir: Option<&Word>, ctx: &mut Ctx) {
    match dir {
        Some(dir) => ctx.add(dir, Role::Extract),
        None => ctx.add(&Word { text: ".".to_owned(), is_literal: true }, Role::Extract),
    }
}

/// Run `f` with `dir` (relative to the working directory) as the working directory.
fn in_dir(dir: Option<&Word>, ctx: &mut Ctx, f: impl FnOnce(&mut Ctx)) {
    let Some(dir) = dir.filter(|d| d.is_literal) else {
        f(ctx);
        return;
    };
    ctx.add(dir, Role::Directory);
    let saved = ctx.cwd.clone();
    ctx.cwd = saved.as_ref().map(|cwd| cwd.join(&dir.text));
    f(ctx);
    ctx.cwd = saved;
}

/// GNU `patch`: the patch comes from `-i FILE`, a redirect or heredoc (the standard input);
/// `-d DIR` is where it applies. `--dry-run` writes nothing.
fn patch(args: &[Word], ctx: &mut Ctx) {
    let long = &["--input", "--directory", "--strip", "--output", "--backup", "--reject-file"];
    let parsed = parse(args, grammar("idpoBrFVYz", long));
    if parsed.has(&["--dry-run", "-C", "--check"]) {
        return;
    }
    let input = parsed.values.iter().find(|(n, _)| n == "-i" || n == "--input").map(|(_, w)| w);
    let dir = parsed.values.iter().find(|(n, _)| n == "-d" || n == "--directory").map(|(_, w)| w);
    // `patch FILE PATCHFILE`: the second operand is the patch.
    let text = match (input.or(parsed.operands.get(1).copied()), &ctx.stdin) {
        (Some(file), _) => read_patch(file, ctx),
        (None, Stdin::Text(text)) => Some(text.clone()),
        (None, _) => None,
    };
    applies(text.as_deref(), dir, "patch", ctx);
}

/// A patch the command applies in `dir`: refused when it names what configures the gate; when
/// its text is unknown, its targets are unseen files in `dir`.
pub(super) fn applies(text: Option<&str>, dir: Option<&Word>, command: &str, ctx: &mut Ctx) {
    let Some(text) = text else {
        extract_into(dir, ctx);
        return;
    };
    for entry in patch_targets(text).iter().filter_map(|p| protect::named(p)) {
        ctx.changes_protected(entry, command.to_owned());
    }
}

/// A patch file's text, when the word names a readable file of reasonable size.
pub(super) fn read_patch(file: &Word, ctx: &Ctx) -> Option<String> {
    if !file.is_literal {
        return None;
    }
    let path = ctx.cwd.as_ref()?.join(&file.text);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.len() <= MAX_PATCH_BYTES).then_some(())?;
    std::fs::read(path).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Every path a patch's headers name (git's `diff --git`, `---`/`+++`, context diffs' `***`,
/// renames and copies, `Index:`), as written, prefixes and all: a protected entry is found by
/// its last components whatever `-p` strips.
fn patch_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let names: Vec<&str> = if let Some(rest) = line.strip_prefix("diff --git ") {
            rest.split(' ').collect()
        } else if let Some(rest) = [
            "--- ",
            "+++ ",
            "*** ",
            "Index: ",
            "rename to ",
            "copy to ",
            "rename from ",
            "copy from ",
        ]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        {
            vec![rest.split('\t').next().unwrap_or(rest)]
        } else {
            continue;
        };
        out.extend(names.into_iter().map(|n| n.trim().trim_matches('"').to_owned()));
    }
    out
}

fn words(args: &[Word]) -> String {
    args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
}
