//! The options that `tally tune` (the evaluation's weights) and `tally
//! train` (the net) share, checked one way: the learning rate, the
//! sigmoid's scale `K`, the weight of the game result in the target
//! (`--lambda` for the tuner, `--wdl` for the trainer), the batch size
//! and a penalty of at least 0 (the L2 of the tuner and of the trainer's
//! margin head, the trainer's weight decay). Each message is one line
//! naming the option. And what a fit reports as it goes ([`Watch`]).

/// `flag` must be a finite number above 0.
///
/// # Errors
///
/// `"{flag} must be a positive number"`.
pub fn positive(flag: &str, x: f64) -> Result<(), String> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(format!("{flag} must be a positive number"))
    }
}

/// `flag` must lie in `0 ..= 1`.
///
/// # Errors
///
/// `"{flag} must lie between 0 and 1"`.
pub fn share(flag: &str, x: f64) -> Result<(), String> {
    if x.is_finite() && (0.0..=1.0).contains(&x) {
        Ok(())
    } else {
        Err(format!("{flag} must lie between 0 and 1"))
    }
}

/// `flag` must be a finite number of at least 0.
///
/// # Errors
///
/// `"{flag} must be 0 or more"`.
pub fn at_least_zero(flag: &str, x: f64) -> Result<(), String> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(format!("{flag} must be 0 or more"))
    }
}

/// A count `flag` must be at least 1.
///
/// # Errors
///
/// `"{flag} must be at least 1"`.
pub fn at_least_one(flag: &str, n: u64) -> Result<(), String> {
    if n >= 1 {
        Ok(())
    } else {
        Err(format!("{flag} must be at least 1"))
    }
}

/// The smallest sigmoid scale `--k` (per internal unit or centipawn): a
/// pawn then moves the prediction by a ten-thousandth of its slope.
pub const MIN_K: f64 = 1e-6;
/// The largest `--k`: a pawn then spans the whole sigmoid a hundred times.
pub const MAX_K: f64 = 1.0;

/// The options both fitters take, in the order they are checked.
#[derive(Clone, Copy, Debug)]
pub struct Shared<'a> {
    /// The name of the result's weight: `--lambda` or `--wdl`.
    pub result_flag: &'a str,
    /// The weight of the game result in the target, `0 ..= 1`.
    pub result_weight: f64,
    /// The learning rate (`--lr`), above 0 and at most `max_lr`.
    pub lr: f64,
    /// The largest learning rate that keeps the fit's weights sane (a
    /// step moves a weight by about the rate at most).
    pub max_lr: f64,
    /// The sigmoid's scale (`--k`) when given, above 0.
    pub k: Option<f64>,
    /// Positions per mini-batch (`--batch`), at least 1.
    pub batch: usize,
}

impl Shared<'_> {
    /// Checks the shared options.
    ///
    /// # Errors
    ///
    /// The first bad option's message.
    pub fn check(&self) -> Result<(), String> {
        share(self.result_flag, self.result_weight)?;
        positive("--lr", self.lr)?;
        if self.lr > self.max_lr {
            return Err(format!(
                "--lr {} is too large: at most {} (a step moves a weight by about the rate)",
                self.lr, self.max_lr
            ));
        }
        if let Some(k) = self.k
            && !(MIN_K..=MAX_K).contains(&k)
        {
            return Err(format!(
                "--k must lie between {MIN_K} and {MAX_K} (the sigmoid's scale per unit; a pawn is 100)"
            ));
        }
        at_least_one("--batch", self.batch as u64)
    }
}

/// What a long fit tells the one who runs it (`tally tune`, `tally
/// train`): its report, line by line, and how far its work with a bar
/// has got. The command line's is a progress bar on standard error
/// (`cli::progress`).
pub trait Watch {
    /// A line of the report.
    fn say(&mut self, line: &str);
    /// The work with a bar begins: `total` units (`None`: not known) of
    /// `unit` ("positions", "steps").
    fn begin(&mut self, total: Option<u64>, unit: &str);
    /// `done` units of the work are done.
    fn at(&mut self, done: u64);
    /// What the bar says beside the count (the current loss).
    fn note(&mut self, message: String);
    /// The work with a bar is over.
    fn end(&mut self);
}

/// A [`Watch`] that keeps what it is told, for the tests of the fits.
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// The lines, each with whether a bar was up when it was said.
    pub lines: Vec<(String, bool)>,
    /// The totals and units of each bar begun.
    pub bars: Vec<(Option<u64>, String)>,
    /// Each count of work done, in order.
    pub counts: Vec<u64>,
    /// Whether a bar is up.
    pub up: bool,
}

#[cfg(test)]
impl Watch for Recorder {
    fn say(&mut self, line: &str) {
        self.lines.push((line.to_owned(), self.up));
    }

    fn begin(&mut self, total: Option<u64>, unit: &str) {
        assert!(!self.up, "a bar begun over another");
        self.bars.push((total, unit.to_owned()));
        self.up = true;
    }

    fn at(&mut self, done: u64) {
        assert!(self.up, "work counted with no bar");
        self.counts.push(done);
    }

    fn note(&mut self, _: String) {
        assert!(self.up, "a note with no bar");
    }

    fn end(&mut self) {
        assert!(self.up, "a bar ended that was not begun");
        self.up = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_option_is_named_in_one_line() {
        let good = Shared {
            result_flag: "--wdl",
            result_weight: 0.5,
            lr: 0.001,
            max_lr: 1.0,
            k: None,
            batch: 64,
        };
        assert_eq!(good.check(), Ok(()));
        let bad = |s: Shared| s.check().unwrap_err();
        assert_eq!(
            bad(Shared {
                result_weight: 1.5,
                ..good
            }),
            "--wdl must lie between 0 and 1"
        );
        assert_eq!(
            bad(Shared {
                result_flag: "--lambda",
                result_weight: f64::NAN,
                ..good
            }),
            "--lambda must lie between 0 and 1"
        );
        assert_eq!(
            bad(Shared { lr: 0.0, ..good }),
            "--lr must be a positive number"
        );
        assert_eq!(Shared { lr: 1.0, ..good }.check(), Ok(()));
        assert_eq!(
            bad(Shared { lr: 1e30, ..good }),
            "--lr 1000000000000000000000000000000 is too large: at most 1 (a step moves a weight by about the rate)"
        );
        for k in [f64::INFINITY, 1e39, 0.0, 1e-320, f64::NAN] {
            assert!(
                bad(Shared { k: Some(k), ..good }).starts_with("--k must lie between"),
                "{k}"
            );
        }
        assert_eq!(
            Shared {
                k: Some(0.0043),
                ..good
            }
            .check(),
            Ok(())
        );
        assert_eq!(
            bad(Shared { batch: 0, ..good }),
            "--batch must be at least 1"
        );
        assert_eq!(
            at_least_zero("--l2", -1e-9).unwrap_err(),
            "--l2 must be 0 or more"
        );
        assert_eq!(at_least_zero("--l2", 0.0), Ok(()));
    }
}
