//! Progress bars on standard error for the long commands (`analyse`,
//! `match`, `tune`, `train`): shown only when standard error is a terminal, not asked off
//! (`--quiet`, `--json`), and the work has taken more than a second.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A progress bar that appears after [`DELAY`], or never.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    enabled: bool,
    started: Instant,
    shown: Mutex<bool>,
}

impl Progress {
    /// A bar over `len` steps (a spinner when `None`); `enabled` is false
    /// for `--quiet` and `--json`.
    pub fn new(len: Option<u64>, enabled: bool, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        let template = match len {
            Some(_) => format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}}"),
            None => "{elapsed_precise} {spinner} {msg}".to_owned(),
        };
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            enabled: enabled && std::io::stderr().is_terminal(),
            started: Instant::now(),
            shown: Mutex::new(false),
        }
    }

    fn maybe_show(&self) {
        if !self.enabled || self.started.elapsed() < DELAY {
            return;
        }
        if let Ok(mut shown) = self.shown.lock()
            && !*shown
        {
            *shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Sets the position.
    pub fn set(&self, pos: u64) {
        self.bar.set_position(pos);
        self.maybe_show();
    }

    /// Sets the message.
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
        self.maybe_show();
    }

    /// Prints a line on standard output with the bar out of the way.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| outln!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// A fit's report on the terminal ([`crate::fit::Watch`]): its lines on
/// standard output, its work in a [`Progress`] bar (none with `--quiet`).
#[derive(Debug)]
pub struct Terminal {
    show: bool,
    bar: Option<Progress>,
}

impl Terminal {
    /// The report of a fit; `show` is false for `--quiet`.
    pub fn new(show: bool) -> Terminal {
        Terminal { show, bar: None }
    }
}

impl crate::fit::Watch for Terminal {
    fn say(&mut self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => outln!("{line}"),
        }
    }

    fn begin(&mut self, total: Option<u64>, unit: &str) {
        self.bar = Some(Progress::new(total, self.show, unit));
    }

    fn at(&mut self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set(done);
        }
    }

    fn note(&mut self, message: String) {
        if let Some(bar) = &self.bar {
            bar.message(message);
        }
    }

    fn end(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish();
        }
    }
}
