//! The `patchgate` command: clap arguments, a library call, an exit code. Nothing else.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
