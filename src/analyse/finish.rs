//! How a game ended: [`Finish`], read from the referee's record and the
//! PGN's `Termination` tag, as the annotated PGN ([`super::annotate`]), the
//! chart and the HTML report ([`super::report`]) say it.

use shakmaty::Color;

use crate::referee::ScoreRecord;
use crate::rules::Ending;

/// How a game ended, as the chart, the annotated PGN and the HTML report
/// say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: &'static str,
    /// What ended the game: the board's ending (`checkmate, White wins`),
    /// a loss without one (`Black lost on time`, `White resigned`), or
    /// `game not finished`.
    pub how: String,
    /// Whether the result goes against the points: the side that lost on
    /// time, resigned or forfeited had more points than the winner.
    pub against_points: bool,
}

impl Finish {
    /// The ending of `record` (the referee names a loss on time);
    /// `termination` is the PGN's `Termination` tag, which tells a forfeit
    /// from a resignation.
    pub fn of(record: &ScoreRecord, termination: Option<&str>) -> Finish {
        let result = crate::pgn::result_text(record);
        let name = |c: Color| c.fold_wb("White", "Black");
        let (how, against_points) = match record.ending {
            None => ("game not finished".to_owned(), false),
            Some(Ending::Resignation { winner }) => {
                let loser = name(!winner);
                let term = termination.unwrap_or("").to_ascii_lowercase();
                let how = if record.time_forfeit {
                    format!("{loser} lost on time")
                } else if term.contains("abandon") {
                    format!("{loser} forfeited (abandoned)")
                } else if term.contains("infraction") || term.contains("illegal") {
                    format!("{loser} forfeited (rules infraction)")
                } else {
                    format!("{loser} resigned")
                };
                (
                    how,
                    record.total.points(winner) < record.total.points(!winner),
                )
            }
            Some(e) => (e.describe(), false),
        };
        Finish {
            result,
            how,
            against_points,
        }
    }

    /// The chart's label: `1-0: Black lost on time`, with `though ahead on
    /// points` when the result goes against the points.
    pub fn label(&self) -> String {
        let mut s = format!("{}: {}", self.result, self.how);
        if self.against_points {
            s.push_str(", though ahead on points");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::report::chart::tests::analysed;
    use crate::rules::Variant;

    #[test]
    fn finishes_say_how_the_game_ended() {
        let (_, a) = analysed("stylish-time.pgn", Variant::Stylish);
        assert!(
            a.record.time_forfeit,
            "the referee reads the Termination tag"
        );
        let on_time = Finish::of(&a.record, Some("Time forfeit"));
        assert_eq!(on_time.result, "0-1");
        assert_eq!(on_time.how, "White lost on time");
        assert!(on_time.against_points);
        let mut resigned = a.record.clone();
        resigned.time_forfeit = false;
        assert_eq!(Finish::of(&resigned, None).how, "White resigned");
        assert_eq!(
            Finish::of(&resigned, Some("abandoned")).how,
            "White forfeited (abandoned)"
        );
        let (_, a) = analysed("chess.pgn", Variant::Chess);
        let mate = Finish::of(&a.record, None);
        assert_eq!(
            (mate.result, mate.how.as_str(), mate.against_points),
            ("0-1", "checkmate, Black wins", false)
        );
        assert_eq!(mate.label(), "0-1: checkmate, Black wins");
        let (_, a) = analysed("extinction.pgn", Variant::Extinction);
        let open = Finish::of(&a.record, None);
        assert_eq!((open.result, open.how.as_str()), ("*", "game not finished"));
    }
}
