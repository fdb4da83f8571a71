//! The one integration-test binary: runs the real `patchgate` binary against throwaway git
//! repositories and asserts exit codes and parsed JSON.

mod agent_shapes;
mod alias;
mod batch;
mod case_keys;
mod ci;
mod contract;
mod conventions;
mod crash;
mod docs;
mod escape;
mod escape_git;
mod guard;
mod guard_install;
mod guard_policy;
mod guard_shell;
mod hook;
mod hook_install;
mod journal;
mod judge;
mod layers;
mod limits;
mod managers;
mod meta;
mod model_server;
mod parse;
mod repair;
mod review;
mod scratch;
mod server;
mod submodule;
mod support;
mod trusted;
mod validate;
