//! The tools of `patchgate mcp` (a Model Context Protocol server): their names, what each
//! tells a model, and the arguments each takes, whose JSON Schemas are published under
//! `schemas/mcp/` and served as the tools' input schemas. Each tool answers
//! with the JSON its command prints.

use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;

/// One tool: its name, its description for the model, and its input schema as committed under
/// `schemas/mcp/` (a test keeps the files equal to the argument types).
#[derive(Clone, Copy, Debug)]
pub struct McpTool {
    /// The tool's name.
    pub name: &'static str,
    /// What the tool does, when to call it, and what it answers: what a model reads.
    pub description: &'static str,
    /// The input schema (JSON), `schemas/mcp/NAME.schema.json`.
    pub schema: &'static str,
}

/// Every tool `patchgate mcp` serves.
pub const MCP_TOOLS: [McpTool; 4] = [
    McpTool {
        name: "validate_result",
        description: "Judge an executor result (a unified diff and the files it declares) \
            against the step it carries out, as `patchgate validate` does: the eight rules, then \
            an apply-and-rollback check against the repository's base tree. Call it on your own \
            diff before you answer. Answers with the verdict line {\"valid\", \"reason\"} (the \
            reason starts with the rule that rejected, and says what to fix), then the full \
            report.",
        schema: include_str!("../../schemas/mcp/validate_result.schema.json"),
    },
    McpTool {
        name: "repair_patch",
        description: "Repair what is provably safe to repair in a unified diff (hunk counts, \
            start lines, blank context lines, markdown fences and chat around it, a missing \
            `diff --git` line) and prove it applies to the base, as `patchgate repair --format \
            json` does. Answers with the repaired patch, each repair, and each refusal.",
        schema: include_str!("../../schemas/mcp/repair_patch.schema.json"),
    },
    McpTool {
        name: "parse_patch",
        description: "Parse a unified diff strictly, as `patchgate parse --format json` does: \
            its files, hunks and +/- counts, or every defect with its line.",
        schema: include_str!("../../schemas/mcp/parse_patch.schema.json"),
    },
    McpTool {
        name: "check_paths",
        description: "Check paths before you use them, as `patchgate paths --format json` \
            does: each is kept, or filtered with the reason (absolute, `~`, traversal, under \
            .git, missing).",
        schema: include_str!("../../schemas/mcp/check_paths.schema.json"),
    },
];

/// The arguments of `validate_result`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "ValidateResultArgs")]
pub struct ValidateResultArgs {
    /// The step the result carries out (`schemas/step.schema.json`; only `description` is
    /// required), or its JSON text.
    #[schemars(with = "crate::batch::StepInput")]
    pub step: Value,
    /// The executor result (`schemas/execute-step.schema.json`: `mode`, `success`, `patch`,
    /// `filesWritten`, `filesTouched`, `summary`), or its raw text.
    #[schemars(with = "crate::batch::ResultInput")]
    pub result: Value,
    /// The repository to judge against (default: the server's).
    pub repo: Option<PathBuf>,
    /// The revision the patch applies to (default: the step's `base`, else `HEAD`).
    pub base: Option<String>,
    /// Leading path components to strip from the patch's names, as `git apply -pN` (default
    /// 1; 0 for bare paths).
    pub strip: Option<usize>,
    /// Repair what is provably safe first, then judge the repaired result.
    pub repair: Option<bool>,
}

/// The arguments of `repair_patch`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "RepairPatchArgs")]
pub struct RepairPatchArgs {
    /// The unified diff, as the agent wrote it.
    pub patch: String,
    /// The repository the patch is meant for (default: the server's).
    pub repo: Option<PathBuf>,
    /// The revision the patch applies to (default `HEAD`).
    pub base: Option<String>,
    /// Leading path components to strip, as `git apply -pN` (default 1).
    pub strip: Option<usize>,
    /// Repair without a repository (nothing that only the base could confirm).
    pub no_repo: Option<bool>,
}

/// The arguments of `parse_patch`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "ParsePatchArgs")]
pub struct ParsePatchArgs {
    /// The unified diff.
    pub patch: String,
    /// Leading path components to strip, as `git apply -pN` (default 1).
    pub strip: Option<usize>,
    /// Tolerate text outside file entries (markdown fences, chat); still reported.
    pub lenient: Option<bool>,
}

/// The arguments of `check_paths`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "CheckPathsArgs")]
pub struct CheckPathsArgs {
    /// The paths to check.
    pub paths: Vec<String>,
    /// The directory they are relative to (default: the repository's root).
    pub root: Option<PathBuf>,
}
