//! What a long `check` or `localize` is doing, on a terminal: one spinner line on stderr
//! with the elapsed time and the current phase. Nothing when stderr is not a terminal, with
//! `--format json|sarif` or with `-v` (whose own lines say more).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::Format;

pub struct Progress(ProgressBar);

impl Progress {
    pub fn start(format: Format, verbose: u8) -> Progress {
        if format != Format::Text || verbose > 0 || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden());
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(bar)
    }

    pub fn phase(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
