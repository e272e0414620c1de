//! What a long `check` or `localize` is doing, on a terminal: one spinner line on stderr
//! with the elapsed time and the current phase, and during the candidate loop the checker
//! runs done and the candidates found so far (the engine reports them through
//! [`Observer`]). Nothing when stderr is not a terminal, with
//! `--format json|sarif` or with `-v` (whose own lines say more).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::Format;
use seqloc::engine::progress::Observer;

pub struct Progress(ProgressBar, Mutex<String>);

impl Progress {
    pub fn start(format: Format, verbose: u8) -> Progress {
        if format != Format::Text || verbose > 0 || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden(), Mutex::default());
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(bar, Mutex::default())
    }

    pub fn phase(&self, what: &str) {
        if let Ok(mut p) = self.1.lock() {
            *p = what.to_string();
        }
        self.0.set_message(what.to_string());
    }
}

impl Observer for Progress {
    fn phase(&self, what: &str) {
        Progress::phase(self, what);
    }

    fn checker_run(&self, runs: u32, found: usize) {
        let phase = self.1.lock().map(|p| p.clone()).unwrap_or_default();
        let noun = if found == 1 {
            "candidate"
        } else {
            "candidates"
        };
        self.0.set_message(format!(
            "{phase} ({runs} checker runs, {found} {noun} so far)"
        ));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
