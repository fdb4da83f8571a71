//! `patchgate declare`: record, show or clear the files the current work may change.

use super::{CliError, CliResult, Format, Global, read_input};
use patchgate::declare::{Declaration, Store, check_patterns, literal, trailer_lines};
use patchgate::finding::ErrorCode;
use patchgate::report::declare::{DeclarationReport, declaration_text};
use patchgate::report::{Exit, message};

// Arguments of `patchgate declare`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Paths or globs, relative to the repository root (`src/a.rs`, `src/**/*.rs`); added to
    /// the active declaration.
    patterns: Vec<String>,
    /// Declare the `filesWritten` of an executor result JSON (`-`: stdin).
    #[arg(long, value_name = "RESULT")]
    from_result: Vec<String>,
    /// Declare the `allowedFiles` of a step JSON (`-`: stdin).
    #[arg(long, value_name = "STEP")]
    from_step: Vec<String>,
    /// Replace the active declaration instead of adding to it.
    #[arg(long)]
    replace: bool,
    /// Print the active declaration.
    #[arg(long, conflicts_with_all = ["clear", "trailer", "replace"])]
    show: bool,
    /// Remove the active declaration.
    #[arg(long, conflicts_with_all = ["trailer", "replace"])]
    clear: bool,
    /// Print the active declaration as `Patchgate-Declared:` commit-message trailer lines.
    #[arg(long, conflicts_with = "replace")]
    trailer: bool,
}

pub(crate) fn run(args: &Args, global: &Global) -> CliResult {
    let adding =
        !args.patterns.is_empty() || !args.from_result.is_empty() || !args.from_step.is_empty();
    if adding && (args.show || args.clear || args.trailer) {
        return Err(CliError::new(
            ErrorCode::Usage,
            "--show, --clear and --trailer take no patterns",
        ));
    }
    let repo = patchgate::hook::staged::open(global.repo.as_deref()).map_err(CliError::from)?;
    let store = Store::new(repo.path());
    // The same policy the pre-commit hook enforces: `HEAD`'s `.patchgate.toml`.
    let limits = patchgate::hook::head_config(&repo).map_err(CliError::from)?.limits();
    if args.clear {
        store.clear().map_err(CliError::from)?;
        return show(&store, None, true, global);
    }
    if args.trailer {
        return trailers(&store, global);
    }
    if !adding {
        if args.show {
            return show(&store, None, false, global);
        }
        return Err(CliError::new(
            ErrorCode::Usage,
            "nothing to declare; pass paths or globs, --from-result RESULT or --from-step STEP \
             (or --show, --clear, --trailer)",
        ));
    }
    let sources = collect(args, &limits)?;
    let mut added = 0;
    store
        .update(|d| {
            if args.replace {
                d.entries.clear();
            }
            for (source, patterns) in &sources {
                added += d.add(patterns, source);
            }
        })
        .map_err(CliError::from)?;
    show(&store, Some(added), false, global)
}

/// Every pattern to add, checked, grouped by source.
fn collect(
    args: &Args,
    limits: &patchgate::config::Limits,
) -> Result<Vec<(String, Vec<String>)>, CliError> {
    let mut out = vec![("argument".to_owned(), args.patterns.clone())];
    // An agent's `filesWritten` names files, never globs: each is declared as that path only.
    for file in &args.from_result {
        let paths = list_field(file, "executor result", "filesWritten")?;
        out.push((format!("result:{file}"), paths.iter().map(|p| literal(p)).collect()));
    }
    for file in &args.from_step {
        out.push((format!("step:{file}"), list_field(file, "step", "allowedFiles")?));
    }
    for (_, patterns) in &mut out {
        *patterns = check_patterns(patterns, limits).map_err(|e| {
            let message = format!("{e}; declare repo-relative paths");
            CliError::new(ErrorCode::InvalidPattern, message)
                .with("rejected_pattern", e.code.as_str())
        })?;
    }
    Ok(out)
}

/// The string array `field` of the JSON object in `file`.
fn list_field(file: &str, what: &str, field: &str) -> Result<Vec<String>, CliError> {
    let bytes = read_input(file, what)?;
    if let Some(key) = patchgate::json::duplicate_key(&bytes) {
        let message = format!("the {what} '{file}' names '{key}' twice; give each field once");
        return Err(CliError::new(ErrorCode::DuplicateKey, message));
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        CliError::new(ErrorCode::InvalidJson, format!("the {what} '{file}' is not JSON: {e}"))
    })?;
    let keys = value.as_object().into_iter().flat_map(|o| o.keys().map(String::as_str));
    if let Some((key, _)) = patchgate::json::case_variant(keys, &[field]) {
        let message = format!(
            "the {what} '{file}' names '{key}', which readers that ignore case take for \
             '{field}'; spell the field exactly"
        );
        return Err(CliError::new(ErrorCode::CaseVariantKey, message));
    }
    let list = value.get(field).and_then(serde_json::Value::as_array).ok_or_else(|| {
        CliError::new(
            ErrorCode::MissingField,
            format!("the {what} '{file}' has no '{field}' list; declare the paths explicitly"),
        )
    })?;
    list.iter()
        .map(|v| {
            v.as_str().map(str::to_owned).ok_or_else(|| {
                CliError::new(
                    ErrorCode::InvalidJson,
                    format!("'{field}' in '{file}' holds a non-string"),
                )
            })
        })
        .collect()
}

fn show(store: &Store, added: Option<usize>, is_cleared: bool, global: &Global) -> CliResult {
    let declaration = store.load().map_err(CliError::from)?;
    let report =
        DeclarationReport::new(store.path().display().to_string(), declaration.as_ref(), added);
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&report),
        // `-q`: a change is done silently; `--show` is the answer itself.
        Format::Text if global.quiet && (added.is_some() || is_cleared) => {}
        Format::Text => out!("{}", declaration_text(&report)),
    }
    Ok(Exit::Accepted)
}

fn trailers(store: &Store, global: &Global) -> CliResult {
    let declaration: Declaration = store.load().map_err(CliError::from)?.unwrap_or_default();
    let lines = trailer_lines(&declaration);
    if lines.is_empty() {
        global.say(&message::plain("no active declaration; no trailer to print"));
    }
    match global.format.unwrap_or(Format::Text) {
        Format::Json => global.print_json(&serde_json::json!({ "trailers": lines })),
        Format::Text => lines.iter().for_each(|l| outln!("{l}")),
    }
    Ok(Exit::Accepted)
}
