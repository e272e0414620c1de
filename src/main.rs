//! The `seqloc` binary: parses the command line and runs one subcommand (see `cli`).

mod cli;

/// Set by the panic hook when the panic was most likely an allocation that failed.
static OUT_OF_MEMORY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn main() -> std::process::ExitCode {
    // An allocation that fails against an address-space limit (`ulimit -v`, `seqloc
    // sweep`'s RLIMIT_AS) makes a Z3 call return nothing, which the z3 crate unwraps:
    // a panic with a bare `unwrap` message. Z3 asks for large blocks at once (2.3 GB
    // mapped of a 4 GB limit when one failed), so the mapped size alone cannot tell;
    // a panic inside the z3 crate under such a limit, or one with most of the limit
    // mapped, is reported as out of memory, with no answer (exit 3) rather than a crash.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        use seqloc::checker::builtin::stop;
        let in_z3 = info.location().is_some_and(|l| l.file().contains("/z3-"));
        if let Some(limit) = stop::address_space_limit() {
            if in_z3 || stop::near_address_space_limit() {
                OUT_OF_MEMORY.store(true, std::sync::atomic::Ordering::SeqCst);
                eprintln!(
                    "error: out of memory, most likely: the process runs under an address-space limit of {} MB (RLIMIT_AS, `ulimit -v`) and an allocation failed; no answer (the panic below is where)",
                    limit >> 20
                );
            }
        }
        default_hook(info);
    }));
    let worker = std::thread::Builder::new()
        .name("seqloc".into())
        .stack_size(seqloc::STACK_BYTES)
        .spawn(cli::main);
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        // The panic message has been printed by the panic hook.
        Ok(Err(_)) if OUT_OF_MEMORY.load(std::sync::atomic::Ordering::SeqCst) => {
            std::process::ExitCode::from(seqloc::exit::NO_ANSWER)
        }
        Ok(Err(_)) => std::process::ExitCode::from(101),
        // No thread could be started (address space limited): run here.
        Err(_) => cli::main(),
    }
}
