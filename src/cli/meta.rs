//! `patchgate completions SHELL` and `patchgate man DIR`: generated from the clap definitions,
//! so they never drift from the commands; `patchgate schema NAME`: the JSON Schemas, generated
//! from the types (for pip and npm users, who have no `schemas/` folder).

use super::{CliError, CliResult};
use patchgate::finding::ErrorCode;
use patchgate::report::Exit;
use std::path::PathBuf;

// Arguments of `patchgate completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

// Arguments of `patchgate man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// The directory to write `patchgate.1` and `patchgate-COMMAND.1` into (created if needed).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

// Arguments of `patchgate schema`.
#[derive(Debug, clap::Args)]
pub(crate) struct SchemaArgs {
    /// The schema to print (`step`, `execute-step`, `report`, ...); without it, the names.
    #[arg(value_name = "NAME")]
    name: Option<String>,
}

pub(crate) fn schema(args: &SchemaArgs) -> CliResult {
    let schemas = patchgate::report::json_schemas();
    let names: Vec<&str> =
        schemas.iter().map(|(file, _)| file.trim_end_matches(".schema.json")).collect();
    let Some(wanted) = &args.name else {
        out!("{}\n", names.join("\n"));
        return Ok(Exit::Accepted);
    };
    let wanted = wanted.trim_end_matches(".json").trim_end_matches(".schema");
    match names.iter().position(|name| *name == wanted) {
        Some(i) => {
            out!("{}\n", schemas[i].1);
            Ok(Exit::Accepted)
        }
        None => Err(CliError::new(
            ErrorCode::Usage,
            format!("no schema named '{wanted}'; the schemas are: {}", names.join(", ")),
        )),
    }
}

pub(crate) fn completions(args: &CompletionsArgs, command: &mut clap::Command) -> Exit {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, command, "patchgate", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Exit::Accepted
}

pub(crate) fn man(args: &ManArgs, command: &clap::Command) -> CliResult {
    let fail = |e: std::io::Error| {
        CliError::new(
            ErrorCode::Io,
            format!("cannot write man pages into '{}': {e}", args.dir.display()),
        )
    };
    std::fs::create_dir_all(&args.dir).map_err(fail)?;
    clap_mangen::generate_to(command.clone(), &args.dir).map_err(fail)?;
    Ok(Exit::Accepted)
}
