//! A contest read from the games of a PGN, as `tally score --series`
//! scores it: [`PgnContest`] takes the games one by one, in order, each
//! scored by the referee as the contest says (its variant, the sets draw
//! advantage of the player who holds it), and records them.
//!
//! Decisions:
//!
//! - **The players** are the names of game 1's `White` and `Black` tags:
//!   the first player is White in game 1. Every later game is between the
//!   same two names, either way round; its colours are taken as the tags
//!   give them (a series played by people need not alternate).
//! - **The format**: as given, or a series of every game read
//!   ([`PgnContest::finish`] fixes its length once the input ends).
//!   Games after the contest ended (after a resignation that ends a
//!   stylish series, say) are not counted ([`PgnContest::ignored`]).
//! - **The variant**: as given (over every game's `Variant` tag, as
//!   `tally score --variant` does); otherwise a tie-break match's, or
//!   game 1's tag (chess without one), and a later game's tag must agree
//!   with the contest's variant for that game.
//! - **The draw advantage** (sets): the named player's, or by the colour
//!   choice's default, the player who is Black in game 1.

use super::{Contest, ContestError, Format, GameResult, PlayedGame, Rules, Seat, Standing};
use crate::pgn::{PgnGame, variant_of_tag};
use crate::referee::{ScoreError, ScoreRecord, score_input_until};
use crate::rules::Variant;
use crate::scoring::{Scorer, Tables};

/// How a PGN's games make a contest (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnSettings {
    /// The format; `None`: a series of every game read.
    pub format: Option<Format>,
    /// The variant over every game's tag.
    pub variant: Option<Variant>,
    /// Every game read as Chess960.
    pub chess960: bool,
    /// The resignation switch; `None`: the variant's default.
    pub resignation_ends: Option<bool>,
    /// In sets, the name of the player who holds the draw advantage.
    pub draw_advantage_player: Option<String>,
}

/// A game of the contest, scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    /// The referee's record of it.
    pub record: ScoreRecord,
    /// The game as the contest recorded it.
    pub played: PlayedGame,
    /// Where the contest stands after it.
    pub standing: Standing,
}

/// A contest being read from a PGN's games.
#[derive(Clone, Debug)]
pub struct PgnContest {
    settings: PgnSettings,
    tables: Tables,
    /// The players, once game 1 is read.
    names: Option<[String; 2]>,
    contest: Option<Contest>,
    results: Vec<GameResult>,
    ignored: usize,
}

impl PgnContest {
    /// A contest to read with `settings`, its games scored on `tables`.
    pub fn new(settings: PgnSettings, tables: Tables) -> PgnContest {
        PgnContest {
            settings,
            tables,
            names: None,
            contest: None,
            results: Vec::new(),
            ignored: 0,
        }
    }

    /// The players' names (first, second), once game 1 is read.
    pub fn names(&self) -> Option<&[String; 2]> {
        self.names.as_ref()
    }

    /// Games read after the contest ended, not counted.
    pub fn ignored(&self) -> usize {
        self.ignored
    }

    /// The rules the contest plays by, from game 1's tags and the
    /// settings.
    fn rules(&self, first: &PgnGame, names: &[String; 2]) -> Result<Rules, ScoreError> {
        let s = &self.settings;
        let variant = match (s.variant, s.format.and_then(Format::fixed_variant)) {
            (Some(v), _) | (None, Some(v)) => v,
            (None, None) => match first.variant.as_deref() {
                None => Variant::Chess,
                Some(tag) => variant_of_tag(tag).ok_or_else(|| {
                    ScoreError::game(format!(
                        "unknown variant '{}' in the Variant tag (give --variant to score it anyway)",
                        crate::text::printable(tag)
                    ))
                })?,
            },
        };
        // A series of every game: its length is fixed at the end.
        let format = s.format.unwrap_or(Format::Series {
            games: super::MAX_GAMES,
        });
        let mut rules = Rules::new(format, variant).map_err(ScoreError::game)?;
        if let Some(on) = s.resignation_ends {
            rules.resignation_ends = on;
        }
        if let Some(holder) = &s.draw_advantage_player {
            if variant != Variant::Sets {
                return Err(ScoreError::game(format!(
                    "--draw-advantage-player: only sets has a draw advantage to hold (the series is {variant})"
                )));
            }
            let seat = names.iter().position(|n| n == holder).ok_or_else(|| {
                ScoreError::game(format!(
                    "--draw-advantage-player '{}' is not a player of the series ({} and {})",
                    crate::text::printable(holder),
                    crate::text::printable(&names[0]),
                    crate::text::printable(&names[1])
                ))
            })?;
            rules.chooser = Some(Seat::of_index(seat).other());
        }
        Ok(rules)
    }

    /// Scores the next game and records it; `None` for a game after the
    /// contest ended (not counted).
    ///
    /// # Errors
    ///
    /// The game cannot be scored (as `tally score` says), its tags do not
    /// name the contest's players, or its `Variant` tag another variant
    /// than the contest's game.
    pub fn game(&mut self, mut pgn: PgnGame) -> Result<Option<ScoredGame>, ScoreError> {
        let (Some(white), Some(black)) = (pgn.white.clone(), pgn.black.clone()) else {
            return Err(ScoreError::game(
                "a game of a series needs its players' names in the White and Black tags",
            ));
        };
        let names = match &self.names {
            Some(n) => n.clone(),
            None => {
                if white == black {
                    return Err(ScoreError::game(format!(
                        "White and Black are both '{}': a series is between two players",
                        crate::text::printable(&white)
                    )));
                }
                let names = [white.clone(), black.clone()];
                let rules = self.rules(&pgn, &names)?;
                self.contest = Some(Contest::new(rules).map_err(ScoreError::game)?);
                self.names = Some(names.clone());
                names
            }
        };
        let seat = if [&white, &black] == [&names[0], &names[1]] {
            Seat::First
        } else if [&white, &black] == [&names[1], &names[0]] {
            Seat::Second
        } else {
            return Err(ScoreError::game(format!(
                "'{}' against '{}' is not a game of the series between '{}' and '{}'",
                crate::text::printable(&white),
                crate::text::printable(&black),
                crate::text::printable(&names[0]),
                crate::text::printable(&names[1])
            )));
        };
        let Some(contest) = self.contest.as_mut() else {
            return Err(ScoreError::game("the contest has not begun"));
        };
        let Some(next) = contest.next() else {
            self.ignored += 1;
            return Ok(None);
        };
        if self.settings.variant.is_none()
            && let Some(tag) = pgn.variant.as_deref()
            && variant_of_tag(tag) != Some(next.variant)
        {
            return Err(ScoreError::game(format!(
                "the Variant tag says '{}', and game {} of the contest is {} (give --variant to score it anyway)",
                crate::text::printable(tag),
                next.number,
                next.variant
            )));
        }
        let mut scorer = Scorer::with_tables(next.variant, self.tables.clone());
        scorer.set_draw_advantage(contest.rules().draw_advantage_in(seat));
        pgn.input.chess960 |= self.settings.chess960;
        let record = score_input_until(&scorer, &pgn.input, pgn.problem.clone())?;
        record.check_range()?;
        let result = GameResult::of_record(&record, seat);
        let played = *contest.record(result).map_err(ScoreError::game)?;
        self.results.push(result);
        Ok(Some(ScoredGame {
            record,
            played,
            standing: contest.standing(),
        }))
    }

    /// The contest read: a series of every game read now has that many
    /// games (and is over); a given format stands as it is (unfinished
    /// when the games ran out first).
    ///
    /// # Errors
    ///
    /// No game was read.
    pub fn finish(self) -> Result<Contest, ContestError> {
        let contest = self
            .contest
            .ok_or_else(|| ContestError::Record("no games to score".to_owned()))?;
        if self.settings.format.is_some() {
            return Ok(contest);
        }
        let mut rules = *contest.rules();
        rules.format = Format::Series {
            games: self.results.len() as u32,
        };
        Contest::with_games(rules, self.results)
    }
}
