//! The `seqloc` binary: parses the command line and runs one subcommand (see `cli`).

mod cli;

fn main() -> std::process::ExitCode {
    let worker = std::thread::Builder::new()
        .name("seqloc".into())
        .stack_size(seqloc::STACK_BYTES)
        .spawn(cli::main);
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        // The panic message has been printed by the panic hook.
        Ok(Err(_)) => std::process::ExitCode::from(101),
        // No thread could be started (address space limited): run here.
        Err(_) => cli::main(),
    }
}
