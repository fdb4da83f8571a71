//! `patchgate mcp`: a Model Context Protocol server over stdio (the `rmcp` SDK), so an agent can
//! call patchgate on its own diff: `validate_result`, `repair_patch`, `parse_patch`,
//! `check_paths` ([`patchgate::report::mcp::MCP_TOOLS`]). Each tool runs what its command runs
//! (`tools`) and answers with the JSON the command prints; a refused input is a tool error
//! carrying the command's error envelope. The server judges in the repository of `--repo`, or
//! the one around the directory the agent starts it in; a call may name another.

mod tools;

use super::{CliError, CliResult, Global};
use patchgate::finding::ErrorCode;
use patchgate::report::Exit;
use patchgate::report::mcp::MCP_TOOLS;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use std::sync::Arc;

// Arguments of `patchgate mcp` (the global `--repo` chooses the repository).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// What a model reads about the server as a whole.
const INSTRUCTIONS: &str = "patchgate checks unified diffs before they reach a git repository. \
    Before you answer with a diff, call validate_result with the step you were given and your \
    result (mode, success, patch, filesWritten, filesTouched, summary); when it says \
    valid: false, fix what its reason names and call it again. repair_patch fixes mechanical \
    mistakes in a diff (counts, fences, start lines); check_paths checks file paths before you \
    use them.";

pub(crate) fn run(_args: &Args, global: &Global) -> CliResult {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(ErrorCode::Io, format!("cannot start the MCP server: {e}")))?;
    let server = Server { global: global.clone(), tools: tool_list()? };
    runtime.block_on(async move {
        let running = server.serve(rmcp::transport::stdio()).await.map_err(|e| {
            CliError::new(ErrorCode::Mcp, format!("the MCP client did not initialize: {e}"))
        })?;
        running
            .waiting()
            .await
            .map_err(|e| CliError::new(ErrorCode::Mcp, format!("the MCP session ended badly: {e}")))
    })?;
    Ok(Exit::Accepted)
}

/// The tools as listed to the client, their input schemas from `schemas/mcp/`.
fn tool_list() -> Result<Vec<Tool>, CliError> {
    MCP_TOOLS
        .iter()
        .map(|tool| {
            let schema: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(tool.schema).map_err(|e| {
                    CliError::new(
                        ErrorCode::Mcp,
                        format!("the schema of {} is broken: {e}", tool.name),
                    )
                })?;
            Ok(Tool::new(tool.name, tool.description, Arc::new(schema)))
        })
        .collect()
}

/// The server: the process's options (`--repo`) and the tools it lists.
#[derive(Clone)]
struct Server {
    global: Global,
    tools: Vec<Tool>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new("patchgate", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let answered = match request.name.as_ref() {
            "validate_result" => tools::validate_result(arguments, &self.global),
            "repair_patch" => tools::repair_patch(arguments, &self.global),
            "parse_patch" => tools::parse_patch(arguments, &self.global),
            "check_paths" => tools::check_paths(arguments, &self.global),
            other => {
                let message = format!("no tool named '{other}'");
                return Err(ErrorData::invalid_params(message, None));
            }
        };
        let result = match answered {
            Ok(answer) => {
                CallToolResult::success(answer.into_iter().map(ContentBlock::text).collect())
            }
            Err(e) => CallToolResult::error(vec![ContentBlock::text(tools::error_json(
                &request.name,
                &e,
            ))]),
        };
        Ok(result.into())
    }
}
