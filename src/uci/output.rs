//! Output: the shared writer and the formatting of `info` lines, scores and
//! point margins.
//!
//! Scores: a search value is an expected point margin in internal units
//! (100 per pawn of material, see [`Units`]), decoded by [`Score`]. A
//! proven end (a checkmate or an extinction) is printed as `score mate N`,
//! `N` in moves, negative when losing; every other value as `score cp V`
//! with `V` the value itself clamped to `±CP_LIMIT`, so the graph of a GUI
//! rises and falls with the expected margin in every variant. With the
//! `ScoreUnit` option at `points`, `V` is the margin in the scoring
//! variant's own points instead, on the scale of [`PointScale`].
//!
//! Every line written passes through [`printable`], so input echoed in an
//! error (a move, a FEN, an option name, a file name) never reaches the GUI
//! with a raw control character in it.

use std::io::Write;
use std::sync::{Arc, Mutex};

use shakmaty::{CastlingMode, Color};

use crate::eval::{Units, Wdl};
use crate::rules::Variant;
use crate::scoring::variants;
use crate::scoring::{Award, Points};
use crate::search::{Bound, PvLine, Reporter, Score, Stats};
use crate::text::printable;

/// The largest `score cp` printed (values beyond are clamped).
pub const CP_LIMIT: i32 = 20_000;

/// The writer shared by the loop and the search's callbacks. Every call
/// writes whole lines under one lock and flushes; write errors are ignored
/// (a closed pipe means the GUI is gone, and the loop ends at end of input).
#[derive(Debug)]
pub(super) struct Out<W> {
    w: Mutex<W>,
}

impl<W: Write> Out<W> {
    /// Wraps a writer.
    pub fn new(w: W) -> Out<W> {
        Out { w: Mutex::new(w) }
    }

    /// Writes one line.
    pub fn line(&self, s: &str) {
        self.lines(std::slice::from_ref(&s));
    }

    /// Writes lines together (no other output comes between them), each
    /// with its control characters escaped ([`printable`]): one line stays
    /// one line, and nothing echoed from the input can drive the terminal
    /// or the GUI's log.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.w.lock().unwrap_or_else(|e| e.into_inner());
        for l in lines {
            let _ = w.write_all(printable(l.as_ref()).as_bytes());
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
    }

    /// Writes `info string <text>`.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    /// Writes `info string error: <text>`.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// The scale of `score cp` under `ScoreUnit points`: thousandths of a
/// point per centipawn of the GUI, so that the GUI's `+1.00` is a round
/// number of the variant's points, as its scoring says
/// ([`variants::VariantScoring::milli_per_cp`]). `None` for chess and extinction,
/// whose points are a game result (1, 1/2, 0): their scores stay in pawns.
///
/// | variant | one `cp` | a GUI's `+1.00` |
/// |---|---|---|
/// | sets | 1/100 point | 1 point (a mate: `+2.00`) |
/// | stylish, dynamic, tiebraker | 1 point | 100 points |
/// | wacky | 100 points | 10000 points (a check: `+0.50`) |
///
/// Wacky's margins run to hundreds of thousands of points (a mate's life
/// and moves bonuses), so its `cp` is coarser: they stay within
/// `±CP_LIMIT`.
pub fn cp_milli(variant: Variant) -> Option<i64> {
    variants::of(variant).milli_per_cp()
}

/// How `score cp` is written: the internal units of the search, or the
/// variant's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointScale {
    /// The search's units, to turn values into points.
    pub units: Units,
    /// Thousandths of a point per `cp` ([`cp_milli`]).
    pub milli_per_cp: i64,
}

impl PointScale {
    /// The scale of `variant` with the search's `units`, or `None` where
    /// scores stay in internal units (chess, extinction).
    pub fn of(variant: Variant, units: Units) -> Option<PointScale> {
        cp_milli(variant).map(|milli_per_cp| PointScale {
            units,
            milli_per_cp,
        })
    }

    /// A point margin in internal units as a number of `cp` (rounded to
    /// the nearest, clamped to `±CP_LIMIT`).
    pub fn cp(self, margin: i32) -> i32 {
        let milli = self.units.to_points(margin) * 1000.0;
        let cp = (milli / self.milli_per_cp as f64).round();
        cp.clamp(f64::from(-CP_LIMIT), f64::from(CP_LIMIT)) as i32
    }
}

/// `cp V` or `mate N` for a score: `V` in internal units without a scale,
/// in the variant's points with one. A proven end is `mate N` either way.
pub fn score_text(score: Score, scale: Option<PointScale>) -> String {
    if let Some(moves) = score.moves() {
        return format!("mate {moves}");
    }
    // As Stockfish shows a tablebase win: the largest `cp`, less the
    // plies to the position the tables decided.
    if let Score::Tablebase { won, plies, .. } = score {
        let cp = CP_LIMIT - plies.clamp(0, CP_LIMIT);
        return format!("cp {}", if won { cp } else { -cp });
    }
    match scale {
        Some(s) => format!("cp {}", s.cp(score.margin_in(s.units))),
        None => format!("cp {}", score.margin().clamp(-CP_LIMIT, CP_LIMIT)),
    }
}

/// The `info string` that closes a search: the expected margin in the
/// variant's points for the side to move and the best action's own award:
/// `margin +0.35 chess award e2e4 0:0 none`, the award as the mover's
/// points, a colon, the opponent's points, then the events (`none` when
/// there are none). `award` is the award with its mover.
pub fn margin_line(
    variant: Variant,
    margin: Option<Points>,
    action: &str,
    award: Option<(Award, Color)>,
) -> String {
    let m = margin.map_or_else(|| "unknown".to_owned(), Points::signed);
    let a = match award {
        Some((a, mover)) => {
            let events = if a.events.is_empty() {
                "none".to_owned()
            } else {
                a.events.to_string()
            };
            format!("{}:{} {events}", a.points(mover), a.points(!mover))
        }
        None => "unknown".to_owned(),
    };
    format!("margin {m} {variant} award {action} {a}")
}

/// Prints the search's progress as UCI `info` lines.
pub(super) struct UciReporter<W> {
    /// Where to write.
    pub out: Arc<Out<W>>,
    /// How actions are written (Chess960: castling as king takes rook).
    pub mode: CastlingMode,
    /// The game phase of the root when `wdl` is printed (`None`: not
    /// printed).
    pub wdl_phase: Option<i32>,
    /// The scale of `score cp` (`None`: internal units).
    pub scale: Option<PointScale>,
    /// Whether lines carry `tbhits` (the search probes endgame tables).
    pub tbhits: bool,
}

/// The `wdl W D L` part for a score: a proven end is certain, a margin
/// goes through the win/draw/loss model at the root's phase.
pub fn wdl(score: Score, phase: i32) -> String {
    let w = match score {
        Score::End { won: true, .. } | Score::Tablebase { won: true, .. } => Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        },
        Score::End { won: false, .. } | Score::Tablebase { won: false, .. } => Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        },
        Score::Margin(v) => Wdl::from_cp(v, phase),
    };
    format!("wdl {} {} {}", w.win, w.draw, w.loss)
}

/// The `info` line of one principal variation, its score on `scale`
/// ([`score_text`]), with `tbhits` when `tbhits` says so.
pub fn info_line(
    line: &PvLine,
    mode: CastlingMode,
    stats: &Stats,
    wdl_phase: Option<i32>,
    scale: Option<PointScale>,
    tbhits: bool,
) -> String {
    let ms = stats.time.as_millis();
    let nps = u128::from(stats.nodes) * 1000 / ms.max(1);
    let bound = match line.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let wdl = wdl_phase.map_or_else(String::new, |p| format!(" {}", wdl(line.score(), p)));
    let pv: Vec<String> = line.pv.iter().map(|a| a.uci(mode).to_string()).collect();
    let tbhits = if tbhits {
        format!(" tbhits {}", stats.tbhits)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {}{tbhits} time {ms} pv {}",
        line.depth,
        line.seldepth,
        line.multipv,
        score_text(line.score(), scale),
        stats.nodes,
        stats.hashfull,
        pv.join(" ")
    )
}

impl<W: Write + Send> Reporter for UciReporter<W> {
    fn line(&self, line: &PvLine, stats: &Stats) {
        self.out.line(&info_line(
            line,
            self.mode,
            stats,
            self.wdl_phase,
            self.scale,
            self.tbhits,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MATE, MATE_STEP};

    fn score(value: i32) -> String {
        score_text(Score::of(value), None)
    }

    fn score_in(value: i32, scale: Option<PointScale>) -> String {
        score_text(Score::of(value), scale)
    }

    #[test]
    fn scores() {
        assert_eq!(score(35), "cp 35");
        assert_eq!(score(-1_000_000), "cp -20000");
        // Mate in 3 (5 plies) with a margin of 100 units.
        let v = MATE - 5 * MATE_STEP + 100;
        assert_eq!(score(v), "mate 3");
        let l = -(MATE - 4 * MATE_STEP) - 100;
        assert_eq!(score(l), "mate -2");
        assert_eq!(score(-(MATE - MATE_STEP)), "mate -1");
    }

    #[test]
    fn wdl_and_margin() {
        assert_eq!(wdl(Score::of(MATE - MATE_STEP), 24), "wdl 1000 0 0");
        assert_eq!(wdl(Score::of(-(MATE - MATE_STEP)), 24), "wdl 0 0 1000");
        let even = wdl(Score::Margin(0), 24);
        let parts: Vec<i32> = even[4..].split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(parts.iter().sum::<i32>(), 1000);
        assert_eq!(parts[0], parts[2]);
        assert_eq!(Points::from_milli(1250).signed(), "+1.25");
        assert_eq!(Points::whole(-3).signed(), "-3");
        assert_eq!(Points::ZERO.signed(), "0");
        let mut capture = Award::default();
        capture.give(
            Color::Black,
            Points::whole(5),
            crate::scoring::Event::Capture,
        );
        assert_eq!(
            margin_line(
                Variant::Stylish,
                Some(Points::whole(-2)),
                "d5e4",
                Some((capture, Color::Black))
            ),
            "margin -2 stylish award d5e4 5:0 capture"
        );
        assert_eq!(
            margin_line(Variant::Chess, None, "e2e4", None),
            "margin unknown chess award e2e4 unknown"
        );
    }

    #[test]
    fn point_scales() {
        use crate::scoring::Scorer;
        let scale = |v| PointScale::of(v, Units::of(&Scorer::new(v)));
        assert_eq!(scale(Variant::Chess), None);
        assert_eq!(scale(Variant::Extinction), None);
        // A pawn (100 units) is 25 stylish points, 0.2 sets points (2
        // mates pay 2), 10 dynamic points, 30,000 wacky points (the
        // search's pawn is five of the scale's in stylish, thirty in
        // wacky).
        let stylish = scale(Variant::Stylish).unwrap();
        assert_eq!(score_in(440, Some(stylish)), "cp 110");
        assert_eq!(score_in(-100, Some(stylish)), "cp -25");
        assert_eq!(scale(Variant::Sets).unwrap().cp(1000), 200);
        let dynamic = scale(Variant::Dynamic).unwrap();
        assert_eq!(dynamic.cp(1000), 100);
        assert_eq!(scale(Variant::Tiebraker).unwrap().cp(1000), 100);
        // Their estimates lie on the value curve: the text gives the
        // expected margin of the value (three pawns: over half a win).
        let m = dynamic.units.margin_of(300);
        assert!(m > 500 && m < 1000, "{m}");
        assert_eq!(
            score_in(300, Some(dynamic)),
            format!("cp {}", dynamic.cp(m))
        );
        assert_eq!(
            score_in(-300, Some(dynamic)),
            format!("cp {}", dynamic.cp(-m))
        );
        let wacky = scale(Variant::Wacky).unwrap();
        assert_eq!(score_in(500, Some(wacky)), "cp 1500");
        assert_eq!(score_in(1 << 26, Some(wacky)), format!("cp {CP_LIMIT}"));
        // A decided value is a mate on every scale.
        let mate = MATE - MATE_STEP + 100;
        assert_eq!(
            score_in(mate, Some(scale(Variant::Sets).unwrap())),
            "mate 1"
        );
    }
}
