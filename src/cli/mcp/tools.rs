//! What each MCP tool runs: the library calls of its command, answered with the JSON the
//! command prints (`--format json`), one text block per document.

use super::super::contract::sandbox_root;
use super::super::{CliError, Global, envelope_json};
use patchgate::contract::filter_paths;
use patchgate::finding::ErrorCode;
use patchgate::patch::ParseOptions;
use patchgate::report::mcp::{CheckPathsArgs, ParsePatchArgs, RepairPatchArgs, ValidateResultArgs};
use patchgate::report::{
    Envelope, Meta, ParseSummary, PathsReport, RepairReport, report_json, to_json_line,
    verdict_json, write_parse_envelope,
};
use patchgate::validate::{JudgeChoice, Run};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::Path;

/// `validate_result`: the verdict line `validate` prints, then the report `--report` writes.
/// The run is `validate --no-record`'s (a self-check is not kept for `patchgate review`), with
/// its default judge: the policy's `[judge] model`, when it names one.
pub(super) fn validate_result(arguments: Value, global: &Global) -> Result<Vec<String>, CliError> {
    let args: ValidateResultArgs = read_arguments(arguments)?;
    let step = patchgate::validate::read_step(&document(&args.step))
        .map_err(|e| CliError::new(ErrorCode::InvalidStep, e.to_string()))?;
    let repo = open_repo(args.repo.as_deref(), global)?;
    let run = Run {
        strip: args.strip.unwrap_or(1),
        base: args.base,
        repair: args.repair == Some(true),
        judge: JudgeChoice::Model { model: None, when: None, timeout: None },
        record: false,
        // The answer carries the report, as `--report` writes it.
        is_full_summary: true,
        ..Run::default()
    };
    let ran = run.execute(&step, document(&args.result), Some(&repo))?;
    Ok(vec![verdict_json(&ran.outcome.report), report_json(&ran.outcome.report)])
}

/// `repair_patch`: what `repair --format json` prints.
pub(super) fn repair_patch(arguments: Value, global: &Global) -> Result<Vec<String>, CliError> {
    let args: RepairPatchArgs = read_arguments(arguments)?;
    let repo = match args.no_repo {
        Some(true) => None,
        _ => Some(open_repo(args.repo.as_deref(), global)?),
    };
    let base = args.base.as_deref().unwrap_or("HEAD");
    let ctx = patchgate::repair::Context { repo: repo.as_ref(), base };
    let options = patchgate::repair::Options { parse: parse_options(args.strip, false) };
    let outcome = patchgate::repair::repair(args.patch.as_bytes(), &ctx, &options)?;
    Ok(vec![envelope_json("repair", &RepairReport::new(&outcome))])
}

/// `parse_patch`: what `parse --format json` prints, within the same `[limits]`.
pub(super) fn parse_patch(arguments: Value, global: &Global) -> Result<Vec<String>, CliError> {
    let args: ParsePatchArgs = read_arguments(arguments)?;
    let limits = super::super::policy_limits(global.repo.as_deref())?;
    let options = parse_options(args.strip, args.lenient == Some(true));
    let parsed = super::super::parse::parse_within(args.patch.as_bytes(), &options, &limits)?;
    let mut text = Vec::new();
    write_parse_envelope(&mut text, &ParseSummary::new(&parsed), &[], &Meta::new("parse"))
        .expect("writing to memory cannot fail");
    Ok(vec![String::from_utf8(text).expect("the envelope is UTF-8")])
}

/// `check_paths`: what `paths --format json` prints.
pub(super) fn check_paths(arguments: Value, global: &Global) -> Result<Vec<String>, CliError> {
    let args: CheckPathsArgs = read_arguments(arguments)?;
    let root = sandbox_root(args.root.as_deref(), global)?;
    let report = PathsReport::new(filter_paths(&args.paths, &root));
    Ok(vec![envelope_json("paths", &report)])
}

/// The error envelope the command prints with `--format json` when it cannot answer.
pub(super) fn error_json(tool: &str, e: &CliError) -> String {
    let meta = Meta::new(tool);
    to_json_line(&Envelope::failure(e.code, &e.message, serde_json::Map::new(), meta))
}

fn read_arguments<T: DeserializeOwned>(arguments: Value) -> Result<T, CliError> {
    serde_json::from_value(arguments).map_err(|e| {
        CliError::new(ErrorCode::Usage, format!("{e}; the tool's input schema says what it takes"))
    })
}

/// A document given as JSON (sent on as its JSON text) or as text (sent as it is).
fn document(value: &Value) -> Vec<u8> {
    match value {
        Value::String(text) => text.clone().into_bytes(),
        other => serde_json::to_vec(other).expect("a JSON value serializes"),
    }
}

fn parse_options(strip: Option<usize>, is_lenient: bool) -> ParseOptions {
    ParseOptions { is_strict: !is_lenient, strip: strip.unwrap_or(1), ..ParseOptions::default() }
}

/// The repository a call names, else the server's (`--repo`, else the one around the
/// directory it runs in).
fn open_repo(dir: Option<&Path>, global: &Global) -> Result<git2::Repository, CliError> {
    let dir = dir.or(global.repo.as_deref());
    patchgate::repo::discover(dir).map_err(CliError::from)
}
