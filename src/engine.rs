//! [`Engine`]: the facade that owns the game, the options, the
//! transposition table and the threads, and runs searches in the
//! background. UCI, `tally analyse`, `tally match` and `tally bench` all
//! drive the search through it; it formats nothing. It resolves UCI
//! `searchmoves` into actions. What UCI shows besides the search (the
//! evaluation's terms, the points so far, the phase for WDL) comes from here
//! too (the best action's award comes with the search's result), and the
//! engine clears its own transposition table when the scoring changes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often [`Engine::search_halting`] asks whether to stop.
pub const HALT_POLL: Duration = Duration::from_millis(5);

use crate::eval::base::{self, Breakdown};
use crate::eval::variant_weights::WeightOverrides;
use crate::eval::{EvalMode, Evaluate, Evaluator, Units};
use crate::nnue::Network;
use crate::referee::score_game;
pub use crate::rules::AnyGame;
use crate::rules::{
    Action, ActionList, DivideEntry, Ending, Game, Node, ParsedAction, Pos, RulesError, Variant,
    perft_divide, perft_divide_until,
};
use crate::scoring::{DrawAdvantage, EndContext, Memo, Points, Scorer, Tables};
use crate::search::skill::{self, Shown};
use crate::search::{
    self, Limits, Memory, Reporter, SearchJob, SearchResult, Shared, Skill, Strength, Tt,
};
use crate::syzygy::{Probing, SyzygyOptions, Tablebases, Wdl, chess_of};
use crate::with_game;

/// Engine settings (the UCI options, in typed form).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Time kept in reserve per move.
    pub move_overhead: Duration,
    /// Whether special actions (`disk`, `swap`, `restore`, `claim`) are
    /// played and accepted.
    pub specials: bool,
    /// Whether positions and actions are read and written as Chess960
    /// (`UCI_Chess960`): X-FEN and Shredder-FEN castling rights, castling
    /// as king takes rook.
    pub chess960: bool,
    /// Who gets the 1/2 point of a plain draw in sets.
    pub draw_advantage: DrawAdvantage,
    /// Variant, base or network evaluation.
    pub eval_mode: EvalMode,
    /// The net loaded for [`EvalMode::Nnue`] (`EvalFile`, `--net`); the
    /// one built into the binary for the board is used without it.
    pub net: Option<Arc<Network>>,
    /// Variant weights set over the built-in ones (`EvalWeights`).
    pub weights: WeightOverrides,
    /// The point tables.
    pub tables: Tables,
    /// The playing strength (full by default).
    pub strength: Strength,
    /// The endgame tables and how the search probes them (`Syzygy*`).
    pub syzygy: SyzygyOptions,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            specials: true,
            chess960: false,
            draw_advantage: DrawAdvantage::Black,
            eval_mode: EvalMode::Variant,
            net: None,
            weights: WeightOverrides::default(),
            tables: Tables::default(),
            strength: Strength::default(),
            syzygy: SyzygyOptions::default(),
        }
    }
}

/// The evaluation of the current position, term by term (what the UCI
/// `eval` command shows).
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// The base evaluation's terms (White's view, centipawns) and phase.
    pub base: Breakdown,
    /// The side to move.
    pub turn: shakmaty::Color,
    /// The engine's evaluation for the side to move, in internal units.
    pub value: i32,
    /// That value as an expected point margin for the side to move.
    pub margin: Points,
    /// The evaluation used.
    pub mode: EvalMode,
    /// The name of the net evaluating, if one does.
    pub net: Option<String>,
}

impl EvalTrace {
    /// The evaluation used, in words: the mode, and the net's name where a
    /// net evaluates (`nnue nn-0d1aa57d8c78`).
    pub fn evaluation(&self) -> String {
        match &self.net {
            Some(net) => format!("{} {net}", self.mode.name()),
            None => self.mode.name().to_owned(),
        }
    }
}

/// An error setting a position: the FEN was refused (nothing changed), or
/// an action was refused after `applied` actions were played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Actions applied before the refused one.
    pub applied: usize,
    /// Whether the FEN itself was refused (the previous position is kept).
    pub bad_fen: bool,
    /// Why.
    pub error: RulesError,
}

struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<SearchResult>,
}

/// The engine.
pub struct Engine {
    variant: Variant,
    options: EngineOptions,
    game: AnyGame,
    tt: Arc<Tt>,
    /// What the search threads learnt in earlier searches of this game.
    memory: Arc<Memory>,
    pool: Arc<rayon::ThreadPool>,
    running: Option<Running>,
    /// Games started ([`Engine::new_game`]): with the position, the seed
    /// of a weakened choice.
    games: u64,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("variant", &self.variant)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

fn build_pool(threads: usize) -> Arc<rayon::ThreadPool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("tally-search-{i}"))
        .stack_size(16 << 20)
        .build()
        .or_else(|_| rayon::ThreadPoolBuilder::new().num_threads(1).build());
    match pool {
        Ok(p) => Arc::new(p),
        // Without any thread the process cannot work at all.
        Err(e) => panic!("cannot start a search thread: {e}"),
    }
}

impl Engine {
    /// An engine for `variant` with default options, at the start position.
    pub fn new(variant: Variant) -> Engine {
        Engine::with_options(variant, EngineOptions::default())
    }

    /// An engine with the given options.
    pub fn with_options(variant: Variant, options: EngineOptions) -> Engine {
        Engine {
            variant,
            game: AnyGame::start_in(variant, options.specials, options.chess960),
            tt: Arc::new(Tt::new(options.hash_mb)),
            memory: Arc::new(Memory::new(options.threads.max(1))),
            pool: build_pool(options.threads),
            running: None,
            games: 0,
            options,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Switches variant and clears the hash table; the position is kept
    /// where it holds under the variant's rules (whether it did), else it
    /// goes back to the variant's start.
    pub fn set_variant(&mut self, variant: Variant) -> bool {
        self.stop_and_wait();
        let (fen, actions) = self.position_text();
        self.variant = variant;
        self.forget();
        let moves: Vec<&str> = actions.iter().map(String::as_str).collect();
        if self.set_position(Some(&fen), &moves).is_ok() {
            return true;
        }
        self.game = AnyGame::start_in(variant, self.options.specials, self.options.chess960);
        false
    }

    /// Forgets what earlier searches learnt: the hash table and the
    /// threads' tables.
    fn forget(&self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// Resizes the hash table (cleared).
    ///
    /// # Errors
    ///
    /// A message when that much memory cannot be had; a table of the old
    /// size stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop_and_wait();
        let mb = mb.max(1);
        // Free the old table first so its memory can be reused.
        self.tt = Arc::new(Tt::new(1));
        match Tt::try_new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.options.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(Tt::new(self.options.hash_mb));
                Err(e)
            }
        }
    }

    /// Frees the hash table's memory (a table of 1 MiB stands in), so
    /// that a new one can be made elsewhere and given to
    /// [`Engine::set_table`].
    pub fn free_hash(&mut self) {
        self.stop_and_wait();
        self.tt = Arc::new(Tt::new(1));
    }

    /// Installs a hash table made elsewhere, of `mb` MiB.
    pub fn set_table(&mut self, tt: Tt, mb: usize) {
        self.stop_and_wait();
        self.tt = Arc::new(tt);
        self.options.hash_mb = mb;
    }

    /// Empties the hash table and forgets what the search threads learnt
    /// (`Clear Hash`, a new game).
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        self.forget();
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.stop_and_wait();
        let threads = threads.max(1);
        if threads != self.options.threads {
            self.options.threads = threads;
            self.pool = build_pool(threads);
            self.memory = Arc::new(Memory::new(threads));
        }
    }

    /// Sets the number of lines to report.
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.max(1);
    }

    /// Sets the playing strength (the next search plays at it).
    pub fn set_strength(&mut self, strength: Strength) {
        self.options.strength = strength;
    }

    /// Sets the move overhead.
    pub fn set_move_overhead(&mut self, d: Duration) {
        self.options.move_overhead = d;
    }

    /// Allows or forbids special actions; the position is kept if it has
    /// none (whether it was), else it goes back to its start.
    pub fn set_specials(&mut self, on: bool) -> bool {
        self.stop_and_wait();
        self.options.specials = on;
        let (fen, actions) = self.position_text();
        let moves: Vec<&str> = actions.iter().map(String::as_str).collect();
        if self.set_position(Some(&fen), &moves).is_ok() {
            return true;
        }
        let _ = self.set_position(Some(&fen), &[]);
        false
    }

    /// Reads and writes positions and actions as Chess960 or not; the
    /// position is kept if it reads the same way (whether it was), else it
    /// goes back to its start (or to the standard start position).
    pub fn set_chess960(&mut self, on: bool) -> bool {
        self.stop_and_wait();
        let (fen, actions) = self.position_text();
        self.options.chess960 = on;
        let moves: Vec<&str> = actions.iter().map(String::as_str).collect();
        if self.set_position(Some(&fen), &moves).is_ok() {
            return true;
        }
        if self.set_position(Some(&fen), &[]).is_err() {
            let _ = self.set_position(None, &[]);
        }
        false
    }

    /// Sets the sets draw advantage; a change clears the hash table (its
    /// values were scored the other way).
    pub fn set_draw_advantage(&mut self, a: DrawAdvantage) {
        if a != self.options.draw_advantage {
            self.options.draw_advantage = a;
            self.clear_hash();
        }
    }

    /// Chooses the variant, base or network evaluation; a change clears
    /// the hash table.
    pub fn set_eval_mode(&mut self, m: EvalMode) {
        if m != self.options.eval_mode {
            self.options.eval_mode = m;
            self.clear_hash();
        }
    }

    /// Sets the variant weights over the built-in ones; a change clears
    /// the hash table.
    pub fn set_weights(&mut self, w: WeightOverrides) {
        if w != self.options.weights {
            self.options.weights = w;
            self.clear_hash();
        }
    }

    /// Sets the net of [`EvalMode::Nnue`] (`None`: the one built into the
    /// binary, if any); a change clears the hash table.
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.options.net, &net) {
            (Some(a), Some(b)) => a.hash() == b.hash(),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.options.net = net;
            self.clear_hash();
        }
    }

    /// What [`EvalMode::Nnue`] evaluates with when the user did not load
    /// it: why there is no net for the variant (see
    /// [`crate::eval::missing_net`]), or the name of the net built into
    /// the binary that it uses. `None` in the other modes and with a
    /// loaded net of the variant's board.
    pub fn eval_note(&self) -> Option<String> {
        if self.options.eval_mode != EvalMode::Nnue {
            return None;
        }
        let loaded = self.options.net.clone();
        crate::eval::missing_net(self.variant, loaded.as_deref()).or_else(|| {
            let net = crate::eval::net_for(self.variant, EvalMode::Nnue, loaded.clone())?;
            let is_loaded = loaded.is_some_and(|l| Arc::ptr_eq(&l, &net));
            (!is_loaded).then(|| format!("EvalMode nnue: the built-in net {}", net.describe()))
        })
    }

    /// The evaluator of the current settings.
    fn evaluator(&self, scorer: &Scorer) -> Evaluator {
        Evaluator::with_net(scorer, self.options.eval_mode, self.options.net.clone())
            .with_overrides(&self.options.weights)
    }

    /// Sets the endgame tables (`None`: none); a change clears the hash
    /// table (its values were searched with or without them).
    pub fn set_syzygy(&mut self, tables: Option<Arc<Tablebases>>) {
        self.stop_and_wait();
        let same = match (&self.options.syzygy.tables, &tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.options.syzygy.tables = tables;
            self.clear_hash();
        }
    }

    /// Sets `SyzygyProbeDepth`: positions of as many pieces as the probe
    /// limit are probed only this many plies or more from the horizon.
    pub fn set_syzygy_probe_depth(&mut self, depth: i32) {
        self.options.syzygy.probe_depth = depth.max(1);
    }

    /// Sets `SyzygyProbeLimit`: positions of more pieces are not probed (0:
    /// none is).
    pub fn set_syzygy_probe_limit(&mut self, pieces: usize) {
        self.options.syzygy.probe_limit = pieces;
    }

    /// Sets `Syzygy50MoveRule`: whether a win the 50-move rule turns into
    /// a draw counts as a draw; a change clears the hash table.
    pub fn set_syzygy_50_move_rule(&mut self, on: bool) {
        if on != self.options.syzygy.rule50 {
            self.options.syzygy.rule50 = on;
            self.clear_hash();
        }
    }

    /// Whether the search probes the endgame tables: tables are set, the
    /// probe limit is above 0, and the variant's rules are the tables'
    /// (chess, under point tables where a win pays more than a draw and a
    /// draw more than a loss; never the scoring variants nor extinction).
    pub fn uses_tablebases(&self) -> bool {
        self.probing().is_some()
    }

    /// What a search of the current variant probes ([`Engine::uses_tablebases`]).
    fn probing(&self) -> Option<Probing> {
        let t = &self.options.tables.chess;
        if self.variant != Variant::Chess || !(t.win > t.draw && t.draw > t.loss) {
            return None;
        }
        self.options
            .syzygy
            .probing(self.units().from_points(t.win - t.loss))
    }

    /// The endgame tables' WDL and DTZ of the current position (the WDL
    /// as if its halfmove clock were 0, the DTZ in plies as the tables
    /// round it), where the search would use the tables and they hold the
    /// position; the DTZ is `None` without its table.
    pub fn tablebase_probe(&self) -> Option<(Wdl, Option<i32>)> {
        let probing = self.probing()?;
        with_game!(&self.game, |g| {
            let pos = chess_of(&g.current().pos)?;
            let wdl = probing.tables.wdl(pos)?;
            Some((wdl, probing.tables.dtz(pos)))
        })
    }

    /// Replaces the point tables and clears the hash table.
    pub fn set_tables(&mut self, t: Tables) {
        self.options.tables = t;
        self.clear_hash();
    }

    /// Per mille of the hash table used by the latest search (sampled);
    /// 0 right after the table is cleared.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Prepares for a new game: clears the table (and a weakened engine
    /// draws its choices afresh).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.games = self.games.wrapping_add(1);
        self.game = AnyGame::start_in(self.variant, self.options.specials, self.options.chess960);
    }

    /// The scorer of the current variant and settings.
    pub fn scorer(&self) -> Scorer {
        let mut s = Scorer::with_tables(self.variant, self.options.tables.clone());
        s.set_draw_advantage(self.options.draw_advantage);
        s
    }

    /// The game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The start FEN and the actions played, as text.
    pub fn position_text(&self) -> (String, Vec<String>) {
        (
            self.game.start_fen(),
            self.game
                .actions()
                .iter()
                .map(|&a| self.game.text(a))
                .collect(),
        )
    }

    /// Sets the position: `fen` (or the start position for `None`) and the
    /// actions after it. A refused FEN keeps the previous position; a
    /// refused action keeps the actions before it.
    ///
    /// # Errors
    ///
    /// [`PositionError`] saying what was refused and how much was applied.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        actions: &[&str],
    ) -> Result<(), PositionError> {
        self.stop_and_wait();
        let specials = self.options.specials;
        let mut game = AnyGame::new_in(self.variant, specials, self.options.chess960, fen)
            .map_err(|error| PositionError {
                applied: 0,
                bad_fen: true,
                error,
            })?;
        let mut result = Ok(());
        for (i, text) in actions.iter().enumerate() {
            let r = game.play_text(text).map(|_| ());
            if let Err(error) = r {
                result = Err(PositionError {
                    applied: i,
                    bad_fen: false,
                    error,
                });
                break;
            }
        }
        self.game = game;
        result
    }

    /// What [`Engine::set_position`] ignores in `fen` under the current
    /// rules (see [`Pos::from_fen_noting`]), one note each; empty when
    /// nothing, or when the FEN is refused.
    pub fn fen_notes(&self, fen: &str) -> Vec<String> {
        AnyGame::fen_notes_in(self.variant, self.options.chess960, fen).unwrap_or_default()
    }

    /// Plays one more action.
    ///
    /// # Errors
    ///
    /// A [`RulesError`] if it is not legal (nothing changes).
    pub fn play(&mut self, text: &str) -> Result<Action, RulesError> {
        self.stop_and_wait();
        self.game.play_text(text)
    }

    /// Plays one more action past an ending that leaves moves on the
    /// board ([`crate::rules::Game::play_text_past_end`]).
    ///
    /// # Errors
    ///
    /// A [`RulesError`] if it is not on the board, or after checkmate,
    /// stalemate or extinction (nothing changes).
    pub fn play_past_end(&mut self, text: &str) -> Result<Action, RulesError> {
        self.stop_and_wait();
        self.game.play_text_past_end(text)
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.game.fen()
    }

    /// The current position as the start of a new game, for playing on
    /// past an ending the GUI does not know: its FEN with the halfmove
    /// clock at 0, so the game is not over by the move-count rule at once
    /// (the game's history, and with it repetitions, starts afresh).
    pub fn fresh_fen(&self) -> String {
        fresh_fen(&self.game.fen())
    }

    /// The side to move.
    pub fn turn(&self) -> shakmaty::Color {
        self.game.turn()
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.game.ending()
    }

    /// The legal actions in the current position.
    pub fn legal_actions(&self) -> ActionList {
        self.game.legal_actions()
    }

    /// The actions on the board in the current position, even when the
    /// game is over by a rule that leaves them (repetition, move count,
    /// insufficient material); none after checkmate, stalemate,
    /// extinction or a claim.
    pub fn playable_actions(&self) -> ActionList {
        with_game!(&self.game, |g| Self::playable_of(g))
    }

    fn playable_of<P: Pos>(game: &Game<P>) -> ActionList {
        let mut out = ActionList::new();
        game.rules().legal_actions(game.current(), &mut out);
        out
    }

    /// Perft split by root action from the current position.
    ///
    /// # Errors
    ///
    /// [`RulesError::PerftTooDeep`] past [`crate::rules::MAX_PERFT_DEPTH`].
    pub fn perft(&self, depth: u32) -> Result<Vec<DivideEntry>, RulesError> {
        with_game!(&self.game, |g| perft_divide(&g.rules(), g.current(), depth))
    }

    /// [`Engine::perft`] as work for another thread: it gives up (`Ok(None)`)
    /// soon after its flag is set.
    pub fn perft_work(
        &self,
        depth: u32,
    ) -> impl FnOnce(&AtomicBool) -> Result<Option<Vec<DivideEntry>>, RulesError> + Send + 'static
    {
        let game = self.game.clone();
        move |stop| {
            with_game!(&game, |g| perft_divide_until(
                &g.rules(),
                g.current(),
                depth,
                stop
            ))
        }
    }

    /// The actions a search may start with: the legal ones, or with
    /// `play_on` those on the board even in a game over by a rule that
    /// leaves them.
    fn root_actions_of<P: Pos>(game: &Game<P>, play_on: bool) -> ActionList {
        if play_on {
            Self::playable_of(game)
        } else {
            game.legal_actions()
        }
    }

    /// UCI `searchmoves` in the current position: the actions the texts
    /// name (each once, in their order) among those a search with
    /// `play_on` may start with, and the texts that name none of them.
    pub fn resolve_searchmoves(
        &self,
        texts: &[String],
        play_on: bool,
    ) -> (Vec<Action>, Vec<String>) {
        let root = with_game!(&self.game, |g| Self::root_actions_of(g, play_on));
        let mut chosen = Vec::new();
        let mut refused = Vec::new();
        for text in texts {
            match text
                .parse::<ParsedAction>()
                .ok()
                .and_then(|p| p.resolve(&root))
            {
                Some(a) if !chosen.contains(&a) => chosen.push(a),
                Some(_) => {}
                None => refused.push(text.clone()),
            }
        }
        (chosen, refused)
    }

    /// The memo after the game's actions.
    fn memo_of<P: Pos>(game: &Game<P>) -> Memo {
        game.nodes()
            .iter()
            .zip(game.actions())
            .fold(Memo::default(), |m, (node, &a)| m.after(node, a))
    }

    /// The search of `game` under `limits`, and how a weakened engine
    /// chooses from it.
    fn job<P: Pos>(&self, game: &Game<P>, mut limits: Limits) -> Result<Planned<P>, RulesError> {
        let scorer = self.scorer();
        let evaluator = self.evaluator(&scorer);
        let units = Units::of(&scorer);
        let root: Node<P> = game.current().clone();
        let mut root_actions = Self::root_actions_of(game, limits.play_on).to_vec();
        if !limits.searchmoves.is_empty() {
            let mut chosen = Vec::new();
            for &a in &limits.searchmoves {
                if !root_actions.contains(&a) {
                    return Err(RulesError::IllegalAction {
                        action: game.rules().text(a).to_string(),
                        reason: "not legal in this position (searchmoves)".to_owned(),
                    });
                }
                if !chosen.contains(&a) {
                    chosen.push(a);
                }
            }
            root_actions = chosen;
        }
        let mut multipv = self.options.multipv;
        let choice = self.options.strength.skill().map(|skill| {
            limits.depth = Some(limits.depth.map_or(skill.depth, |d| d.min(skill.depth)));
            limits.nodes = Some(limits.nodes.map_or(skill.nodes, |n| n.min(skill.nodes)));
            multipv = multipv.max(skill::CANDIDATES);
            Choice {
                skill,
                units,
                seed: skill::seed(root.search_key(), self.games),
                shown: self.options.multipv,
            }
        });
        let job = SearchJob {
            rules: game.rules(),
            scorer,
            evaluator,
            units,
            root,
            root_memo: Self::memo_of(game),
            history: game.history().to_vec(),
            root_actions,
            limits,
            multipv,
            overhead: self.options.move_overhead,
            tablebases: self.probing(),
        };
        Ok((job, choice))
    }

    /// Starts a search in the background; `done` gets the result (also
    /// after `stop`). Any search still running is stopped first.
    ///
    /// # Errors
    ///
    /// A [`RulesError`] for a bad `searchmoves` entry (no search starts).
    pub fn go(
        &mut self,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
        done: Box<dyn FnOnce(&SearchResult) + Send>,
    ) -> Result<(), RulesError> {
        self.stop_and_wait();
        let threads = self.options.threads;
        let shared =
            Arc::new(Shared::new(self.tt.clone(), threads).with_memory(self.memory.clone()));
        if limits.ponder {
            shared
                .pondering
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        let pool = self.pool.clone();
        let handle = with_game!(&self.game, |g| {
            let (job, choice) = self.job(g, limits)?;
            let shared2 = shared.clone();
            std::thread::Builder::new()
                .name("tally-search".to_owned())
                .spawn(move || {
                    let r = run(&job, choice, &shared2, &pool, threads, &*reporter);
                    done(&r);
                    r
                })
                .map_err(|e| RulesError::GameOver(format!("cannot start the search thread: {e}")))?
        });
        self.running = Some(Running { shared, handle });
        Ok(())
    }

    /// Runs a search to its limits on this thread and returns the result.
    ///
    /// # Errors
    ///
    /// As [`Engine::go`].
    pub fn search(
        &mut self,
        limits: Limits,
        reporter: &dyn Reporter,
    ) -> Result<SearchResult, RulesError> {
        self.search_until(limits, reporter, Arc::new(AtomicBool::new(false)))
    }

    /// [`Engine::search`] that ends (with the result so far) soon after
    /// `stop` is set from another thread.
    ///
    /// # Errors
    ///
    /// As [`Engine::go`].
    pub fn search_until(
        &mut self,
        limits: Limits,
        reporter: &dyn Reporter,
        stop: Arc<AtomicBool>,
    ) -> Result<SearchResult, RulesError> {
        self.stop_and_wait();
        let threads = self.options.threads;
        let shared =
            Shared::with_stop_flag(self.tt.clone(), threads, stop).with_memory(self.memory.clone());
        let pool = self.pool.clone();
        with_game!(&self.game, |g| {
            let (job, choice) = self.job(g, limits)?;
            Ok(run(&job, choice, &shared, &pool, threads, reporter))
        })
    }

    /// [`Engine::search`] that ends (with the result so far) soon after
    /// `halt` says so: it is asked every [`HALT_POLL`] from a watching
    /// thread, for a caller whose reason to stop is not a flag of its own
    /// (a match's Ctrl-C or a deadline, datagen's stop).
    ///
    /// # Errors
    ///
    /// As [`Engine::go`].
    pub fn search_halting(
        &mut self,
        limits: Limits,
        reporter: &dyn Reporter,
        halt: &(dyn Fn() -> bool + Sync),
    ) -> Result<SearchResult, RulesError> {
        let stop = Arc::new(AtomicBool::new(false));
        // The watcher waits on a channel that the search's end closes, so
        // it ends at once rather than after a poll.
        let (done, finished) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let stop = &stop;
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(HALT_POLL) {
                    if halt() {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            });
            let result = self.search_until(limits, reporter, stop.clone());
            drop(done);
            result
        })
    }

    /// Asks a running search to stop (it reports its result as usual).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.shared.stop();
        }
    }

    /// The opponent played the expected move: the clock starts.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.shared.ponderhit();
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Waits for the running search, if any, and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.running.take().and_then(|r| r.handle.join().ok())
    }

    /// Stops any running search and waits for it.
    pub fn stop_and_wait(&mut self) {
        self.stop();
        let _ = self.wait();
    }

    /// Internal units of the current variant.
    pub fn units(&self) -> Units {
        Units::of(&self.scorer())
    }

    /// The scoring memo after the game's actions (what the search starts
    /// from).
    pub fn memo(&self) -> Memo {
        with_game!(&self.game, |g| Self::memo_of(g))
    }

    /// The game phase of the current position (24 at the start, 0 with
    /// no pieces but kings and pawns), for the win/draw/loss model.
    pub fn phase(&self) -> i32 {
        base::phase(self.game.board())
    }

    /// The evaluation the next search uses, in words (as
    /// [`EvalTrace::evaluation`] names it).
    pub fn evaluation_in_use(&self) -> String {
        let evaluator = self.evaluator(&self.scorer());
        match evaluator.net() {
            Some(net) => format!("{} {}", evaluator.mode().name(), net.name()),
            None => evaluator.mode().name().to_owned(),
        }
    }

    /// The evaluation of the current position, term by term.
    pub fn trace_eval(&self) -> EvalTrace {
        let scorer = self.scorer();
        let evaluator = self.evaluator(&scorer);
        let value = with_game!(&self.game, |g| evaluator
            .evaluate(g.current(), &Self::memo_of(g)));
        let units = Units::of(&scorer);
        EvalTrace {
            base: evaluator.breakdown(self.game.board()),
            turn: self.game.turn(),
            value,
            margin: Points::from_f64(units.to_points(units.margin_of(value))).unwrap_or_default(),
            mode: evaluator.mode(),
            net: evaluator.net().map(Network::name),
        }
    }

    /// The game's points so far, `(white, black)`, as the referee counts
    /// them: every action's award, and the ending's once the game is over.
    pub fn points_so_far(&self) -> (Points, Points) {
        let scorer = self.scorer();
        let record = with_game!(&self.game, |g| score_game(
            &scorer,
            g,
            &EndContext::default()
        ));
        (record.total.white, record.total.black)
    }
}

/// A search to run and, for a weakened engine, how it chooses.
type Planned<P> = (SearchJob<P, Scorer, Evaluator>, Option<Choice>);

/// How a weakened engine chooses its action from the search's lines.
#[derive(Clone, Copy, Debug)]
struct Choice {
    skill: Skill,
    units: crate::eval::Units,
    seed: u64,
    /// Lines the reporter shows (the `MultiPV` asked for).
    shown: usize,
}

/// Runs `job`'s search; a weakened engine ([`Choice`]) then plays its
/// choice among the lines and reports only the lines asked for.
fn run<P: Pos>(
    job: &SearchJob<P, Scorer, Evaluator>,
    choice: Option<Choice>,
    shared: &Shared,
    pool: &rayon::ThreadPool,
    threads: usize,
    reporter: &dyn Reporter,
) -> SearchResult {
    let Some(c) = choice else {
        return search::search(job, shared, pool, threads, reporter);
    };
    let shown = Shown {
        inner: reporter,
        lines: c.shown,
    };
    let mut r = search::search_unawarded(job, shared, pool, threads, &shown);
    c.skill.apply(&mut r, c.units, c.seed, c.shown);
    // The award is the chosen action's, not the search's best.
    r.award = search::award_of(job, r.best);
    r
}

/// `fen` with its halfmove clock set to 0.
fn fresh_fen(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() >= 5 {
        fields[4] = "0";
    }
    fields.join(" ")
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_fresh_fen_restarts_the_move_count() {
        assert_eq!(
            super::fresh_fen("8/8/8/8/8/8/8/K1k5 w - - 77 120"),
            "8/8/8/8/8/8/8/K1k5 w - - 0 120"
        );
    }

    use super::*;
    use crate::referee::{GameInput, score_input};
    use crate::scoring::{Award, Event};
    use crate::search::Silent;

    /// The referee's totals for `moves` from the start, `(white, black)`.
    fn referee_totals(variant: Variant, moves: &[&str]) -> (Points, Points) {
        let scorer = Scorer::new(variant);
        let record = score_input(&scorer, &GameInput::from_text(None, &moves.join(" "))).unwrap();
        (record.total.white, record.total.black)
    }

    fn engine_at(variant: Variant, moves: &[&str]) -> Engine {
        let mut e = Engine::new(variant);
        e.set_position(None, moves).unwrap();
        e
    }

    fn action(e: &Engine, text: &str) -> Action {
        e.legal_actions()
            .into_iter()
            .find(|a| a.to_string() == text)
            .unwrap()
    }

    /// The award a search restricted to `mv` after `moves` gives it, and
    /// the points the referee adds when it is played.
    fn both(variant: Variant, moves: &[&str], mv: &str) -> (Award, (Points, Points)) {
        let mut e = engine_at(variant, moves);
        let limits = Limits {
            depth: Some(1),
            searchmoves: vec![action(&e, mv)],
            ..Limits::default()
        };
        let award = e.search(limits, &Silent).unwrap().award.unwrap().total();
        let (w0, b0) = e.points_so_far();
        e.play(mv).unwrap();
        let (w1, b1) = e.points_so_far();
        (award, (w1 - w0, b1 - b0))
    }

    #[test]
    fn points_so_far_are_the_referees_in_stylish() {
        // Pawn takes pawn, knight takes pawn, knight takes knight.
        let moves = ["e2e4", "d7d5", "e4d5", "g8f6", "b1c3", "f6d5", "c3d5"];
        for n in 0..=moves.len() {
            let e = engine_at(Variant::Stylish, &moves[..n]);
            assert_eq!(
                e.points_so_far(),
                referee_totals(Variant::Stylish, &moves[..n])
            );
        }
        let (white, black) = engine_at(Variant::Stylish, &moves).points_so_far();
        assert_eq!((white, black), (Points::whole(10), Points::whole(1)));
    }

    #[test]
    fn points_so_far_count_the_ending() {
        let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let e = engine_at(Variant::Chess, &moves);
        assert_eq!(e.points_so_far(), (Points::ZERO, Points::whole(1)));
        assert_eq!(e.points_so_far(), referee_totals(Variant::Chess, &moves));
    }

    #[test]
    fn a_game_over_already_earns_the_actions_own_award_only() {
        // Same-coloured bishops: over by insufficient material, and so is
        // the position after Bxe5. Playing on, the capture earns its own
        // award and no ending's.
        let mut e = Engine::new(Variant::Stylish);
        e.set_position(Some("8/8/8/4b3/8/8/1B6/K6k w - - 0 1"), &[])
            .unwrap();
        assert!(e.ending().is_some());
        let (capture, _) = e.resolve_searchmoves(&["b2e5".to_owned()], true);
        let limits = Limits {
            depth: Some(1),
            play_on: true,
            searchmoves: capture,
            ..Limits::default()
        };
        let r = e.search(limits, &Silent).unwrap();
        assert_eq!(r.best.map(|a| a.to_string()).as_deref(), Some("b2e5"));
        let imm = r.award.unwrap();
        assert!(imm.award.events.contains(Event::Capture), "{imm:?}");
        assert!(imm.award.white > Points::ZERO);
        assert_eq!((imm.ending, imm.outcome), (None, Award::default()));
    }

    /// A weakened engine's result carries the award of the action it
    /// chose, which need not be the search's best: in wacky every capture
    /// earns points, so a wrong award would show.
    #[test]
    fn a_weakened_engines_award_is_its_choices() {
        let mut chose_other = false;
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
            "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
        ] {
            let mut e = Engine::new(Variant::Wacky);
            e.set_position(Some(fen), &[]).unwrap();
            let limits = || Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let full = e.search(limits(), &Silent).unwrap();
            e.set_strength(Strength {
                level: 0,
                ..Strength::default()
            });
            for _ in 0..8 {
                e.new_game();
                e.set_position(Some(fen), &[]).unwrap();
                let r = e.search(limits(), &Silent).unwrap();
                let best = r.best.unwrap();
                chose_other |= Some(best) != full.best;
                let played = &mut engine_at(Variant::Wacky, &[]);
                played.set_position(Some(fen), &[]).unwrap();
                let (w0, b0) = played.points_so_far();
                played.play(&best.to_string()).unwrap();
                let (w1, b1) = played.points_so_far();
                let award = r.award.unwrap().total();
                assert_eq!(
                    (award.white, award.black),
                    (w1 - w0, b1 - b0),
                    "{fen}: {best}"
                );
            }
        }
        assert!(chose_other, "level 0 never left the best action");
    }

    #[test]
    fn chess_mate_award_counts() {
        let (award, added) = both(Variant::Chess, &["f2f3", "e7e5", "g2g4"], "d8h4");
        assert_eq!((award.white, award.black), (Points::ZERO, Points::whole(1)));
        assert_eq!(added, (Points::ZERO, Points::whole(1)));
    }

    #[test]
    fn wacky_mate_award_replaces_check() {
        let (award, added) = both(Variant::Wacky, &["f2f3", "e7e5", "g2g4"], "d8h4");
        assert_eq!((award.white, award.black), added);
        assert!(award.events.contains(Event::Mate));
        assert!(!award.events.contains(Event::Check));
    }

    #[test]
    fn a_capture_earns_its_award_and_a_wrong_searchmove_is_refused() {
        let (award, added) = both(Variant::Stylish, &["e2e4", "d7d5"], "e4d5");
        assert_eq!((award.white, award.black), added);
        assert!(award.white > Points::ZERO);
        let mut e = engine_at(Variant::Stylish, &["e2e4", "d7d5"]);
        let start = Engine::new(Variant::Stylish);
        let limits = Limits {
            depth: Some(1),
            searchmoves: vec![action(&start, "e2e3")],
            ..Limits::default()
        };
        assert!(e.search(limits, &Silent).is_err());
    }

    #[test]
    fn searchmoves_resolve_once_each_in_order() {
        let e = engine_at(Variant::Chess, &[]);
        let texts: Vec<String> = ["h2h4", "e7e5", "a2a3", "h2h4", "x"]
            .iter()
            .map(|t| (*t).to_owned())
            .collect();
        let (chosen, refused) = e.resolve_searchmoves(&texts, false);
        assert_eq!(chosen, vec![action(&e, "h2h4"), action(&e, "a2a3")]);
        assert_eq!(refused, vec!["e7e5".to_owned(), "x".to_owned()]);
    }

    #[test]
    fn phase_and_trace_eval() {
        let e = Engine::new(Variant::Chess);
        assert_eq!(e.phase(), 24);
        let t = e.trace_eval();
        assert_eq!(t.base.phase, 24);
        assert_eq!(t.turn, shakmaty::Color::White);
        assert_eq!(t.mode, EvalMode::Variant);
        let mut bare = Engine::new(Variant::Chess);
        bare.set_position(Some("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"), &[])
            .unwrap();
        assert_eq!(bare.phase(), 0);
    }

    /// An engine with a small table (so that `hashfull` samples used
    /// entries).
    fn small(variant: Variant) -> Engine {
        let options = EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        };
        Engine::with_options(variant, options)
    }

    fn search_some(e: &mut Engine) -> u64 {
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        e.search(limits, &Silent).unwrap().nodes
    }

    #[test]
    fn set_variant_clears_the_table() {
        let mut e = small(Variant::Chess);
        search_some(&mut e);
        assert!(e.hashfull() > 0);
        e.set_variant(Variant::Stylish);
        assert_eq!(e.hashfull(), 0);
        let mut fresh = small(Variant::Stylish);
        assert_eq!(search_some(&mut e), search_some(&mut fresh));
    }

    /// Nodes to depth 7 from a middlegame position.
    fn nodes_to_depth(e: &mut Engine) -> u64 {
        e.set_position(
            Some("r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8"),
            &[],
        )
        .unwrap();
        e.search(Limits::depth(7), &Silent).unwrap().nodes
    }

    #[test]
    fn learnt_tables_carry_over_and_a_new_game_forgets_them() {
        let mut e = small(Variant::Chess);
        let first = nodes_to_depth(&mut e);
        // Without the hash table, the second search differs only by what
        // the threads' tables kept from the first.
        e.tt.clear();
        let second = nodes_to_depth(&mut e);
        assert_ne!(first, second);
        e.new_game();
        assert_eq!(nodes_to_depth(&mut e), first);
        e.set_variant(Variant::Chess);
        assert_eq!(nodes_to_depth(&mut e), first);
    }

    #[test]
    fn set_tables_clears_the_table() {
        let mut e = small(Variant::Stylish);
        search_some(&mut e);
        assert!(e.hashfull() > 0);
        e.set_tables(Tables::default());
        assert_eq!(e.hashfull(), 0);
        let mut fresh = small(Variant::Stylish);
        assert_eq!(search_some(&mut e), search_some(&mut fresh));
    }

    #[test]
    fn scoring_options_clear_the_table() {
        let mut e = small(Variant::Sets);
        search_some(&mut e);
        assert!(e.hashfull() > 0);
        e.set_draw_advantage(DrawAdvantage::White);
        assert_eq!(e.hashfull(), 0);
        search_some(&mut e);
        assert!(e.hashfull() > 0);
        e.set_eval_mode(EvalMode::Base);
        assert_eq!(e.hashfull(), 0);
    }
}
