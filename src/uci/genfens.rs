//! `genfens N seed S book <None|FILE> [EXTRA]`: opening positions for
//! OpenBench's data generation, one `info string genfens <FEN>` line each.
//!
//! OpenBench runs `<engine> "genfens N seed S book <None|FILE> <extra>"
//! "quit"` and reads every line that starts with `info string genfens `
//! as a FEN, so nothing else Tally prints starts so. The positions are the
//! openings of `tally datagen`'s games `0, 1, 2, ...` under the same
//! seed ([`open_game`]: the start position or a book position drawn at
//! random, random plies, the opening check), in the session's variant,
//! rules and evaluation, skipping a game whose openings all fail their
//! check: the same words give the same lines.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::datagen::play::open_game;
use crate::datagen::setup::read_openings;
use crate::datagen::{Config, MAX_SKIPPED_RUN};
use crate::engine::{Engine, EngineOptions};
use crate::eval::EvalMode;
use crate::text::clip;

/// The words after `N`, for the errors that list them.
const USAGE: &str = "genfens N [seed S] [book None|FILE] [random-plies N] [no-verify]";

/// A parsed `genfens` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Request {
    /// Positions to print.
    pub count: u64,
    /// The seed (datagen's `--seed`).
    pub seed: u64,
    /// The book (EPD) whose positions the openings start from; `None`:
    /// the start position.
    pub book: Option<String>,
    /// Random plies (datagen's `--random-plies`; default its default).
    pub random_plies: Option<u32>,
    /// No opening check (datagen's `--no-verify`).
    pub no_verify: bool,
}

/// Parses the words after `genfens`: the count first, then `seed S` and
/// `book None|FILE` (as OpenBench sends them) and OpenBench's extra
/// arguments, which for Tally are `random-plies N` and `no-verify`, each at
/// most once, in any order.
///
/// # Errors
///
/// A message naming the word that is wrong.
pub(super) fn parse(args: &[&str]) -> Result<Request, String> {
    let Some((count, mut rest)) = args.split_first() else {
        return Err(format!("expected '{USAGE}'"));
    };
    let count = count
        .parse::<u64>()
        .map_err(|_| format!("the count '{}' is not a whole number", clip(count)))?;
    let mut r = Request {
        count,
        ..Request::default()
    };
    let mut seen: Vec<&str> = Vec::new();
    while let Some((&word, after)) = rest.split_first() {
        rest = after;
        if seen.contains(&word) {
            return Err(format!("{word} is given more than once"));
        }
        let mut value = || -> Result<&str, String> {
            let (&v, after) = rest
                .split_first()
                .ok_or_else(|| format!("{word} needs a value"))?;
            rest = after;
            Ok(v)
        };
        match word {
            "seed" => {
                let v = value()?;
                r.seed = v
                    .parse()
                    .map_err(|_| format!("seed '{}' is not a whole number", clip(v)))?;
            }
            "book" => {
                let v = value()?;
                r.book = (!v.eq_ignore_ascii_case("none")).then(|| v.to_owned());
            }
            "random-plies" => {
                let v = value()?;
                r.random_plies =
                    Some(v.parse().map_err(|_| {
                        format!("random-plies '{}' is not a whole number", clip(v))
                    })?);
            }
            "no-verify" => r.no_verify = true,
            other => {
                return Err(format!(
                    "unknown word '{}' (expected '{USAGE}')",
                    clip(other)
                ));
            }
        }
        seen.push(word);
    }
    Ok(r)
}

/// The run of a request in a session whose engine has `options`: datagen's
/// settings for the session's variant, rules and evaluation.
///
/// # Errors
///
/// The book cannot be read or has a position that is not the variant's.
pub(super) fn config(
    r: &Request,
    variant: crate::rules::Variant,
    options: &EngineOptions,
) -> Result<Config, String> {
    let mut c = Config::new(variant, options.tables.clone());
    c.seed = r.seed;
    c.chess960 = options.chess960;
    c.draw_advantage = options.draw_advantage;
    // A net the session plays with; otherwise the default evaluation, as
    // `tally datagen` without `--net`.
    if options.eval_mode == EvalMode::Nnue {
        c.net.clone_from(&options.net);
    }
    if let Some(n) = r.random_plies {
        c.random_plies = n;
    }
    if r.no_verify {
        c.verify = None;
    }
    if let Some(book) = &r.book {
        c.openings = read_openings(Path::new(book), variant)?;
    }
    Ok(c)
}

/// How [`generate`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// Every position asked for was printed.
    Done,
    /// Stopped from outside.
    Stopped,
    /// [`MAX_SKIPPED_RUN`] games in a row had no opening that passes the
    /// check.
    NoOpening,
}

/// Prints the openings of games `0, 1, ...` of `config` through `each`
/// until `count` are printed; returns how many were and how it ended.
pub(super) fn generate(
    config: &Config,
    count: u64,
    stop: &AtomicBool,
    mut each: impl FnMut(&str),
) -> (u64, Ended) {
    let abort = || stop.load(Ordering::SeqCst);
    let mut engine = Engine::with_options(config.variant, config.engine_options());
    let (mut printed, mut skipped_run, mut index) = (0, 0, 0);
    while printed < count {
        match open_game(&mut engine, config, index, &abort) {
            None => return (printed, Ended::Stopped),
            Some(true) => {
                each(&engine.fen());
                printed += 1;
                skipped_run = 0;
            }
            Some(false) => {
                skipped_run += 1;
                if skipped_run >= MAX_SKIPPED_RUN {
                    return (printed, Ended::NoOpening);
                }
            }
        }
        index += 1;
    }
    (printed, Ended::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openbench_words_and_extras() {
        let r = parse(&["5", "seed", "42", "book", "None"]).unwrap();
        assert_eq!(
            r,
            Request {
                count: 5,
                seed: 42,
                ..Request::default()
            }
        );
        let r = parse(&[
            "3",
            "book",
            "b.epd",
            "no-verify",
            "seed",
            "1",
            "random-plies",
            "4",
        ])
        .unwrap();
        assert_eq!(r.book.as_deref(), Some("b.epd"));
        assert_eq!((r.seed, r.random_plies, r.no_verify), (1, Some(4), true));
        assert_eq!(parse(&["2", "book", "NONE"]).unwrap().book, None);
        for (args, error) in [
            (&[][..], "expected 'genfens N"),
            (&["x"], "the count 'x' is not a whole number"),
            (&["-1"], "the count '-1' is not"),
            (&["5", "seed"], "seed needs a value"),
            (
                &["5", "seed", "1", "seed", "2"],
                "seed is given more than once",
            ),
            (&["5", "seed", "-3"], "seed '-3' is not a whole number"),
            (&["5", "book"], "book needs a value"),
            (&["5", "plies", "3"], "unknown word 'plies'"),
            (&["5", "random-plies", "many"], "random-plies 'many'"),
        ] {
            let e = parse(args).unwrap_err();
            assert!(e.contains(error), "{args:?}: {e}");
        }
    }
}
