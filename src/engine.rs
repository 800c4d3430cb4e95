//! [`Engine`]: the facade that owns the game, the options, the
//! transposition table and the threads, and runs searches in the
//! background. UCI, `tally analyse`, `tally match` and `tally bench` all
//! drive the search through it; it formats nothing. What UCI shows besides
//! the search (the evaluation's terms, the points so far, the award of the
//! best action, the phase for WDL) comes from here too, and the engine
//! clears its own transposition table when the scoring changes.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::eval::base::{self, Breakdown};
use crate::eval::{EvalMode, Evaluate, Evaluator, Units};
use crate::nnue::Network;
use crate::referee::score_game;
pub use crate::rules::AnyGame;
use crate::rules::{
    Action, ActionList, DivideEntry, Ending, Game, Node, ParsedAction, Pos, RulesError, Variant,
    perft_divide, perft_divide_until,
};
use crate::scoring::{Award, DrawAdvantage, EndContext, Memo, Points, Scorer, Tables};
use crate::search::{self, Limits, Reporter, SearchJob, SearchResult, Shared, Tt};
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
    /// Who gets the 1/2 point of a plain draw in sets.
    pub draw_advantage: DrawAdvantage,
    /// Variant, base or network evaluation.
    pub eval_mode: EvalMode,
    /// The net loaded for [`EvalMode::Nnue`] (`EvalFile`, `--net`); the
    /// one built into the binary for the board is used without it.
    pub net: Option<Arc<Network>>,
    /// The point tables.
    pub tables: Tables,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            specials: true,
            draw_advantage: DrawAdvantage::Black,
            eval_mode: EvalMode::Variant,
            net: None,
            tables: Tables::default(),
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
    pool: Arc<rayon::ThreadPool>,
    running: Option<Running>,
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
            game: AnyGame::start(variant, options.specials),
            tt: Arc::new(Tt::new(options.hash_mb)),
            pool: build_pool(options.threads),
            running: None,
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

    /// Switches variant; the position goes back to the start and the hash
    /// table is cleared.
    pub fn set_variant(&mut self, variant: Variant) {
        self.stop_and_wait();
        self.variant = variant;
        self.game = AnyGame::start(variant, self.options.specials);
        self.tt.clear();
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

    /// Empties the hash table.
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        self.tt.clear();
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.stop_and_wait();
        let threads = threads.max(1);
        if threads != self.options.threads {
            self.options.threads = threads;
            self.pool = build_pool(threads);
        }
    }

    /// Sets the number of lines to report.
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.max(1);
    }

    /// Sets the move overhead.
    pub fn set_move_overhead(&mut self, d: Duration) {
        self.options.move_overhead = d;
    }

    /// Allows or forbids special actions; the position is kept if it has
    /// none, else it goes back to its start.
    pub fn set_specials(&mut self, on: bool) {
        self.stop_and_wait();
        self.options.specials = on;
        let (fen, actions) = self.position_text();
        let moves: Vec<&str> = actions.iter().map(String::as_str).collect();
        if self.set_position(Some(&fen), &moves).is_err() {
            let _ = self.set_position(Some(&fen), &[]);
        }
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

    /// Why the evaluation is not the one the options ask for: in
    /// [`EvalMode::Nnue`], when there is no net for the variant (see
    /// [`crate::eval::missing_net`]). `None` otherwise.
    pub fn eval_note(&self) -> Option<String> {
        match self.options.eval_mode {
            EvalMode::Nnue => crate::eval::missing_net(self.variant, self.options.net.as_deref()),
            _ => None,
        }
    }

    /// The evaluator of the current settings.
    fn evaluator(&self, scorer: &Scorer) -> Evaluator {
        Evaluator::with_net(scorer, self.options.eval_mode, self.options.net.clone())
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

    /// Prepares for a new game: clears the table.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.game = AnyGame::start(self.variant, self.options.specials);
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
            self.game.actions().iter().map(|a| a.to_string()).collect(),
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
        let mut game =
            AnyGame::new(self.variant, specials, fen).map_err(|error| PositionError {
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
        AnyGame::fen_notes(self.variant, fen).unwrap_or_default()
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

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.game.fen()
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

    /// The memo after the game's actions.
    fn memo_of<P: Pos>(game: &Game<P>) -> Memo {
        game.nodes()
            .iter()
            .zip(game.actions())
            .fold(Memo::default(), |m, (node, &a)| m.after(node, a))
    }

    fn job<P: Pos>(
        &self,
        game: &Game<P>,
        limits: Limits,
    ) -> Result<SearchJob<P, Scorer, Evaluator>, RulesError> {
        let scorer = self.scorer();
        let evaluator = self.evaluator(&scorer);
        let units = Units::of(&scorer);
        let root: Node<P> = game.current().clone();
        let mut root_actions: Vec<Action> = if limits.play_on {
            Self::playable_of(game).to_vec()
        } else {
            game.legal_actions().to_vec()
        };
        if !limits.searchmoves.is_empty() {
            let mut chosen = Vec::new();
            for text in &limits.searchmoves {
                let parsed: ParsedAction = text
                    .parse()
                    .map_err(|_| RulesError::UnparsableAction(text.clone()))?;
                match parsed.resolve(&root_actions) {
                    Some(a) if !chosen.contains(&a) => chosen.push(a),
                    Some(_) => {}
                    None => {
                        return Err(RulesError::IllegalAction {
                            action: text.clone(),
                            reason: "not legal in this position (searchmoves)".to_owned(),
                        });
                    }
                }
            }
            root_actions = chosen;
        }
        Ok(SearchJob {
            rules: game.rules(),
            scorer,
            evaluator,
            units,
            root,
            root_memo: Self::memo_of(game),
            history: game.history().to_vec(),
            root_actions,
            limits,
            multipv: self.options.multipv,
            overhead: self.options.move_overhead,
        })
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
        let shared = Arc::new(Shared::new(self.tt.clone(), threads));
        if limits.ponder {
            shared
                .pondering
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        let pool = self.pool.clone();
        let handle = with_game!(&self.game, |g| {
            let job = self.job(g, limits)?;
            let shared2 = shared.clone();
            std::thread::Builder::new()
                .name("tally-search".to_owned())
                .spawn(move || {
                    let r = search::search(&job, &shared2, &pool, threads, &*reporter);
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
        let shared = Shared::with_stop_flag(self.tt.clone(), threads, stop);
        let pool = self.pool.clone();
        with_game!(&self.game, |g| {
            let job = self.job(g, limits)?;
            Ok(search::search(&job, &shared, &pool, threads, reporter))
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

    /// The evaluation of the current position, term by term.
    pub fn trace_eval(&self) -> EvalTrace {
        let scorer = self.scorer();
        let evaluator = self.evaluator(&scorer);
        let value = with_game!(&self.game, |g| evaluator
            .evaluate(g.current(), &Self::memo_of(g)));
        EvalTrace {
            base: base::breakdown(self.game.board()),
            turn: self.game.turn(),
            value,
            margin: Points::from_f64(Units::of(&scorer).to_points(value)).unwrap_or_default(),
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

    /// What `action` earns if played now: its own award, plus the
    /// ending's awards if it ends the game (as the referee shows a final
    /// ply, with the outcome added). `None` if it is not legal.
    pub fn award(&self, action: Action) -> Option<Award> {
        let scorer = self.scorer();
        let memo = self.memo();
        with_game!(&self.game, |g| award_in(g, &scorer, &memo, action))
    }

    /// [`Engine::award`] in the current position, as work for another
    /// thread (the award of a search's best action once it ends).
    pub fn award_work(&self) -> impl Fn(Action) -> Option<Award> + Send + 'static {
        let game = self.game.clone();
        let scorer = self.scorer();
        let memo = self.memo();
        move |action| with_game!(&game, |g| award_in(g, &scorer, &memo, action))
    }
}

/// [`Engine::award`] in `game`, whose memo is `memo`.
fn award_in<P: Pos>(game: &Game<P>, scorer: &Scorer, memo: &Memo, action: Action) -> Option<Award> {
    if game.ending().is_some() {
        // Over by a rule the client does not apply, which plays on: the
        // action's own award, as in a new game.
        let before = game.current();
        let node = game.rules().play(before, action);
        return Some(scorer.action_award(memo, before, action, &node).0);
    }
    let mut after = game.clone();
    after.play(action).ok()?;
    let before = game.current();
    let node = after.current();
    let (award, next) = scorer.action_award(memo, before, action, node);
    Some(match after.ending() {
        Some(e) => {
            let end = scorer.end_award(
                &next,
                Some((before, action)),
                node,
                &e,
                &EndContext::default(),
            );
            scorer.final_ply_award(&award, &end).plus(end.outcome)
        }
        None => award,
    })
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameInput, score_input};
    use crate::scoring::Event;
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

    /// The award `Engine::award` gives `mv` after `moves`, and the points
    /// the referee adds when it is played.
    fn both(variant: Variant, moves: &[&str], mv: &str) -> (Award, (Points, Points)) {
        let mut e = engine_at(variant, moves);
        let award = e.award(action(&e, mv)).unwrap();
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
    fn award_work_matches_award() {
        let e = engine_at(Variant::Stylish, &["e2e4", "d7d5"]);
        let capture = action(&e, "e4d5");
        let work = e.award_work();
        let (a, b) = (e.award(capture).unwrap(), work(capture).unwrap());
        assert_eq!((a.white, a.black), (b.white, b.black));
        assert!(a.white > Points::ZERO);
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
