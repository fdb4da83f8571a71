//! `patchgate review`: list, show, apply, export and drop rejected results.

mod apply;
mod output;

use super::{CliError, CliResult, Format, Global, Stream};
use output::{emit, show_paged};
use patchgate::finding::ErrorCode;
use patchgate::report::review::{
    ActionOutcome, annotate, list_ids, list_rows, list_text, show_text,
};
use patchgate::report::{Exit, Notice, message};
use patchgate::review::{Entry, Store, StoredRef, parse_since, short_ids};
use patchgate::rule::RuleId;
use std::path::PathBuf;
use std::time::SystemTime;

// Arguments of `patchgate review`; without a subcommand it lists.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// List rejected results, newest first: id, age, step, rule, reason, files (the default).
    List(ListArgs),
    /// Show one rejected result: its step, its verdict, and the patch with every violation
    /// annotated at its line.
    Show(ShowArgs),
    /// Re-validate one result against the current HEAD and apply it (worktree, and index with
    /// `--index`) only if every remaining violation's rule is named with `--override`.
    Apply(ApplyArgs),
    /// Write one result's patch as a file `git apply` takes (default: standard output).
    Export(ExportArgs),
    /// Remove rejected results from the store.
    Drop(DropArgs),
}

#[derive(Debug, Default, clap::Args)]
struct ListArgs {
    /// Only results one of whose violations belongs to RULE (`scope`, `undeclared`, ...).
    #[arg(long, value_name = "RULE")]
    rule: Option<String>,
    /// Only results of the step with this `id`.
    #[arg(long, value_name = "STEP_ID")]
    step: Option<String>,
    /// Only results rejected since WHEN: a duration back from now (`2h`, `3d`), a UTC date
    /// (`2026-11-20`) or timestamp (`2026-11-20T14:00:00Z`).
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// The entry's id, or any unique prefix of 4 or more hex digits.
    id: String,
    /// Do not page the output, even on a terminal.
    #[arg(long)]
    no_pager: bool,
}

#[derive(Debug, clap::Args)]
struct ApplyArgs {
    /// The entry's id, or any unique prefix of 4 or more hex digits.
    id: String,
    /// A rule whose violations you accept (`--override scope --override undeclared`).
    #[arg(long = "override", value_name = "RULE")]
    overrides: Vec<String>,
    /// Also stage the changes in the index.
    #[arg(long)]
    index: bool,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// The entry's id, or any unique prefix of 4 or more hex digits.
    id: String,
    /// Write the patch to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["ids", "all"])))]
struct DropArgs {
    /// The entries' ids (unique prefixes of 4 or more hex digits).
    ids: Vec<String>,
    /// Remove every entry, readable or not.
    #[arg(long)]
    all: bool,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let (repository, store) = open(global)?;
    match &args.command {
        None => list(&store, &args.list, global),
        Some(Sub::List(list_args)) => list(&store, list_args, global),
        Some(Sub::Show(show_args)) => show(&repository, &store, show_args, global),
        Some(Sub::Apply(apply_args)) => apply::run(&repository, &store, apply_args, global),
        Some(Sub::Export(export_args)) => export(&store, export_args, global),
        Some(Sub::Drop(drop_args)) => drop_entries(&store, drop_args, global),
    }
}

fn open(global: &Global) -> Result<(git2::Repository, Store), CliError> {
    let repository = patchgate::repo::discover(global.repo.as_deref())?;
    let store = Store::for_repo(&repository);
    Ok((repository, store))
}

fn list(store: &Store, args: &ListArgs, global: &Global) -> CliResult {
    let now = SystemTime::now();
    let filter = Filter::new(args, now)?;
    let listing = store.list().map_err(CliError::from)?;
    let warnings: Vec<Notice> = listing.skipped.iter().map(message::skipped_entry).collect();
    global.warn(&warnings);
    let kept: Vec<Entry> = listing.entries.into_iter().filter(|e| filter.keeps(e)).collect();
    let rows = list_rows(&kept, now);
    if is_json(global) {
        global.print_json_with(&rows, &warnings);
    } else if global.quiet {
        emit(&list_ids(&rows));
    } else if rows.is_empty() {
        emit("no rejected results\n");
    } else {
        emit(&list_text(&rows, output::terminal_columns()));
    }
    Ok(Exit::Accepted)
}

/// `review list`'s filters, checked before the store is read.
struct Filter<'a> {
    rule: Option<RuleId>,
    step: Option<&'a str>,
    since: Option<SystemTime>,
}

impl<'a> Filter<'a> {
    fn new(args: &'a ListArgs, now: SystemTime) -> Result<Self, CliError> {
        let rule = match args.rule.as_deref() {
            Some(name) => Some(RuleId::from_name(name).ok_or_else(|| unknown_rule(name))?),
            None => None,
        };
        let since = match args.since.as_deref() {
            Some(text) => {
                Some(parse_since(text, now).map_err(|m| CliError::new(ErrorCode::Usage, m))?)
            }
            None => None,
        };
        Ok(Self { rule, step: args.step.as_deref(), since })
    }

    fn keeps(&self, e: &Entry) -> bool {
        self.rule.is_none_or(|r| e.report.has(r))
            && self.step.is_none_or(|s| e.step_id() == Some(s))
            && self.since.is_none_or(|t| e.time >= t)
    }
}

pub(super) fn unknown_rule(name: &str) -> CliError {
    let known: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
    CliError::new(
        ErrorCode::Usage,
        format!("unknown rule '{name}'; the rules are {}", known.join(", ")),
    )
}

/// Whether `review` answers in JSON (its default is text).
fn is_json(global: &Global) -> bool {
    global.format == Some(Format::Json)
}

/// Resolve `id` and read its entry, with its shown (short) id.
fn load(store: &Store, id: &str) -> Result<(StoredRef, Entry, String), CliError> {
    let found = store.resolve(id).map_err(CliError::from)?;
    let entry = store.load(&found).map_err(CliError::from)?;
    let short = shown_id(store, &found)?;
    Ok((found, entry, short))
}

/// The id as `review list` shows it (longer than 8 digits only when another entry shares them).
fn shown_id(store: &Store, found: &StoredRef) -> Result<String, CliError> {
    let (refs, _) = store.refs().map_err(CliError::from)?;
    let ids: Vec<&str> = refs.iter().map(|r| r.id.as_str()).collect();
    Ok(short_ids(&ids).remove(found.id.as_str()).unwrap_or_else(|| found.id.clone()))
}

fn show(
    repository: &git2::Repository,
    store: &Store,
    args: &ShowArgs,
    global: &Global,
) -> CliResult {
    let (_, entry, short) = load(store, &args.id)?;
    let view = annotate(&entry, &short);
    if is_json(global) {
        global.print_json(&view);
        return Ok(Exit::Accepted);
    }
    let text = show_text(&view, &global.palette(Stream::Stdout), SystemTime::now());
    if args.no_pager {
        emit(&text);
    } else {
        show_paged(repository, &text);
    }
    Ok(Exit::Accepted)
}

fn export(store: &Store, args: &ExportArgs, global: &Global) -> CliResult {
    let json = is_json(global);
    let (_, entry, short) = load(store, &args.id)?;
    let mut patch = entry.patch_or_why().map(str::to_owned).map_err(|why| {
        CliError::new(
            ErrorCode::NoPatch,
            format!(
                "nothing to export: the result of {short} {why}; see `patchgate review show {short}`"
            ),
        )
    })?;
    if !patch.ends_with('\n') {
        // git apply reads a last line without its newline as a corrupt patch.
        patch.push('\n');
    }
    let mut outcome = ActionOutcome::new("exported", vec![short]);
    match &args.output {
        Some(file) => {
            output::write_atomic(file, patch.as_bytes())?;
            outcome.files.push(file.display().to_string());
        }
        None if !json => emit(&patch),
        None => outcome.patch = Some(patch),
    }
    if json {
        global.print_json(&outcome);
    }
    Ok(Exit::Accepted)
}

fn drop_entries(store: &Store, args: &DropArgs, global: &Global) -> CliResult {
    let refs: Vec<StoredRef> = if args.all {
        store.refs().map_err(CliError::from)?.0
    } else {
        // Resolve every id before removing any: one typo must not leave the drop half done.
        args.ids
            .iter()
            .map(|id| store.resolve(id))
            .collect::<Result<_, _>>()
            .map_err(CliError::from)?
    };
    let (all_refs, _) = store.refs().map_err(CliError::from)?;
    let all_ids: Vec<&str> = all_refs.iter().map(|r| r.id.as_str()).collect();
    let short = short_ids(&all_ids);
    let mut shown: Vec<String> = Vec::with_capacity(refs.len());
    for r in &refs {
        store.remove(r).map_err(CliError::from)?;
        let id = short.get(r.id.as_str()).cloned().unwrap_or_else(|| r.id.clone());
        if !shown.contains(&id) {
            shown.push(id);
        }
    }
    let outcome = ActionOutcome::new("dropped", shown);
    if is_json(global) {
        global.print_json(&outcome);
    } else if !global.quiet {
        emit(&format!("dropped {} rejected result(s)\n", outcome.ids.len()));
    }
    Ok(Exit::Accepted)
}
