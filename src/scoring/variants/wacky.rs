//! `wacky` (docs/rules.md, `wacky`): distance, capture, en passant, fall,
//! counter, combination, castling, check and mate awards, the end-of-game
//! bonuses, and the [`Table`] that holds every one of their point values.
//!
//! What lives here: the award of a move by itself ([`action_award`]), what
//! a mating move earns on top of its check award ([`mate_award`]), and the
//! life, moves and time bonuses of the player who gives checkmate
//! ([`outcome_award`]). Chains (counters, combinations) and counts are read
//! from the per-game [`Memo`]; draws and resignations pay nothing.
//!
//! TOML keys of the `[wacky]` section of a rules file (defaults in
//! brackets):
//!
//! - `[wacky.attack]` and `[wacky.defence]`: the attacking power A (`pawn`
//!   9, `knight` 3, `bishop` 3, `rook` 2, `queen` 1, `king` 18) and the
//!   defending power D (1, 3, 3, 5, 9, 4), whole numbers from 0 to 1000;
//! - `per_square` `[10]`: points per square moved and per unit of A;
//!   `knight_squares` `[3]`: a knight move's distance (0 to 1000);
//! - `capture` `[100]`: times A(capturer) times D(captured); `en_passant`
//!   `[1000]` on top;
//! - `fall` `[500]` and `fall_step` `[0.5]`: the fall bonus
//!   `fall x D(captured) x (1 + fall_step x earlier captures)`;
//! - `counter` `[2000, 3500, 5000, 7000, 10000, 15000, 25000, 35000, 50000,
//!   75000]`: the n-th recapture of a chain; `counter_step` `[25000]` more
//!   for each one past the list;
//! - `combination` `[1000, 2500, 4000, 6000, 8500, 12000, 17500, 25000,
//!   35000]`: hits 2, 3, ... of a run; `combination_step` `[15000]` more for
//!   each one past the list;
//! - `castling` `[500]`, `check` `[5000]`, `mate` `[25000]` (a mating move's
//!   award in place of `check`);
//! - `life` `[[0, 1000], [26, 2000], [36, 3000], [41, 5000], [43, 10000],
//!   [44, 20000]]`: `[from L, rate]` bands, bonus `L x rate`;
//! - `moves_limit` `[50]` (0 to 10000) and `moves` `[[1, 10000], [4, 5000],
//!   [10, 3500], [15, 2000], [20, 1000], [30, 700], [40, 500]]`: `[from m,
//!   rate]` bands, bonus `(moves_limit - m) x rate` when `m < moves_limit`;
//! - `time` `[[3600, 400000], [600, 50000], [60, 4000], [10, 600], [1, 50]]`:
//!   `[unit in seconds, points]`, taken greedily in the listed order.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Move, Role};

use super::{End, VariantScoring, View};
use crate::rules::{Action, Ending};
use crate::scoring::dump::{Key, key};
use crate::scoring::tables::{factor, largest, moves_limit, pairs};
use crate::scoring::{Award, EndContext, Event, Memo, Points, Tables};

const fn p(n: i64) -> Points {
    Points::whole(n)
}

macro_rules! role_values {
    ($(#[$doc:meta])* $name:ident: $p:expr, $n:expr, $b:expr, $r:expr, $q:expr, $k:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            /// A pawn.
            #[serde(deserialize_with = "factor")]
            pub pawn: i64,
            /// A knight.
            #[serde(deserialize_with = "factor")]
            pub knight: i64,
            /// A bishop.
            #[serde(deserialize_with = "factor")]
            pub bishop: i64,
            /// A rook.
            #[serde(deserialize_with = "factor")]
            pub rook: i64,
            /// A queen.
            #[serde(deserialize_with = "factor")]
            pub queen: i64,
            /// A king.
            #[serde(deserialize_with = "factor")]
            pub king: i64,
        }

        impl Default for $name {
            fn default() -> $name {
                $name {
                    pawn: $p,
                    knight: $n,
                    bishop: $b,
                    rook: $r,
                    queen: $q,
                    king: $k,
                }
            }
        }

        impl $name {
            /// The value of `role`.
            #[inline]
            pub const fn of(&self, role: Role) -> i64 {
                match role {
                    Role::Pawn => self.pawn,
                    Role::Knight => self.knight,
                    Role::Bishop => self.bishop,
                    Role::Rook => self.rook,
                    Role::Queen => self.queen,
                    Role::King => self.king,
                }
            }
        }
    };
}

role_values!(
    /// Attacking power A, per piece type (whole numbers).
    Attack: 9, 3, 3, 2, 1, 18
);
role_values!(
    /// Defending power D, per piece type (whole numbers).
    Defence: 1, 3, 3, 5, 9, 4
);

/// The wacky point table: every value of the `wacky` section of
/// docs/rules.md.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Attacking power A.
    pub attack: Attack,
    /// Defending power D.
    pub defence: Defence,
    /// Points per square moved, per unit of A.
    pub per_square: Points,
    /// The distance of a knight move.
    #[serde(deserialize_with = "factor")]
    pub knight_squares: i64,
    /// Capture points per unit of A(capturer) x D(captured).
    pub capture: Points,
    /// Extra points for an en-passant capture.
    pub en_passant: Points,
    /// Fall bonus per unit of D(captured), before the multiplier.
    pub fall: Points,
    /// How much the fall multiplier grows per earlier capture.
    pub fall_step: Points,
    /// Counter awards: the n-th recapture of a chain scores `counter[n-1]`.
    pub counter: Vec<Points>,
    /// Added for each recapture past the end of `counter`.
    pub counter_step: Points,
    /// Combination awards: the h-th hit of a run scores
    /// `combination[h-2]` (h >= 2).
    pub combination: Vec<Points>,
    /// Added for each hit past the end of `combination`.
    pub combination_step: Points,
    /// Castling.
    pub castling: Points,
    /// A check.
    pub check: Points,
    /// A checkmate, in place of the check award.
    pub mate: Points,
    /// Life bonus bands: `(from L, rate)`, ascending.
    #[serde(deserialize_with = "pairs")]
    pub life: Vec<(i64, Points)>,
    /// Moves at or above which the moves bonus is 0.
    #[serde(deserialize_with = "moves_limit")]
    pub moves_limit: i64,
    /// Moves bonus bands: `(from m, rate)`, ascending.
    #[serde(deserialize_with = "pairs")]
    pub moves: Vec<(i64, Points)>,
    /// Time bonus units: `(seconds, points)`, largest first.
    #[serde(deserialize_with = "pairs")]
    pub time: Vec<(u64, Points)>,
}

impl Default for Table {
    fn default() -> Table {
        let pts = |v: &[i64]| v.iter().map(|&x| p(x)).collect();
        Table {
            attack: Attack::default(),
            defence: Defence::default(),
            per_square: p(10),
            knight_squares: 3,
            capture: p(100),
            en_passant: p(1000),
            fall: p(500),
            fall_step: Points::HALF,
            counter: pts(&[
                2000, 3500, 5000, 7000, 10000, 15000, 25000, 35000, 50000, 75000,
            ]),
            counter_step: p(25000),
            combination: pts(&[1000, 2500, 4000, 6000, 8500, 12000, 17500, 25000, 35000]),
            combination_step: p(15000),
            castling: p(500),
            check: p(5000),
            mate: p(25000),
            life: vec![
                (0, p(1000)),
                (26, p(2000)),
                (36, p(3000)),
                (41, p(5000)),
                (43, p(10000)),
                (44, p(20000)),
            ],
            moves_limit: 50,
            moves: vec![
                (1, p(10000)),
                (4, p(5000)),
                (10, p(3500)),
                (15, p(2000)),
                (20, p(1000)),
                (30, p(700)),
                (40, p(500)),
            ],
            time: vec![
                (3600, p(400_000)),
                (600, p(50_000)),
                (60, p(4000)),
                (10, p(600)),
                (1, p(50)),
            ],
        }
    }
}

/// Entry `n` (0-based) of a schedule that grows by `step` past its end.
fn schedule(list: &[Points], step: Points, n: usize) -> Points {
    match list.get(n) {
        Some(&v) => v,
        None => {
            let last = list.last().copied().unwrap_or(Points::ZERO);
            let past = n + 1 - list.len();
            last + step * past as i64
        }
    }
}

/// The rate of the band that `x` falls in (the last band starting at or
/// below `x`); 0 below the first band.
fn band(bands: &[(i64, Points)], x: i64) -> Points {
    bands
        .iter()
        .take_while(|(from, _)| *from <= x)
        .last()
        .map_or(Points::ZERO, |&(_, rate)| rate)
}

impl Table {
    /// The first table of bands (`life`, `moves`) whose starts do not
    /// rise strictly, which the band lookup would read wrongly.
    pub fn unordered_bands(&self) -> Option<&'static str> {
        let rising = |b: &[(i64, Points)]| b.windows(2).all(|w| w[0].0 < w[1].0);
        [("life", &self.life), ("moves", &self.moves)]
            .into_iter()
            .find(|(_, b)| !rising(b))
            .map(|(key, _)| key)
    }

    /// The counter award of the n-th recapture of a chain (n >= 1).
    pub fn counter_award(&self, n: usize) -> Points {
        schedule(&self.counter, self.counter_step, n.saturating_sub(1))
    }

    /// The combination award of the h-th hit of a run (h >= 2).
    pub fn combination_award(&self, h: usize) -> Points {
        schedule(
            &self.combination,
            self.combination_step,
            h.saturating_sub(2),
        )
    }

    /// `color`'s material left for the life bonus: the defending power of
    /// its pieces, king included.
    pub fn life(&self, board: &shakmaty::Board, color: Color) -> i64 {
        board
            .by_color(color)
            .into_iter()
            .filter_map(|sq| board.role_at(sq))
            .map(|r| self.defence.of(r))
            .sum()
    }

    /// The life bonus for `life` points of material left.
    pub fn life_bonus(&self, life: i64) -> Points {
        band(&self.life, life) * life
    }

    /// The moves bonus for a winner who made `moves` moves.
    pub fn moves_bonus(&self, moves: i64) -> Points {
        if moves >= self.moves_limit {
            return Points::ZERO;
        }
        band(&self.moves, moves) * (self.moves_limit - moves)
    }

    /// The time bonus for `secs` whole seconds left on the clock.
    pub fn time_bonus(&self, secs: u64) -> Points {
        let mut left = secs;
        let mut bonus = Points::ZERO;
        for &(unit, points) in &self.time {
            if unit == 0 {
                continue;
            }
            bonus += points * i64::try_from(left / unit).unwrap_or(i64::MAX);
            left %= unit;
        }
        bonus
    }
}

/// The most captures a game has: 32 pieces less the two kings (positions
/// with more than 16 pieces a side are refused). It bounds the counter
/// chains, the combination runs and the fall multiplier.
const MAX_CAPTURES: i64 = 30;

/// The most pieces a side has.
const MAX_PIECES: i64 = 16;

impl Table {
    /// The largest attacking and defending powers.
    fn largest_powers(&self) -> (i64, i64) {
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let a = roles.iter().map(|&r| self.attack.of(r).abs()).max();
        let d = roles.iter().map(|&r| self.defence.of(r).abs()).max();
        (a.unwrap_or(0), d.unwrap_or(0))
    }

    /// The largest magnitude of what one action earns by itself: the
    /// distance (a line of seven squares, or a knight move), castling, a
    /// capture with its en-passant, fall and the larger of its counter and
    /// combination awards, and a check.
    pub fn action_bound(&self) -> Points {
        let (a, d) = self.largest_powers();
        let distance = self.knight_squares.abs().max(7);
        let movement = self.per_square.abs() * a.saturating_mul(distance);
        let multiplier = 1000 + i128::from(self.fall_step.milli()).abs() * i128::from(MAX_CAPTURES);
        let fall = Points::from_wide_milli(
            i128::from(self.fall.milli()).abs() * i128::from(d) * multiplier / 1000,
        );
        let n = MAX_CAPTURES as usize;
        let chains = largest(
            (1..=n)
                .map(|k| self.counter_award(k))
                .chain((2..=n).map(|h| self.combination_award(h))),
        );
        let capture =
            self.capture.abs() * a.saturating_mul(d) + self.en_passant.abs() + fall + chains;
        movement + self.castling.abs() + capture + self.check.abs()
    }

    /// The first product of the table's values that can pass
    /// [`Points::MAX_TOTAL`] in one award, as the keys it multiplies, with
    /// its largest value in points; computed exactly. `None` when every
    /// award fits (then only a game's sum can pass it).
    pub fn oversized_product(&self) -> Option<(&'static str, i128)> {
        let (a, d) = self.largest_powers();
        let (a, d) = (i128::from(a), i128::from(d));
        let m = |p: Points| i128::from(p.milli()).abs();
        let distance = i128::from(self.knight_squares.abs().max(7));
        let most = |v: &[Points]| v.iter().map(|&p| m(p)).max().unwrap_or(0);
        let rates = |v: &[(i64, Points)]| v.iter().map(|&(_, p)| m(p)).max().unwrap_or(0);
        let captures = i128::from(MAX_CAPTURES);
        let products = [
            (
                "wacky.per_square x wacky.attack x wacky.knight_squares",
                m(self.per_square) * a * distance,
            ),
            (
                "wacky.capture x wacky.attack x wacky.defence",
                m(self.capture) * a * d,
            ),
            (
                "wacky.fall x wacky.defence x (1 + wacky.fall_step x 30)",
                m(self.fall) * d * (1000 + m(self.fall_step) * captures) / 1000,
            ),
            (
                "wacky.counter_step x 30 (+ wacky.counter)",
                most(&self.counter) + m(self.counter_step) * captures,
            ),
            (
                "wacky.combination_step x 30 (+ wacky.combination)",
                most(&self.combination) + m(self.combination_step) * captures,
            ),
            (
                "wacky.life x 16 x wacky.defence",
                rates(&self.life) * i128::from(MAX_PIECES) * d,
            ),
            (
                "wacky.moves x wacky.moves_limit",
                rates(&self.moves) * i128::from(self.moves_limit.abs()),
            ),
        ];
        let max = i128::from(Points::MAX_TOTAL.milli());
        products
            .into_iter()
            .find(|&(_, v)| v > max)
            .map(|(keys, v)| (keys, v / 1000))
    }

    /// Whether any counter or combination award is not zero (then the
    /// chains in the memo change what later captures earn).
    pub fn pays_chains(&self) -> bool {
        let awards = self.counter.iter().chain(&self.combination);
        let steps = [self.counter_step, self.combination_step];
        awards.chain(&steps).any(|&p| p != Points::ZERO)
    }

    /// The most a quiet move (no capture, promotion or check) earns: its
    /// distance (a king's step, a pawn's double step, a line of seven
    /// squares, a knight move) or castling (the king's two squares and the
    /// castling award); zero if every one of them pays nothing or less.
    pub fn quiet_bound(&self) -> Points {
        let a = |r: Role| self.attack.of(r);
        let step = |r: Role, squares: i64| self.per_square * a(r).saturating_mul(squares);
        [
            step(Role::King, 1),
            step(Role::Pawn, 2),
            step(Role::Knight, self.knight_squares),
            step(Role::Bishop, 7),
            step(Role::Rook, 7),
            step(Role::Queen, 7),
            step(Role::King, 2) + self.castling,
        ]
        .into_iter()
        .fold(Points::ZERO, Points::max)
    }

    /// The largest margin an ending adds without a clock (the search has
    /// none): the mate award in place of the check, and the life and moves
    /// bonuses (life is at most 16 pieces' defending power).
    pub fn end_bound(&self) -> Points {
        let (_, d) = self.largest_powers();
        let life = largest(self.life.iter().map(|&(_, r)| r)) * MAX_PIECES.saturating_mul(d);
        let moves = largest(self.moves.iter().map(|&(_, r)| r)) * self.moves_limit.abs();
        (self.mate - self.check).abs() + life + moves
    }
}

/// The squares a move travels, as the specification counts them.
fn distance(t: &Table, m: Move) -> i64 {
    match m {
        Move::Castle { .. } => 2,
        Move::Normal {
            role: Role::Knight, ..
        } => t.knight_squares,
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
            i64::from(from.distance(to))
        }
        Move::Put { .. } => 0,
    }
}

/// The award of a move by itself: distance, capture, en passant, fall,
/// counter or combination, castling and check. `memo` is the memo before
/// the move and `next` the one after it.
pub fn action_award(
    t: &Table,
    memo: &Memo,
    next: &Memo,
    before: View,
    action: Action,
    after: View,
) -> Award {
    let mut award = Award::default();
    let Action::Move(m) = action else {
        return award;
    };
    let mover = before.turn;
    let a = t.attack.of(m.role());
    award.give(mover, t.per_square * (a * distance(t, m)), Event::Move);
    if m.is_castle() {
        award.give(mover, t.castling, Event::Castling);
    }
    if let Some(captured) = m.capture() {
        let d = t.defence.of(captured);
        award.give(mover, t.capture * (a * d), Event::Capture);
        if m.is_en_passant() {
            award.give(mover, t.en_passant, Event::EnPassant);
        }
        let earlier = i128::from(memo.captures);
        let multiplier = 1000 + i128::from(t.fall_step.milli()) * earlier;
        let fall =
            Points::from_wide_milli(i128::from(t.fall.milli()) * i128::from(d) * multiplier / 1000);
        award.give(mover, fall, Event::Fall);
        if memo.last_capture_to == Some(m.to()) && next.counter > 0 {
            award.give(
                mover,
                t.counter_award(usize::from(next.counter)),
                Event::Counter,
            );
        } else if next.run_of(mover) >= 2 {
            award.give(
                mover,
                t.combination_award(usize::from(next.run_of(mover))),
                Event::Combination,
            );
        }
    }
    if after.check {
        award.give(mover, t.check, Event::Check);
    }
    award
}

/// What a mating move earns beyond the check award [`action_award`] gave:
/// `mate - check` to the winner.
pub fn mate_award(t: &Table, winner: Color) -> Award {
    let mut award = Award::default();
    award.give(winner, t.mate - t.check, Event::Mate);
    award
}

/// The end-of-game bonuses (life, moves, time) of the player who gave
/// checkmate in this game; nothing for any other ending.
pub fn outcome_award(
    t: &Table,
    memo: &Memo,
    end: View,
    ending: &Ending,
    ctx: &EndContext,
) -> Award {
    let mut award = Award::default();
    match *ending {
        Ending::Checkmate { winner } => {
            let moves = memo.moves_of(winner);
            // A position that is mate on arrival was not mated in this game.
            if moves == 0 {
                return award;
            }
            let life = t.life(end.board, winner);
            award.give(winner, t.life_bonus(life), Event::Life);
            let mb = t.moves_bonus(i64::from(moves));
            if mb != Points::ZERO {
                award.give(winner, mb, Event::Moves);
            }
            if let Some(clock) = ctx.clock(winner) {
                let tb = t.time_bonus(clock);
                if tb != Points::ZERO {
                    award.give(winner, tb, Event::Time);
                }
            }
        }
        Ending::Resignation { .. } => {
            award.events.add(Event::Resignation);
        }
        _ => {}
    }
    award
}

/// The wacky scoring.
#[derive(Clone, Copy, Debug)]
pub struct Wacky;

const KEYS: &[Key] = &[
    key("attack.pawn", "attacking power A of a pawn (whole number)"),
    key("attack.knight", "A of a knight"),
    key("attack.bishop", "A of a bishop"),
    key("attack.rook", "A of a rook"),
    key("attack.queen", "A of a queen"),
    key("attack.king", "A of a king"),
    key("defence.pawn", "defending power D of a pawn (whole number)"),
    key("defence.knight", "D of a knight"),
    key("defence.bishop", "D of a bishop"),
    key("defence.rook", "D of a rook"),
    key("defence.queen", "D of a queen"),
    key("defence.king", "D of a king"),
    key(
        "per_square",
        "a move: per_square x A(mover) x squares travelled",
    ),
    key(
        "knight_squares",
        "the squares a knight move counts as (whole number)",
    ),
    key("capture", "a capture: capture x A(capturer) x D(captured)"),
    key("en_passant", "an en-passant capture, on top of the capture"),
    key(
        "fall",
        "every capture: fall x D(captured) x (1 + fall_step x captures earlier in the game)",
    ),
    key(
        "fall_step",
        "the growth of the fall multiplier per earlier capture",
    ),
    key(
        "counter",
        "the n-th recapture of a chain (a capture on the square of the opponent's capture just before): the n-th entry",
    ),
    key(
        "counter_step",
        "added for each recapture past the end of counter",
    ),
    key(
        "combination",
        "the h-th capture of a run of one's own captures, the opponent not capturing between (h >= 2): entry h - 1",
    ),
    key(
        "combination_step",
        "added for each capture past the end of combination",
    ),
    key("castling", "castling"),
    key("check", "a check"),
    key("mate", "a checkmate, in place of check"),
    key(
        "life",
        "the mating player's life bonus: L = material left counted in D; L x the rate of the last [from L, rate] band with from <= L",
    ),
    key(
        "moves_limit",
        "no moves bonus at or above this many moves of the mating player (whole number)",
    ),
    key(
        "moves",
        "the mating player's moves bonus: (moves_limit - m) x the rate of the last [from m, rate] band with from <= m",
    ),
    key(
        "time",
        "the mating player's time bonus, with a clock: the time left cut greedily into [seconds, points] units, in this order",
    ),
];

impl VariantScoring for Wacky {
    fn action_award(
        &self,
        t: &Tables,
        memo: &Memo,
        next: &Memo,
        before: View,
        action: Action,
        after: View,
    ) -> Award {
        action_award(&t.wacky, memo, next, before, action, after)
    }

    fn has_action_awards(&self) -> bool {
        true
    }

    /// The mate award in place of the check award, to the mating player.
    fn mate_award(&self, t: &Tables, _before: View, _action: Action, end: View) -> Award {
        mate_award(&t.wacky, !end.turn)
    }

    /// The check award, which the mate award replaces.
    fn replaced_by_mate(&self) -> Option<Event> {
        Some(Event::Check)
    }

    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        outcome_award(&t.wacky, end.memo, end.node, end.ending, end.ctx)
    }

    fn action_bound(&self, t: &Tables) -> Points {
        t.wacky.action_bound()
    }

    fn end_bound(&self, t: &Tables) -> Points {
        t.wacky.end_bound()
    }

    /// Thirty: the fall awards grow with every capture, and material
    /// decides who collects them and who mates.
    fn search_pawns(&self) -> i64 {
        30
    }

    /// A fifth of a check (1000 with the defaults).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        (t.wacky.check, 5)
    }

    /// Never: a mate pays its award and bonuses, often less than the
    /// checks a won position still collects.
    fn decisive_band(&self, _t: &Tables) -> bool {
        false
    }

    /// Unless its counter and combination awards are all zero.
    fn memo_in_key(&self, t: &Tables) -> bool {
        t.wacky.pays_chains()
    }

    /// The distance and castling awards.
    fn quiet_award_bound(&self, t: &Tables) -> Points {
        t.wacky.quiet_bound()
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        "wacky: every move, capture, chain and check, and the mating player's end bonuses"
    }

    /// A hundred points: a GUI's `+1.00` is 10000 points (a check:
    /// `+0.50`); wacky's margins run to hundreds of thousands of points (a
    /// mate's life and moves bonuses), and stay within the `cp` limit so.
    fn milli_per_cp(&self) -> Option<i64> {
        Some(100_000)
    }
}
