//! What a long run reports while it works: the phase it is in, checker runs done and
//! candidates found so far. The CLI draws it on a terminal (`cli::progress`); a library
//! caller passes [`Silent`].

pub trait Observer: Sync {
    /// A new phase begins (`searching for a failing interleaving`, ...).
    fn phase(&self, _what: &str) {}
    /// The candidate loop asked the checker again: `runs` questions so far, `found`
    /// candidates.
    fn checker_run(&self, _runs: u32, _found: usize) {}
}

/// Reports nothing.
pub struct Silent;

impl Observer for Silent {}
