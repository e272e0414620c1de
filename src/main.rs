//! The `seqloc` binary: parses the command line and runs one subcommand (see `cli`).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
