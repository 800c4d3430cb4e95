//! Self-play data for tuning and training (`tally datagen`): games at a
//! fixed number of nodes per move from randomised openings, written in a
//! compact binary format with every searched position's score, the game's
//! result and the points still to come.
//!
//! What lives here: the run's settings ([`Config`]), the parallel driver
//! ([`run`]: games on a thread pool, written whole and in index order,
//! resumable, interruptible), the format ([`mod@format`]), one game
//! ([`play`]), the reader's statistics ([`stats`]) and the reading of one
//! variant's games for the tuner and the trainer ([`read`]). What does not: the
//! command line (`cli::datagen`), the search (driven through the
//! [`Engine`] facade), the points (the referee's
//! [`Scorer`]).
//!
//! Reproducibility: game `i` draws its opening from a generator seeded by
//! `(seed, i)` and searches single-threaded with a table cleared when it
//! starts, and games are written in index order, so one seed gives the
//! same bytes whatever the number of threads, and a resumed run the same
//! bytes as an uninterrupted one. A shard `K/N` plays the games with
//! `i % N == K - 1`. With `--chess960` and no openings, the start
//! position is one of the 960, drawn by the same generator.

pub mod format;
pub mod play;
pub mod read;
pub mod setup;
pub mod stats;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

use crate::engine::{Engine, EngineOptions};
use crate::eval::EvalMode;
use crate::nnue::Network;
use crate::rules::Variant;
use crate::scoring::{DrawAdvantage, Scorer, Tables};
use crate::shard::Shard;

use format::{Writer, fnv64};
use play::Played;

/// The opening check: a search of the opening at `nodes`; the opening is
/// dropped when the magnitude of its value exceeds `max_score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verify {
    /// Nodes of the verification search.
    pub nodes: u64,
    /// The largest acceptable magnitude, in internal units.
    pub max_score: i32,
}

/// Win adjudication: `plies` consecutive scores (both sides' searches) of
/// at least `score` for the same side, from White's view; decided games
/// count. Scored as the loser's resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinRule {
    /// The threshold in internal units.
    pub score: i32,
    /// Consecutive plies.
    pub plies: u32,
}

/// Draw adjudication: from ply `after` of the game on, `plies`
/// consecutive undecided scores of magnitude at most `score`. Scored as
/// the move-count draw the rules would give at that point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The threshold in internal units.
    pub score: i32,
    /// Consecutive plies.
    pub plies: u32,
    /// The first ply (counted from the game's start) that may count.
    pub after: u32,
}

/// Everything that decides a run's games.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant.
    pub variant: Variant,
    /// Nodes per move (the hard cap with `soft_nodes`).
    pub nodes: u64,
    /// No new iteration after this many nodes of a move (`None`: `nodes`
    /// alone, a fixed count).
    pub soft_nodes: Option<u64>,
    /// Random plies (chess moves, uniformly) before the searches start.
    pub random_plies: u32,
    /// Start positions (FEN), one drawn at random per game; the standard
    /// position when empty (a Chess960 start position with `chess960`).
    pub openings: Vec<String>,
    /// Chess960: games start from the 960 start positions, one drawn at
    /// random per game, when no openings are given, and read and play
    /// Chess960 castling (as they do by themselves when an opening's
    /// castling rights need it: [`Config::uses_chess960`]).
    pub chess960: bool,
    /// The opening check.
    pub verify: Option<Verify>,
    /// Win adjudication.
    pub win: Option<WinRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Hash table per game, in MiB.
    pub hash_mb: usize,
    /// The seed.
    pub seed: u64,
    /// The point tables.
    pub tables: Tables,
    /// Sets: who gets 1/2 for a plain draw.
    pub draw_advantage: DrawAdvantage,
    /// The shard this run plays.
    pub shard: Option<Shard>,
    /// Games played at once.
    pub threads: usize,
    /// The net the games are played with (`EvalMode nnue`: the data of a
    /// net's next generation); without one, the default evaluation (which
    /// reads the built-in net of the board).
    pub net: Option<Arc<Network>>,
}

/// Default nodes per move.
pub const DEFAULT_NODES: u64 = 5000;
/// Default random plies.
pub const DEFAULT_RANDOM_PLIES: u32 = 8;
/// Default largest opening score.
pub const DEFAULT_MAX_OPENING_SCORE: i32 = 300;
/// Default win adjudication.
pub const DEFAULT_WIN: WinRule = WinRule {
    score: 900,
    plies: 6,
};
/// Default draw adjudication.
pub const DEFAULT_DRAW: DrawRule = DrawRule {
    score: 20,
    plies: 12,
    after: 80,
};

impl Config {
    /// The defaults for `variant` under `tables`. The opening check and
    /// win adjudication are on where a won game outranks every estimate
    /// (the search's decisive band: every variant but stylish and wacky,
    /// whose scores are point counts on another scale); draw adjudication
    /// where an unfinished game's plain draw is worth what any draw is
    /// (chess, extinction, dynamic).
    pub fn new(variant: Variant, tables: Tables) -> Config {
        let band = Scorer::with_tables(variant, tables.clone()).decisive_band();
        let draws = matches!(
            variant,
            Variant::Chess | Variant::Extinction | Variant::Dynamic
        );
        Config {
            variant,
            nodes: DEFAULT_NODES,
            soft_nodes: None,
            random_plies: DEFAULT_RANDOM_PLIES,
            openings: Vec::new(),
            chess960: false,
            verify: band.then_some(Verify {
                nodes: DEFAULT_NODES,
                max_score: DEFAULT_MAX_OPENING_SCORE,
            }),
            win: band.then_some(DEFAULT_WIN),
            draw: draws.then_some(DEFAULT_DRAW),
            hash_mb: 4,
            seed: 0,
            tables,
            draw_advantage: DrawAdvantage::Black,
            shard: None,
            threads: 1,
            net: None,
        }
    }

    /// The text that identifies the run (everything that decides its
    /// games' bytes, not the thread count or the target): written in the
    /// file header and compared when a run resumes.
    pub fn settings(&self) -> String {
        let verify = self.verify.map_or_else(
            || "off".to_owned(),
            |v| format!("{}/{}", v.nodes, v.max_score),
        );
        let win = self
            .win
            .map_or_else(|| "off".to_owned(), |w| format!("{}/{}", w.score, w.plies));
        let draw = self.draw.map_or_else(
            || "off".to_owned(),
            |d| format!("{}/{}/{}", d.score, d.plies, d.after),
        );
        let openings = if self.openings.is_empty() && self.chess960 {
            "chess960".to_owned()
        } else if self.openings.is_empty() {
            "startpos".to_owned()
        } else {
            format!(
                "{}:{:016x}",
                self.openings.len(),
                fnv64(self.openings.join("\n").as_bytes())
            )
        };
        let tables = fnv64(
            serde_json::to_string(&self.tables)
                .unwrap_or_default()
                .as_bytes(),
        );
        let shard = self
            .shard
            .map_or_else(|| "all".to_owned(), |s| s.to_string());
        // The net the games are played with, given or built in (where the
        // default evaluation reads one), so that a run resumes only with the
        // same play; the hand-written evaluation is named by its absence.
        let net = crate::eval::net_for(self.variant, self.eval_mode(), self.net.clone())
            .map_or_else(String::new, |n| format!(" net={}", n.name()));
        format!(
            "variant={} nodes={}{soft} random-plies={} openings={openings} verify={verify} \
             win={win} draw={draw} hash={} seed={} tables={tables:016x} draw-advantage={} \
             shard={shard}{net}{chess960}",
            self.variant,
            self.nodes,
            self.random_plies,
            self.hash_mb,
            self.seed,
            self.draw_advantage.as_str(),
            soft = self
                .soft_nodes
                .map_or_else(String::new, |n| format!(" soft-nodes={n}")),
            chess960 = if self.uses_chess960() {
                " castling=chess960"
            } else {
                ""
            },
        )
    }

    /// Whether the games read and play Chess960 castling: asked for, or
    /// needed by an opening's castling rights
    /// ([`fen_needs_chess960`](crate::rules::fen_needs_chess960)).
    pub fn uses_chess960(&self) -> bool {
        self.chess960
            || self
                .openings
                .iter()
                .any(|f| crate::rules::fen_needs_chess960(f))
    }

    /// The global index of this shard's `j`-th game.
    pub fn game_index(&self, j: u64) -> u64 {
        match self.shard {
            None => j,
            Some(s) => j * u64::from(s.count) + u64::from(s.index - 1),
        }
    }

    /// How many of the games `0..games` are this shard's.
    pub fn shard_games(&self, games: u64) -> u64 {
        match self.shard {
            None => games,
            Some(s) => {
                let k = u64::from(s.index - 1);
                games.saturating_sub(k).div_ceil(u64::from(s.count))
            }
        }
    }

    /// The evaluation the games are played with: the given net's, or the
    /// default evaluation.
    fn eval_mode(&self) -> EvalMode {
        if self.net.is_some() {
            EvalMode::Nnue
        } else {
            EvalMode::Variant
        }
    }

    /// The engine settings a game of the run is played with (one
    /// thread, the run's hash, rules and evaluation).
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            hash_mb: self.hash_mb.max(1),
            threads: 1,
            specials: true,
            chess960: self.uses_chess960(),
            draw_advantage: self.draw_advantage,
            tables: self.tables.clone(),
            eval_mode: self.eval_mode(),
            net: self.net.clone(),
            ..EngineOptions::default()
        }
    }
}

/// Reads EPD openings and checks each under `variant`: a legal position,
/// not already over.
///
/// # Errors
///
/// A message naming the first bad line.
pub fn load_openings(text: &str, variant: Variant) -> Result<Vec<String>, String> {
    use crate::matches::openings;
    let parsed = openings::parse_epd(text)?;
    if !parsed.is_empty() {
        let chess960 = parsed
            .iter()
            .any(|o| crate::rules::fen_needs_chess960(&o.fen));
        openings::validate(&parsed, variant, chess960)?;
    }
    Ok(parsed.into_iter().map(|o| o.fen).collect())
}

/// A run for a number of positions stops with an error after this many
/// games in a row are skipped.
pub const MAX_SKIPPED_RUN: u64 = 200;

/// How much a run generates (in this shard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Games `0..N` of the whole run (all shards).
    Games(u64),
    /// Positions in the whole run, split evenly between the shards: each
    /// file stops at the first game that brings it to its share.
    Positions(u64),
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games in the file at the end.
    pub games: u64,
    /// Positions in the file at the end.
    pub positions: u64,
    /// Games the file held when the run started (resumed).
    pub resumed_games: u64,
    /// Bytes of a torn tail cut off when resuming.
    pub torn_bytes: u64,
    /// Games skipped for want of an acceptable opening.
    pub skipped: u64,
    /// Whether the run stopped before its target (Ctrl-C).
    pub interrupted: bool,
}

impl Target {
    /// The length of this shard's part of the run under `config` and its
    /// unit (`games` or `positions`): the progress bar's.
    pub fn of_shard(self, config: &Config) -> (u64, &'static str) {
        match self {
            Target::Games(g) => (config.shard_games(g), "games"),
            Target::Positions(p) => (
                p.div_ceil(config.shard.map_or(1, |s| u64::from(s.count))),
                "positions",
            ),
        }
    }

    /// Where the run stands in its unit, and the line shown beside it:
    /// the other count and `rate` positions per second.
    pub fn progress(self, games: u64, positions: u64, rate: f64) -> (u64, String) {
        match self {
            Target::Games(_) => (
                games,
                format!("{positions} positions, {rate:.0} positions/s"),
            ),
            Target::Positions(_) => (positions, format!("{games} games, {rate:.0} positions/s")),
        }
    }
}

impl Outcome {
    /// The notes of the run for standard error: a torn game cut off, games
    /// skipped.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.torn_bytes > 0 {
            notes.push(format!(
                "note: cut off a torn last game ({} bytes) before resuming",
                self.torn_bytes
            ));
        }
        if self.skipped > 0 {
            notes.push(format!(
                "note: {} games skipped (no opening passed the check in {} tries)",
                self.skipped,
                play::MAX_ATTEMPTS
            ));
        }
        notes
    }

    /// The run's one-line report: the file, what it holds, and the
    /// `new_positions` written in `secs` seconds on `threads` threads.
    pub fn report(&self, path: &Path, new_positions: u64, secs: f64, threads: usize) -> String {
        format!(
            "{}: {} games, {} positions ({} new positions, {:.0} positions/s on {} threads)",
            path.display(),
            self.games,
            self.positions,
            new_positions,
            new_positions as f64 / secs,
            threads
        )
    }
}

/// Hears about the run's progress (a progress bar).
pub trait Observer: Sync {
    /// The run starts with `games` games and `positions` positions in the
    /// file (resumed).
    fn started(&self, _games: u64, _positions: u64) {}
    /// The file now holds `games` games and `positions` positions.
    fn written(&self, games: u64, positions: u64);
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Observer for Quiet {
    fn written(&self, _games: u64, _positions: u64) {}
}

/// Generates games into `path` until `target` (or `stop`), resuming a file
/// of the same settings.
///
/// # Errors
///
/// A one-line message: an existing file of other settings, a damaged
/// file, a write failure.
pub fn run(
    config: &Config,
    target: Target,
    path: &Path,
    stop: &AtomicBool,
    observer: &dyn Observer,
) -> Result<Outcome, String> {
    let settings = config.settings();
    let mut outcome = Outcome::default();
    let mut first_j = 0;
    // An empty file (a run killed before its header was written) starts
    // afresh.
    let resume = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    let mut writer = if resume {
        let scan = format::scan(path)?;
        if scan.settings != settings {
            return Err(format!(
                "{} holds data of other settings ({}): give another output file to start afresh",
                path.display(),
                scan.settings
            ));
        }
        outcome.games = scan.games;
        outcome.positions = scan.positions;
        outcome.resumed_games = scan.games;
        outcome.torn_bytes = scan.torn;
        if let Some(last) = scan.last_index {
            let k = config.shard.map_or(0, |s| u64::from(s.index - 1));
            let n = config.shard.map_or(1, |s| u64::from(s.count));
            first_j = (last.saturating_sub(k)) / n + 1;
        }
        Writer::resume(path, scan.valid_len)?
    } else {
        Writer::create(path, &settings)?
    };
    let (end_j, position_goal) = match target {
        Target::Games(g) => (config.shard_games(g), u64::MAX),
        Target::Positions(p) => {
            let n = config.shard.map_or(1, |s| u64::from(s.count));
            (u64::MAX, p.div_ceil(n))
        }
    };
    observer.started(outcome.games, outcome.positions);
    if first_j >= end_j || outcome.positions >= position_goal {
        return Ok(outcome);
    }
    let next = AtomicU64::new(first_j);
    let halt = AtomicBool::new(false);
    let threads = config.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tally-datagen-{i}"))
        .build()
        .map_err(|e| format!("cannot start the game threads: {e}"))?;
    let (tx, rx) = mpsc::channel::<(u64, Played)>();
    let mut error = None;
    let mut reached = false;
    std::thread::scope(|s| {
        let next = &next;
        let halt = &halt;
        s.spawn(move || {
            pool.broadcast(|_| {
                let tx = tx.clone();
                let mut engine = Engine::with_options(config.variant, config.engine_options());
                let abort = || stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed);
                while !abort() {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    if j >= end_j {
                        break;
                    }
                    let played = play::play_game(&mut engine, config, config.game_index(j), &abort);
                    if tx.send((j, played)).is_err() {
                        break;
                    }
                }
            });
            drop(tx);
        });
        // Games are written whole and in index order; an aborted game
        // blocks every later one, which a resumed run plays again.
        let mut pending: BTreeMap<u64, Played> = BTreeMap::new();
        let mut want = first_j;
        let mut blocked = false;
        let mut skipped_run = 0u64;
        for (j, played) in rx {
            if blocked {
                continue;
            }
            pending.insert(j, played);
            while let Some(played) = pending.remove(&want) {
                match played {
                    Played::Game(game) => {
                        let written = game
                            .encode()
                            .map_err(|e| e.to_string())
                            .and_then(|bytes| writer.game(&bytes));
                        if let Err(e) = written {
                            error = Some(e);
                            blocked = true;
                        } else {
                            outcome.games += 1;
                            outcome.positions += game.positions.len() as u64;
                            observer.written(outcome.games, outcome.positions);
                            skipped_run = 0;
                        }
                    }
                    Played::Skipped => {
                        outcome.skipped += 1;
                        skipped_run += 1;
                        // A run for a number of positions has no last game:
                        // one whose openings all fail must end.
                        if skipped_run >= MAX_SKIPPED_RUN && end_j == u64::MAX {
                            error = Some(format!(
                                "{MAX_SKIPPED_RUN} games in a row skipped (no opening passes the check or lasts a move): nothing more can be written; what was written is kept"
                            ));
                            blocked = true;
                        }
                    }
                    Played::Aborted => blocked = true,
                }
                // A stop writes nothing more, even games already played.
                if stop.load(Ordering::Relaxed) {
                    blocked = true;
                }
                want += 1;
                if want >= end_j || outcome.positions >= position_goal {
                    reached = true;
                    blocked = true;
                }
                if blocked {
                    halt.store(true, Ordering::Relaxed);
                    pending.clear();
                    break;
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    outcome.interrupted = !reached;
    Ok(outcome)
}
