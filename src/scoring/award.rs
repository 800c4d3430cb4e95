//! [`Award`]: points to White and to Black with the named events behind them.
//!
//! An award keeps its points per side and the set of its events, which is
//! all the search needs. How the points split between the events (a
//! stylish mate's `mate 110 + discovered 50 + coverage 70`) is recorded
//! only on request, by running the scoring inside [`itemise`]: every
//! [`Award::give`] then also writes an [`AwardItem`]. The search never asks,
//! and pays one thread-local flag read per award for the possibility.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use shakmaty::Color;

use super::Points;
use crate::rules::Ending;

/// A named reason for points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Event {
    /// Distance moved (wacky).
    Move,
    /// A capture.
    Capture,
    /// An en-passant capture.
    EnPassant,
    /// Fall bonus on a capture (wacky).
    Fall,
    /// A recapture continuing a counter chain (wacky).
    Counter,
    /// A capture continuing a combination run (wacky).
    Combination,
    /// Castling.
    Castling,
    /// A check.
    Check,
    /// A double check (stylish mates).
    DoubleCheck,
    /// A checkmate.
    Mate,
    /// A discovered mate (stylish).
    Discovered,
    /// The coverage bonus of a discovered mate (stylish).
    Coverage,
    /// The mating piece was promoted on the mating move (stylish).
    PromotedMate,
    /// A promotion.
    Promotion,
    /// Wacky's life bonus.
    Life,
    /// Wacky's moves bonus.
    Moves,
    /// Wacky's time bonus.
    Time,
    /// A draw award (stylish compensation, sets and dynamic draw points).
    Draw,
    /// Stylish: the last capture of a game that ends with bare kings.
    LastCapture,
    /// A stalemate award.
    Stalemate,
    /// A perpetual-check award.
    PerpetualCheck,
    /// A mutual-perpetual-check award.
    MutualPerpetualCheck,
    /// A threefold-repetition award.
    Repetition,
    /// A bare-king award (sets).
    BareKing,
    /// A claim (sets).
    Claim,
    /// A resignation.
    Resignation,
    /// The move-count rule.
    MoveRule,
    /// Insufficient material.
    InsufficientMaterial,
    /// A win by extinction.
    Extinction,
    /// A won game (the board result of chess and extinction, a mate split).
    Win,
    /// A loss on time, scored as a resignation (named apart from one).
    TimeForfeit,
}

impl Event {
    /// Every event, in bit order.
    pub const ALL: [Event; 31] = [
        Event::Move,
        Event::Capture,
        Event::EnPassant,
        Event::Fall,
        Event::Counter,
        Event::Combination,
        Event::Castling,
        Event::Check,
        Event::DoubleCheck,
        Event::Mate,
        Event::Discovered,
        Event::Coverage,
        Event::PromotedMate,
        Event::Promotion,
        Event::Life,
        Event::Moves,
        Event::Time,
        Event::Draw,
        Event::LastCapture,
        Event::Stalemate,
        Event::PerpetualCheck,
        Event::MutualPerpetualCheck,
        Event::Repetition,
        Event::BareKing,
        Event::Claim,
        Event::Resignation,
        Event::MoveRule,
        Event::InsufficientMaterial,
        Event::Extinction,
        Event::Win,
        Event::TimeForfeit,
    ];

    /// The event's name in output (`capture`, `en_passant`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Event::Move => "move",
            Event::Capture => "capture",
            Event::EnPassant => "en_passant",
            Event::Fall => "fall",
            Event::Counter => "counter",
            Event::Combination => "combination",
            Event::Castling => "castling",
            Event::Check => "check",
            Event::DoubleCheck => "double_check",
            Event::Mate => "mate",
            Event::Discovered => "discovered",
            Event::Coverage => "coverage",
            Event::PromotedMate => "promoted_mate",
            Event::Promotion => "promotion",
            Event::Life => "life",
            Event::Moves => "moves",
            Event::Time => "time",
            Event::Draw => "draw",
            Event::LastCapture => "last_capture",
            Event::Stalemate => "stalemate",
            Event::PerpetualCheck => "perpetual_check",
            Event::MutualPerpetualCheck => "mutual_perpetual_check",
            Event::Repetition => "repetition",
            Event::BareKing => "bare_king",
            Event::Claim => "claim",
            Event::Resignation => "resignation",
            Event::MoveRule => "move_rule",
            Event::InsufficientMaterial => "insufficient_material",
            Event::Extinction => "extinction",
            Event::Win => "win",
            Event::TimeForfeit => "time_forfeit",
        }
    }
}

/// A set of [`Event`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Events(u32);

impl Events {
    /// No events.
    pub const NONE: Events = Events(0);

    /// Adds an event.
    #[inline]
    pub fn add(&mut self, e: Event) {
        self.0 |= 1 << e as u8;
    }

    /// Removes an event.
    #[inline]
    pub fn remove(&mut self, e: Event) {
        self.0 &= !(1 << e as u8);
    }

    /// Whether the set holds `e`.
    #[inline]
    pub fn contains(self, e: Event) -> bool {
        self.0 & (1 << e as u8) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The events, in bit order.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        Event::ALL.into_iter().filter(move |e| self.contains(*e))
    }

    /// The union of two sets.
    pub fn union(self, o: Events) -> Events {
        Events(self.0 | o.0)
    }
}

impl Events {
    /// The events' names joined by `sep` (empty when none).
    pub fn joined(self, sep: &str) -> String {
        let names: Vec<&str> = self.iter().map(Event::name).collect();
        names.join(sep)
    }
}

impl Serialize for Events {
    /// The events' names, as a list: `["capture", "check"]`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for e in self.iter() {
            seq.serialize_element(e.name())?;
        }
        seq.end()
    }
}

impl Serialize for Event {
    /// The event's name ([`Event::name`]).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for Events {
    /// The names joined by commas: `capture,check`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.joined(","))
    }
}

/// Points to White and to Black, with the events that earned them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Award {
    /// Points to White.
    pub white: Points,
    /// Points to Black.
    pub black: Points,
    /// Why.
    pub events: Events,
}

impl Award {
    /// Points to `color`.
    #[inline]
    pub fn points(&self, color: Color) -> Points {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Adds `p` to `color` for `event`.
    #[inline]
    pub fn give(&mut self, color: Color, p: Points, event: Event) {
        match color {
            Color::White => self.white += p,
            Color::Black => self.black += p,
        }
        self.events.add(event);
        if RECORDING.get() {
            let (w, b) = color.fold_wb((p, Points::ZERO), (Points::ZERO, p));
            record(event, w, b);
        }
    }

    /// An award of `w` to White and `b` to Black for `event`.
    pub fn split(w: Points, b: Points, event: Event) -> Award {
        let mut a = Award {
            white: w,
            black: b,
            events: Events::NONE,
        };
        a.events.add(event);
        if RECORDING.get() {
            record(event, w, b);
        }
        a
    }

    /// Names the points of event `from` as `to`'s: `from` leaves the
    /// events (and, inside [`itemise`], its items count as `to`'s). How a
    /// mate takes over the award it replaces and a resignation becomes a
    /// loss on time.
    pub fn rename_event(&mut self, from: Event, to: Event) {
        if !self.events.contains(from) {
            return;
        }
        self.events.remove(from);
        self.events.add(to);
        if RECORDING.get() {
            ITEMS.with_borrow_mut(|items| {
                let moved: Vec<AwardItem> =
                    items.iter().filter(|i| i.event == from).copied().collect();
                items.retain(|i| i.event != from);
                for i in moved {
                    merge(items, to, i.white, i.black);
                }
            });
        }
    }

    /// The sum of two awards.
    pub fn plus(self, o: Award) -> Award {
        Award {
            white: self.white + o.white,
            black: self.black + o.black,
            events: self.events.union(o.events),
        }
    }

    /// Whether no points are given.
    pub fn is_zero(&self) -> bool {
        self.white == Points::ZERO && self.black == Points::ZERO
    }

    /// The points from `mover`'s side, as people read them: `+5`, or
    /// `+5 / opponent +2` when the opponent got points too (`opponent`
    /// names it: `opp` in a narrow column). The human text of every tool's
    /// award starts here; the events follow in the tool's own way.
    pub fn share_text(&self, mover: Color, opponent: &str) -> String {
        let own = self.points(mover);
        let other = self.points(!mover);
        if other == Points::ZERO {
            format!("+{own}")
        } else {
            format!("+{own} / {opponent} +{other}")
        }
    }
}

impl Serialize for Award {
    /// `{"white": 5, "black": 0, "events": ["capture"]}`: every tool's
    /// JSON of an award.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("white", &self.white)?;
        m.serialize_entry("black", &self.black)?;
        m.serialize_entry("events", &self.events)?;
        m.end()
    }
}

/// The points one event of an award paid each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AwardItem {
    /// The event.
    pub event: Event,
    /// Its points to White.
    pub white: Points,
    /// Its points to Black.
    pub black: Points,
}

thread_local! {
    /// Whether this thread is inside [`itemise`].
    static RECORDING: Cell<bool> = const { Cell::new(false) };
    /// The items recorded so far, one per event.
    static ITEMS: RefCell<Vec<AwardItem>> = const { RefCell::new(Vec::new()) };
}

fn merge(items: &mut Vec<AwardItem>, event: Event, white: Points, black: Points) {
    match items.iter_mut().find(|i| i.event == event) {
        Some(i) => {
            i.white += white;
            i.black += black;
        }
        None => items.push(AwardItem {
            event,
            white,
            black,
        }),
    }
}

#[cold]
fn record(event: Event, white: Points, black: Points) {
    ITEMS.with_borrow_mut(|items| merge(items, event, white, black));
}

/// Runs `f`, recording the points every award it makes gives each event:
/// the items of the awards made inside, summed by event, in the order the
/// events were first paid, with events whose points cancel out left out.
/// For display (the points behind a ply's award); the awards themselves
/// are the same as without it.
pub fn itemise<T>(f: impl FnOnce() -> T) -> (T, Vec<AwardItem>) {
    let outer = RECORDING.replace(true);
    let saved = ITEMS.take();
    let out = f();
    let mut items = ITEMS.replace(saved);
    RECORDING.set(outer);
    items.retain(|i| i.white != Points::ZERO || i.black != Points::ZERO);
    if outer {
        // An itemise inside another: its items count in the outer too.
        ITEMS.with_borrow_mut(|all| {
            for i in &items {
                merge(all, i.event, i.white, i.black);
            }
        });
    }
    (out, items)
}

/// What an action earns the moment it is played, as the referee shows its
/// ply (see `Scorer::immediate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Immediate {
    /// The ply's award: the action's own award plus what it earns by
    /// ending the game (a stylish mate).
    pub award: Award,
    /// The ending it brings about, if any.
    pub ending: Option<Ending>,
    /// The ending's own award (zero when the game goes on).
    pub outcome: Award,
}

impl Immediate {
    /// The award and the outcome together: all the action earns now.
    pub fn total(&self) -> Award {
        self.award.plus(self.outcome)
    }

    /// The mover's margin of [`Immediate::total`].
    pub fn margin(&self, mover: Color) -> Points {
        let all = self.total();
        all.points(mover) - all.points(!mover)
    }
}

/// What an ending pays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndAward {
    /// Added to the last action (mate awards that belong to the mating
    /// move).
    pub last_ply: Award,
    /// The ending's own award.
    pub outcome: Award,
}

impl EndAward {
    /// Both parts together.
    pub fn total(&self) -> Award {
        self.last_ply.plus(self.outcome)
    }
}
