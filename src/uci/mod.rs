//! The UCI protocol: the command loop, generic over its reader and writer so
//! tests drive it in-process, and `tally` with no arguments runs it on
//! stdin and stdout.
//!
//! What lives here: reading lines ([`input`](self) thread and channel),
//! option declarations and checks (`options`), output formatting
//! (`output`), and the `d` and `eval` texts (`display`, which shows the
//! points of the game so far as the engine counts them,
//! [`Engine::points_so_far`]). The search, the rules and the scoring are
//! only driven through [`Engine`]; this module formats and parses, nothing
//! else.
//!
//! Threads: a reader thread feeds lines into a channel; the loop handles
//! them one by one; a search runs on the engine's own thread, and its
//! reporter and done-callback (which prints `bestmove`) share the writer
//! with the loop, one lock per group of lines. Other long work (`go perft`,
//! `bench`, `genfens`, a new hash table) runs on a thread of its own too:
//! meanwhile the loop answers `isready` and acts on `stop` and `quit` at
//! once, and keeps every other line until the work ends, when it says so
//! through the same channel. Commands given as arguments ([`run_commands`])
//! run one after another, each finished before the next.
//!
//! The user guide follows.
//!
#![doc = include_str!("../../docs/uci.md")]

mod display;
mod genfens;
mod input;
mod options;
mod output;

/// The names of Tally's UCI options (the match runner reads them too).
pub use options::name as option_names;
pub use options::{MAX_MOVE_OVERHEAD, MAX_MULTIPV};

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::CastlingMode;

use crate::analyse::Exact;
use crate::engine::{Engine, EngineOptions};
use crate::eval::EvalMode;
use crate::eval::variant_weights::WeightOverrides;
use crate::rules::{RulesError, Variant};
use crate::scoring::{DrawAdvantage, Points, Tables};
use crate::search::{Limits, SearchResult, Strength, Tt};
use crate::syzygy::Tablebases;

pub use input::MAX_LINE;
pub use output::CP_LIMIT;

use crate::text::clip;
use input::Input;
use options::{Spec, Value, VariantChoice, name};
use output::{Out, UciReporter};

/// The deepest `go perft` (already days from the start position; `stop`
/// ends it).
pub const MAX_PERFT_DEPTH: u32 = 10;

/// The deepest `bench`.
pub const MAX_BENCH_DEPTH: i32 = crate::bench::MAX_DEPTH;

/// The words that start a command.
const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "genfens",
];

/// Runs the UCI loop until `quit` or the end of `input`, writing to
/// `output`.
///
/// At the end of input, a running search with a limit (depth, nodes, time)
/// is allowed to finish and print its `bestmove`, and other long work to
/// finish; an open-ended search (`infinite`, `ponder`, or no limit at all)
/// is stopped first. After `quit`, a running search is stopped and prints
/// its `bestmove`, and other long work is stopped.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    input::spawn_reader(input, tx.clone());
    let mut session = Session::new(Arc::new(Out::new(output)), tx);
    session.serve(&rx);
}

/// Runs `lines` as UCI commands, in order, each finished before the next
/// (long work and a search with a limit run to their end; an open-ended
/// search is stopped), writing to `output`, then returns: `tally
/// "genfens 5 seed 1 book None" quit`, as OpenBench runs engines. A line
/// longer than [`MAX_LINE`] bytes is refused as the loop refuses it.
pub fn run_commands<W>(lines: &[String], output: W)
where
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let mut session = Session::new(Arc::new(Out::new(output)), tx);
    for line in lines {
        session.settle(&rx);
        let flow = if line.len() > MAX_LINE {
            session.out.error(&format!(
                "a line of {} bytes is longer than {MAX_LINE}; ignored",
                line.len()
            ));
            Flow::Continue
        } else {
            session.handle(line)
        };
        if flow == Flow::Quit {
            break;
        }
    }
    session.settle(&rx);
}

/// Whether `word` starts a UCI command (`tally ARG...` runs its arguments
/// as commands when the first starts with one).
pub fn is_command(word: &str) -> bool {
    COMMANDS.contains(&word)
}

impl WorkEnd {
    /// Ends with `info string <text>`.
    fn info(text: &str) -> WorkEnd {
        WorkEnd::Lines(vec![format!("info string {text}")])
    }

    /// Ends with `info string error: <text>`.
    fn error(text: &str) -> WorkEnd {
        WorkEnd::Lines(vec![format!("info string error: {text}")])
    }
}

/// Long work running on a thread of its own.
struct Work {
    /// Set to stop it.
    stop: Arc<AtomicBool>,
    handle: JoinHandle<WorkEnd>,
    /// Whether the engine is not ready until it ends (a new hash table,
    /// which the next search needs): `isready` then waits for it, as the
    /// protocol asks of slow setup; during a calculation (`go perft`,
    /// `bench`) it is answered at once.
    setup: bool,
}

/// What long work leaves for the loop to do when it ends.
enum WorkEnd {
    Nothing,
    /// The work's last lines, written by the loop once it has taken the
    /// work's end: a client that reads them and sends a command at once
    /// has it handled after the work, never queued behind work already
    /// done (and so never answered after a later `isready`).
    Lines(Vec<String>),
    /// A new hash table of `mb` MiB, and an error to report about it.
    Table {
        table: Tt,
        mb: usize,
        error: Option<String>,
    },
}

/// Tells the loop that long work has ended, when dropped (also should the
/// work panic).
struct SayDone(Sender<Input>);

impl Drop for SayDone {
    fn drop(&mut self) {
        let _ = self.0.send(Input::WorkDone);
    }
}

/// The command word of a line: its first token that is one.
fn command_of(line: &str) -> Option<&str> {
    line.split_whitespace().find(|t| COMMANDS.contains(t))
}

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The loop's state: the engine and what only the protocol knows.
struct Session<W: Write + Send + 'static> {
    engine: Engine,
    out: Arc<Out<W>>,
    variants: VariantChoice,
    show_wdl: bool,
    /// Whether `score cp` is in the variant's points (`ScoreUnit`).
    score_points: bool,
    rules_file: String,
    /// The `SyzygyPath` of the tables in use (empty: none).
    syzygy_path: String,
    debug: bool,
    /// Whether the search last started has no limit of its own (it runs
    /// until `stop`): `infinite`, or no depth, nodes, mate or time.
    unbounded: bool,
    /// Whether the search last started is pondering (no `ponderhit` yet).
    pondering: bool,
    /// Where long work says it has ended (the loop's own channel).
    events: Sender<Input>,
    /// Long work running, if any.
    work: Option<Work>,
    /// Lines that came while long work ran, to handle after it.
    waiting: VecDeque<String>,
    /// The evaluation last named at a `go` (a search names the one it
    /// uses when it differs: the first, and after a change of net, mode
    /// or variant).
    named_evaluation: Option<String>,
    /// Why the last `position` command was refused (a bad FEN, a bad
    /// command, a refused move): the engine's position is then not the
    /// GUI's, so `go` answers `bestmove 0000` until a valid `position`.
    refused_position: Option<String>,
}

impl<W: Write + Send + 'static> Session<W> {
    fn new(out: Arc<Out<W>>, events: Sender<Input>) -> Session<W> {
        let options = EngineOptions {
            specials: false,
            ..EngineOptions::default()
        };
        Session {
            engine: Engine::with_options(Variant::Chess, options),
            out,
            variants: VariantChoice::default(),
            show_wdl: false,
            score_points: false,
            rules_file: String::new(),
            syzygy_path: String::new(),
            debug: false,
            unbounded: false,
            pondering: false,
            events,
            work: None,
            waiting: VecDeque::new(),
            named_evaluation: None,
            refused_position: None,
        }
    }

    fn serve(&mut self, events: &Receiver<Input>) {
        let mut eof = false;
        'serve: loop {
            // Lines kept while work ran, in order, until one starts work.
            while self.work.is_none() {
                let Some(line) = self.waiting.pop_front() else {
                    break;
                };
                if self.handle(&line) == Flow::Quit {
                    break 'serve;
                }
            }
            // A `stop` that came while the lines before it waited stops the
            // work one of them has just started (it may never end alone).
            if let Some(work) = &self.work
                && self.waiting.iter().any(|l| command_of(l) == Some("stop"))
            {
                work.stop.store(true, Ordering::SeqCst);
            }
            if eof && self.work.is_none() {
                if self.unbounded || self.pondering {
                    self.engine.stop();
                }
                break;
            }
            // The session keeps a sender, so this only fails if the reader
            // thread is gone without a word.
            match events.recv().unwrap_or(Input::Eof) {
                Input::Line(line) => {
                    if self.accept(line) == Flow::Quit {
                        break;
                    }
                }
                Input::TooLong(len) => self.out.error(&format!(
                    "a line of {len} bytes is longer than {MAX_LINE}; ignored"
                )),
                Input::WorkDone => self.finish_work(),
                Input::Eof => eof = true,
            }
        }
        // After `quit`: long work stops.
        if let Some(work) = self.work.take() {
            work.stop.store(true, Ordering::SeqCst);
            let _ = work.handle.join();
        }
        // Waits for the bestmove of a search still running (stopped above
        // or by `quit`, or finishing by its limits).
        let _ = self.engine.wait();
    }

    /// Waits for long work to end (doing what it leaves to do) and for a
    /// search with a limit to print its bestmove; an open-ended search is
    /// stopped first. What [`run_commands`] does between commands.
    fn settle(&mut self, events: &Receiver<Input>) {
        while self.work.is_some() {
            // Only work sends here once the session runs without a
            // reader; a closed channel cannot happen while the session
            // keeps its sender, and would end the wait all the same.
            match events.recv() {
                Ok(Input::WorkDone) | Err(_) => self.finish_work(),
                Ok(_) => {}
            }
        }
        if self.unbounded || self.pondering {
            self.engine.stop();
        }
        let _ = self.engine.wait();
    }

    /// A line as it comes: handled at once, or, while long work runs, kept
    /// for after it; but `stop` and `quit` act at once, and `isready` is
    /// answered at once during a calculation (`go perft`, `bench`,
    /// `genfens`), even with lines waiting before it (they still run after
    /// the calculation, in order), as the protocol asks; only while a new
    /// hash table is made does it wait, to be answered when the table is
    /// there.
    fn accept(&mut self, line: String) -> Flow {
        if self.work.is_none() {
            return self.handle(&line);
        }
        match command_of(&line) {
            Some("quit") => return self.handle(&line),
            Some("isready") if !self.work.as_ref().is_some_and(|w| w.setup) => {
                return self.handle(&line);
            }
            Some("stop") => {
                self.handle(&line);
                // It also stops what the lines before it start.
                if !self.waiting.is_empty() {
                    self.waiting.push_back(line);
                }
            }
            _ => self.waiting.push_back(line),
        }
        Flow::Continue
    }

    /// Runs `work` on a thread of its own (on this one should no thread
    /// start); its flag is set to stop it.
    fn start_work<F>(&mut self, setup: bool, work: F)
    where
        F: FnOnce(&Arc<AtomicBool>) -> WorkEnd + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let slot = Arc::new(Mutex::new(Some(work)));
        let (flag, theirs, done) = (stop.clone(), slot.clone(), self.events.clone());
        let spawned = std::thread::Builder::new()
            .name("tally-uci-work".to_owned())
            .spawn(move || {
                let _done = SayDone(done);
                let work = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
                work.map_or(WorkEnd::Nothing, |w| w(&flag))
            });
        match spawned {
            Ok(handle) => {
                self.work = Some(Work {
                    stop,
                    handle,
                    setup,
                });
            }
            Err(_) => {
                let work = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(w) = work {
                    let end = w(&stop);
                    self.end_work(end);
                }
            }
        }
    }

    /// Long work has ended: does what it left to do.
    fn finish_work(&mut self) {
        if let Some(work) = self.work.take() {
            match work.handle.join() {
                Ok(end) => self.end_work(end),
                Err(_) => self.out.error("internal error: long work failed"),
            }
        }
    }

    fn end_work(&mut self, end: WorkEnd) {
        match end {
            WorkEnd::Nothing => {}
            WorkEnd::Lines(lines) => self.out.lines(&lines),
            WorkEnd::Table { table, mb, error } => {
                self.engine.set_table(table, mb);
                if let Some(e) = error {
                    self.out.error(&e);
                }
            }
        }
    }

    /// Handles one line.
    fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            return Flow::Continue;
        }
        // Unknown tokens before a command are skipped, as the protocol asks
        // ("joho debug on" switches debug on).
        let Some(at) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            self.out
                .error(&format!("unknown command '{}'", clip(tokens[0])));
            return Flow::Continue;
        };
        if at > 0 {
            self.out.error(&format!(
                "ignored unknown tokens before '{}': '{}'",
                tokens[at],
                clip(&tokens[..at].join(" "))
            ));
        }
        let args = &tokens[at + 1..];
        match tokens[at] {
            "uci" => self.uci(),
            "debug" => match args.first() {
                Some(&"on") => self.debug = true,
                Some(&"off") => self.debug = false,
                _ => self.out.error("debug: expected 'on' or 'off'"),
            },
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(rest_after(line, tokens[at])),
            "register" => {}
            "ucinewgame" => self.engine.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                if let Some(work) = &self.work {
                    work.stop.store(true, Ordering::SeqCst);
                }
                self.engine.stop();
            }
            "ponderhit" => {
                self.pondering = false;
                self.engine.ponderhit();
            }
            "quit" => {
                self.engine.stop();
                return Flow::Quit;
            }
            "d" => self.out.lines(&display::position(&self.engine)),
            "eval" => self.out.lines(&display::evaluation(&self.engine)),
            "bench" => self.bench(args),
            "genfens" => self.genfens(args),
            _ => {}
        }
        Flow::Continue
    }

    fn uci(&self) {
        let mut lines = vec![
            format!("id name Tally {}", env!("CARGO_PKG_VERSION")),
            "id author the Tally authors".to_owned(),
        ];
        lines.extend(options::SPECS.iter().map(Spec::declaration));
        if cfg!(feature = "spsa") {
            lines.extend(crate::search::tunables().iter().map(|t| {
                options::spin_declaration(t.name, t.default.into(), t.min.into(), t.max.into())
            }));
        }
        lines.push("uciok".to_owned());
        self.out.lines(&lines);
    }

    fn setoption(&mut self, args: &str) {
        // Any option, as the protocol has them only between searches: a
        // running search ends first (and prints its bestmove), whichever
        // option it is and whether its value is good.
        self.engine.stop_and_wait();
        let Some((name, value)) = options::split_setoption(args) else {
            self.out
                .error("setoption: expected 'setoption name <name> [value <value>]'");
            return;
        };
        #[cfg(feature = "spsa")]
        if let Some(t) = crate::search::tunables()
            .into_iter()
            .find(|t| t.name.eq_ignore_ascii_case(&name))
        {
            match value.as_deref().map(str::parse::<i32>) {
                Some(Ok(v)) if (t.min..=t.max).contains(&v) => {
                    crate::search::live::set(t.name, v);
                }
                _ => self.out.error(&format!(
                    "option {}: expected an integer in {}..{} (kept the old value)",
                    t.name, t.min, t.max
                )),
            }
            return;
        }
        match options::parse(&name, value.as_deref()) {
            Ok((spec, value)) => self.apply(spec, value),
            Err(e) => self.out.error(&e),
        }
    }

    /// Applies a checked option value.
    fn apply(&mut self, spec: &Spec, value: Value) {
        let e = &mut self.engine;
        match (spec.name, value) {
            (name::HASH, Value::Int(n)) => self.resize_hash(n as usize),
            (name::CLEAR_HASH, _) => e.clear_hash(),
            (name::THREADS, Value::Int(n)) => e.set_threads(n as usize),
            (name::MULTIPV, Value::Int(n)) => e.set_multipv(n as usize),
            (name::MOVE_OVERHEAD, Value::Int(n)) => {
                e.set_move_overhead(Duration::from_millis(n as u64));
            }
            // The GUI's business: Tally ponders whenever it gets `go ponder`.
            (name::PONDER, _) => {}
            (name::SHOW_WDL, Value::Bool(b)) => self.show_wdl = b,
            (name::SCORE_UNIT, Value::Choice(v)) => self.score_points = v == options::SCORE_POINTS,
            (name::UCI_VARIANT, Value::Choice(v)) => {
                if let Ok(v) = Variant::from_id(v) {
                    self.variants.uci_variant = v;
                    self.sync_variant();
                }
            }
            (name::SCORING, Value::Choice(v)) => {
                if let Ok(v) = Variant::from_id(v) {
                    self.variants.scoring = v;
                    self.sync_variant();
                }
            }
            (name::SPECIAL_ACTIONS, Value::Bool(b)) => {
                if b != e.options().specials && !e.set_specials(b) {
                    self.position_lost(name::SPECIAL_ACTIONS);
                }
            }
            (name::UCI_CHESS960, Value::Bool(b)) => {
                if b != e.options().chess960 && !e.set_chess960(b) {
                    self.position_lost(name::UCI_CHESS960);
                }
            }
            (name::DRAW_ADVANTAGE, Value::Choice(v)) => {
                if let Ok(a) = DrawAdvantage::parse(v)
                    && a != e.options().draw_advantage
                {
                    e.set_draw_advantage(a);
                }
            }
            (name::EVAL_MODE, Value::Choice(v)) => {
                let mode = EvalMode::parse(v).unwrap_or_default();
                if mode != e.options().eval_mode {
                    e.set_eval_mode(mode);
                }
                self.note_eval();
            }
            (name::EVAL_FILE, Value::Text(path)) => self.load_net(path),
            (name::EVAL_WEIGHTS, Value::Text(text)) => match WeightOverrides::parse(&text) {
                Ok(w) => {
                    if !w.is_empty() {
                        self.out.info(&format!("evaluator weights set: {w}"));
                    }
                    e.set_weights(w);
                }
                Err(err) => {
                    let kept = e.options().weights.to_string();
                    let kept = if kept.is_empty() {
                        "none".to_owned()
                    } else {
                        kept
                    };
                    self.out
                        .error(&format!("option EvalWeights: {err} (kept: {kept})"));
                }
            },
            (name::RULES_FILE, Value::Text(path)) => self.load_rules(path),
            (name::LIMIT_STRENGTH, Value::Bool(b)) => {
                let s = e.options().strength;
                e.set_strength(Strength { limit: b, ..s });
            }
            (name::ELO, Value::Int(n)) => {
                let s = e.options().strength;
                e.set_strength(Strength { elo: n as i32, ..s });
            }
            (name::SKILL_LEVEL, Value::Int(n)) => {
                let s = e.options().strength;
                e.set_strength(Strength {
                    level: n as i32,
                    ..s
                });
            }
            (name::SYZYGY_PATH, Value::Text(path)) => self.load_tablebases(path),
            (name::SYZYGY_PROBE_DEPTH, Value::Int(n)) => e.set_syzygy_probe_depth(n as i32),
            (name::SYZYGY_PROBE_LIMIT, Value::Int(n)) => e.set_syzygy_probe_limit(n as usize),
            (name::SYZYGY_50_MOVE_RULE, Value::Bool(b)) => e.set_syzygy_50_move_rule(b),
            (n, v) => self.out.error(&format!("option {n}: cannot apply {v:?}")),
        }
    }

    /// Makes a new hash table of `mb` MiB as long work (a large one takes
    /// seconds to fill).
    fn resize_hash(&mut self, mb: usize) {
        let mb = mb.max(1);
        let old = self.engine.options().hash_mb;
        // The old table goes first, so that its memory can be used again.
        self.engine.free_hash();
        self.start_work(true, move |stop| {
            let (table, mb, error) = match Tt::try_new_until(mb, stop) {
                Ok(t) => (t, mb, None),
                Err(why) => match Tt::try_new_until(old, stop) {
                    Ok(t) => (t, old, Some(format!("option Hash: {why} (kept {old} MiB)"))),
                    Err(_) => (
                        Tt::new(1),
                        1,
                        Some(format!("option Hash: {why} (the table has 1 MiB)")),
                    ),
                },
            };
            WorkEnd::Table { table, mb, error }
        });
    }

    /// An option changed the rules so that the position set last does not
    /// hold under them: the engine is at a start position the GUI does not
    /// know of, so `go` answers no move until a new `position`.
    fn position_lost(&mut self, what: &str) {
        self.out.error(&format!(
            "setoption: the last position does not hold under the new {what}; send position again"
        ));
        self.refused_position = Some(format!("the position was set before {what} changed"));
    }

    /// Makes the engine play the variant the options select (a change
    /// keeps the position where it holds under the new rules, and clears
    /// the table).
    fn sync_variant(&mut self) {
        let v = self.variants.variant();
        if v != self.engine.variant() {
            if !self.engine.set_variant(v) {
                self.position_lost("the variant");
            }
            self.note_eval();
        }
        if self.debug {
            self.out.info(&format!("debug: variant {v}"));
        }
    }

    /// Loads the net of `EvalMode nnue` (empty: none, the one built into
    /// the binary if any); a file that cannot be read is reported and the
    /// net before it kept.
    fn load_net(&mut self, path: String) {
        if path.is_empty() {
            self.engine.set_net(None);
            self.note_eval();
            return;
        }
        match crate::nnue::format::load(Path::new(&path)) {
            Ok(net) => {
                self.out
                    .info(&format!("net {} loaded from {path}", net.describe()));
                self.engine.set_net(Some(Arc::new(net)));
                self.note_eval();
            }
            Err(err) => {
                let kept = match self.engine.options().net.as_deref() {
                    Some(n) => format!("kept {}", n.name()),
                    None => "no net loaded".to_owned(),
                };
                self.out.error(&format!("option EvalFile: {err} ({kept})"));
            }
        }
    }

    /// Says why `EvalMode nnue` uses another evaluation, if it does.
    fn note_eval(&mut self) {
        if let Some(note) = self.engine.eval_note() {
            self.out.info(&note);
        }
    }

    /// Finds the endgame tables in the folders of `path` (empty: none); a
    /// path that names a folder that is not there, or one without tables,
    /// is refused and the tables before it kept.
    fn load_tablebases(&mut self, path: String) {
        if path.trim().is_empty() {
            self.engine.set_syzygy(None);
            self.syzygy_path = String::new();
            return;
        }
        match Tablebases::open(&path) {
            Ok(tables) => {
                for why in tables.skipped() {
                    self.out
                        .line(&format!("info string warning: SyzygyPath: skipped {why}"));
                }
                self.out.info(&format!(
                    "found {} Syzygy table files (up to {} pieces) in {path}",
                    tables.files(),
                    tables.max_pieces()
                ));
                self.engine.set_syzygy(Some(Arc::new(tables)));
                self.syzygy_path = path;
                if self.engine.variant() != Variant::Chess {
                    self.out.info(&format!(
                        "the tables are used in chess only (variant {})",
                        self.engine.variant()
                    ));
                }
            }
            Err(err) => {
                let kept = if self.syzygy_path.is_empty() {
                    "no tables".to_owned()
                } else {
                    format!("kept {}", self.syzygy_path)
                };
                self.out
                    .error(&format!("option SyzygyPath: {err} ({kept})"));
            }
        }
    }

    /// Loads a rules file (empty: the specification's tables).
    fn load_rules(&mut self, path: String) {
        let tables = if path.is_empty() {
            Ok(Tables::default())
        } else {
            Tables::from_file(Path::new(&path))
        };
        match tables {
            Ok(t) => {
                self.engine.set_tables(t);
                if !path.is_empty() {
                    self.out.info(&format!("rules file {path} loaded"));
                }
                self.rules_file = path;
            }
            Err(err) => {
                let kept = if self.rules_file.is_empty() {
                    "the default tables".to_owned()
                } else {
                    self.rules_file.clone()
                };
                self.out
                    .error(&format!("option RulesFile: {err} (kept {kept})"));
            }
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let moves = moves_at.map_or(&[][..], |i| &args[i + 1..]);
        let fen = match setup.split_first() {
            Some((&"startpos", rest)) => {
                if !rest.is_empty() {
                    // Moves without the word `moves`: the GUI's position
                    // is not the start, so none is taken.
                    let junk = clip(&rest.join(" "));
                    self.out.error(&format!(
                        "position: '{junk}' after startpos (moves come after the word 'moves'); kept the previous position"
                    ));
                    self.refused_position = Some(format!("'{junk}' after startpos"));
                    return;
                }
                None
            }
            Some((&"fen", rest)) if !rest.is_empty() => Some(rest.join(" ")),
            _ => {
                self.out.error(
                    "position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'; kept the previous position",
                );
                self.refused_position = Some("expected 'startpos' or 'fen <FEN>'".to_owned());
                return;
            }
        };
        self.set_position(fen, moves);
        if self.debug {
            self.out.info(&format!(
                "debug: position {} after {} actions",
                self.engine.fen(),
                self.engine.position_text().1.len()
            ));
        }
    }

    /// Sets the position, playing on past an ending of Tally's rules that
    /// the GUI's rules do not have (see [`Session::can_play_on`]).
    fn set_position(&mut self, fen: Option<String>, moves: &[&str]) {
        if let Some(f) = &fen {
            for note in self.engine.fen_notes(f) {
                self.out.info(&format!("warning: position: {note}"));
            }
        }
        let mut fen = fen;
        let mut from = 0;
        let mut noticed = false;
        loop {
            let Err(e) = self.engine.set_position(fen.as_deref(), &moves[from..]) else {
                self.refused_position = None;
                return;
            };
            if e.bad_fen {
                // The error quotes the FEN: clipped, as every echo is.
                let why = clip(&e.error.to_string());
                self.out
                    .error(&format!("position: {why}; kept the previous position"));
                self.refused_position = Some(why);
                return;
            }
            let at = from + e.applied;
            let mut error = e.error;
            if matches!(error, RulesError::GameOver(_)) && self.can_play_on() {
                if !noticed {
                    self.play_on_notice(&format!("before move {} ({})", at + 1, clip(moves[at])));
                    noticed = true;
                }
                // A new game from the position reached: the history's
                // endings (repetition, the move count) are gone. One of the
                // position itself (insufficient material) stays, and the
                // move is played past it. Each turn of the loop moves on.
                let restart = self.engine.fresh_fen();
                match self.engine.set_position(Some(&restart), &[]) {
                    Ok(()) if self.engine.ending().is_none() => {
                        fen = Some(restart);
                        from = at;
                        continue;
                    }
                    Ok(()) => match self.engine.play_past_end(moves[at]) {
                        Ok(_) => {
                            fen = Some(self.engine.fresh_fen());
                            from = at + 1;
                            continue;
                        }
                        Err(e) => error = e,
                    },
                    // Not expected (the FEN is the engine's own); the
                    // position stays where it was.
                    Err(e) => error = e.error,
                }
            }
            self.out.error(&format!(
                "position: move {} '{}' refused: {}; the position is set after the {at} moves before it",
                at + 1,
                clip(moves[at]),
                error
            ));
            self.refused_position = Some(format!("move {} '{}' refused", at + 1, clip(moves[at])));
            return;
        }
    }

    /// Whether the game is over by Tally's rules only, while the GUI (with
    /// special actions off, a client of standard or extinction rules) goes
    /// on: every ending but checkmate, stalemate and extinction.
    fn can_play_on(&self) -> bool {
        !self.engine.options().specials && self.engine.ending().is_some_and(|e| e.leaves_moves())
    }

    fn play_on_notice(&self, when: &str) {
        let why = self
            .engine
            .ending()
            .map_or_else(String::new, |e| e.describe());
        self.out.info(&format!(
            "the game is over by {} rules ({why}) {when}; the GUI plays on, so Tally plays on from this position as a new game",
            self.engine.variant()
        ));
    }

    fn go(&mut self, args: &[&str]) {
        let mut parsed = parse_go(args);
        for e in &parsed.errors {
            self.out.error(e);
        }
        if let Some(why) = &parsed.refused {
            if parsed.perft_asked {
                self.out.error(&format!("go: {why}; refused, nothing runs"));
            } else {
                // A search still running ends first, as at any `go`; the
                // GUI waits for a bestmove, and gets none it could play.
                self.engine.stop_and_wait();
                self.out.lines(&[
                    format!("info string error: go: {why}; refused, no search"),
                    "bestmove 0000".to_owned(),
                ]);
            }
            return;
        }
        if parsed.perft_asked {
            // A bad depth was reported: neither perft nor a search runs.
            if let Some(why) = &self.refused_position {
                // Not the GUI's board either: no count of another position.
                self.out.error(&format!(
                    "go perft: the last position command was refused ({}); send a valid position",
                    crate::text::printable(why)
                ));
            } else if let Some(depth) = parsed.perft {
                self.perft(depth);
            }
            return;
        }
        // A search still running ends first (and prints its bestmove).
        self.engine.stop_and_wait();
        if let Some(why) = &self.refused_position {
            // The GUI's board is not the engine's: no move of another
            // position.
            self.out.lines(&[
                format!(
                    "info string go: the last position command was refused ({}); send a valid position",
                    crate::text::printable(why)
                ),
                "bestmove 0000".to_owned(),
            ]);
            return;
        }
        if self.can_play_on() {
            self.play_on_notice("here");
            let fen = self.engine.fresh_fen();
            let _ = self.engine.set_position(Some(&fen), &[]);
            // Still over only by a rule of the position itself
            // (insufficient material): searched all the same.
            parsed.limits.play_on = true;
        }
        let legal = if parsed.limits.play_on {
            self.engine.playable_actions()
        } else {
            self.engine.legal_actions()
        };
        if legal.is_empty()
            && let Some(ending) = self.engine.ending()
        {
            self.out.lines(&[
                format!("info string the game is over: {}", ending.describe()),
                "bestmove 0000".to_owned(),
            ]);
            return;
        }
        let (moves, refused) = self
            .engine
            .resolve_searchmoves(&parsed.searchmoves, parsed.limits.play_on);
        for text in &refused {
            self.out.error(&format!(
                "go: searchmoves '{}' is not legal here; ignored",
                clip(text)
            ));
        }
        parsed.limits.searchmoves = moves;
        if !parsed.searchmoves.is_empty() && parsed.limits.searchmoves.is_empty() {
            self.out
                .error("go: no legal searchmoves left; searching every action");
        }
        let l = &parsed.limits;
        self.pondering = l.ponder;
        self.unbounded = l.infinite
            || (l.depth.is_none()
                && l.nodes.is_none()
                && l.movetime.is_none()
                && l.mate.is_none()
                && l.time.iter().all(Option::is_none));
        if self.debug {
            self.out.info(&format!("debug: go {:?}", parsed.limits));
        }
        let variant = self.engine.variant();
        let wdl_phase = (self.show_wdl && matches!(variant, Variant::Chess | Variant::Extinction))
            .then(|| self.engine.phase());
        let reporter = Arc::new(UciReporter {
            out: self.out.clone(),
            mode: CastlingMode::from_chess960(self.engine.options().chess960),
            wdl_phase,
            scale: self
                .score_points
                .then(|| output::PointScale::of(variant, self.engine.units()))
                .flatten(),
            tbhits: self.engine.uses_tablebases(),
        });
        let evaluation = self.engine.evaluation_in_use();
        if self.named_evaluation.as_ref() != Some(&evaluation) {
            self.out.info(&format!("evaluation {evaluation}"));
            self.named_evaluation = Some(evaluation);
        }
        let done = self.finisher();
        if let Err(e) = self.engine.go(parsed.limits, reporter, done) {
            self.out.lines(&[
                format!("info string error: go: {e}"),
                "bestmove 0000".to_owned(),
            ]);
        }
    }

    /// The callback that ends a search: the margin line and `bestmove`.
    fn finisher(&self) -> Box<dyn FnOnce(&SearchResult) + Send> {
        let out = self.out.clone();
        let exact = Exact::of(&self.engine);
        let variant = self.engine.variant();
        let mover = self.engine.turn();
        let mode = CastlingMode::from_chess960(self.engine.options().chess960);
        Box::new(move |r: &SearchResult| {
            let Some(best) = r.best else {
                out.lines(&["info string no legal action to search", "bestmove 0000"]);
                return;
            };
            // The line of the action played (a weakened engine's choice
            // need not be the first), its awards counted in exact points.
            let margin = r
                .played
                .as_ref()
                .filter(|l| l.depth > 0)
                .map(|l| Points::from_f64(exact.value(l).points).unwrap_or_default());
            let award = r.award.map(|a| (a.total(), mover));
            let best = best.uci(mode);
            let info = output::margin_line(variant, margin, &best.to_string(), award);
            let ponder = r
                .ponder
                .map_or_else(String::new, |p| format!(" ponder {}", p.uci(mode)));
            out.lines(&[
                format!("info string {info}"),
                format!("bestmove {best}{ponder}"),
            ]);
        })
    }

    fn perft(&mut self, depth: i64) {
        let Some(depth) = u32::try_from(depth).ok().filter(|&d| d <= MAX_PERFT_DEPTH) else {
            self.out.error(&format!(
                "go perft: depth {depth} is out of range 0..{MAX_PERFT_DEPTH}"
            ));
            return;
        };
        self.engine.stop_and_wait();
        let count = self.engine.perft_work(depth);
        let mode = CastlingMode::from_chess960(self.engine.options().chess960);
        self.start_work(false, move |stop| {
            let entries = if depth == 0 {
                Ok(Some(Vec::new()))
            } else {
                count(stop)
            };
            let entries = match entries {
                Ok(Some(entries)) => entries,
                Ok(None) => return WorkEnd::info(&format!("go perft {depth} stopped")),
                Err(e) => return WorkEnd::error(&format!("go perft: {e}")),
            };
            let mut lines: Vec<String> = entries
                .iter()
                .map(|e| format!("{}: {}", e.action.uci(mode), e.nodes))
                .collect();
            let total: u64 = if depth == 0 {
                1
            } else {
                entries.iter().map(|e| e.nodes).sum()
            };
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            WorkEnd::Lines(lines)
        });
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first() {
            None => crate::bench::DEFAULT_DEPTH,
            Some(t) => match t.parse::<i32>() {
                Ok(d) if (1..=MAX_BENCH_DEPTH).contains(&d) => d,
                _ => {
                    self.out.error(&format!(
                        "bench: depth '{}' is not in 1..{MAX_BENCH_DEPTH}",
                        clip(t)
                    ));
                    return;
                }
            },
        };
        self.engine.stop_and_wait();
        let out = self.out.clone();
        // The session's evaluation, as `tally bench --net` takes one (the
        // bench's own hash and threads).
        let options = EngineOptions {
            eval_mode: self.engine.options().eval_mode,
            net: self.engine.options().net.clone(),
            ..EngineOptions::default()
        };
        self.start_work(false, move |stop| {
            let result = crate::bench::run_with(depth, &options, stop, |i, line| {
                out.info(&line.describe(i));
            });
            match result {
                Ok(Some((nodes, time))) => {
                    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
                    WorkEnd::Lines(vec![format!("{nodes} nodes {nps} nps")])
                }
                Ok(None) => WorkEnd::info(&format!("bench {depth} stopped")),
                Err(e) => WorkEnd::error(&format!("bench: {e}")),
            }
        });
    }
}

impl<W: Write + Send + 'static> Session<W> {
    /// `genfens N seed S book <None|FILE> [EXTRA]`: OpenBench's opening
    /// positions ([`genfens`](mod@genfens)), as long work.
    fn genfens(&mut self, args: &[&str]) {
        let request = match genfens::parse(args) {
            Ok(r) => r,
            Err(e) => {
                self.out.error(&format!("genfens: {e}"));
                return;
            }
        };
        self.engine.stop_and_wait();
        let variant = self.engine.variant();
        let options = self.engine.options().clone();
        let out = self.out.clone();
        self.start_work(false, move |stop| {
            // The book is read here: a large one takes a while.
            let config = match genfens::config(&request, variant, &options) {
                Ok(c) => c,
                Err(e) => return WorkEnd::error(&format!("genfens: {e}")),
            };
            let (printed, ended) = genfens::generate(&config, request.count, stop, |fen| {
                out.line(&format!("info string genfens {fen}"));
            });
            let of = request.count;
            match ended {
                genfens::Ended::Done => WorkEnd::Nothing,
                genfens::Ended::Stopped => {
                    WorkEnd::info(&format!("stopped genfens after {printed} of {of} positions"))
                }
                genfens::Ended::NoOpening => WorkEnd::error(&format!(
                    "genfens: {} games in a row have no opening that passes the check; {printed} of {of} positions printed",
                    crate::datagen::MAX_SKIPPED_RUN
                )),
            }
        });
    }
}

/// The text of `line` after the token `command` (a subslice of it).
fn rest_after<'a>(line: &'a str, command: &'a str) -> &'a str {
    let start = command.as_ptr() as usize - line.as_ptr() as usize + command.len();
    line.get(start..).unwrap_or("")
}

/// A parsed `go` command.
#[derive(Debug, Default)]
struct Go {
    limits: Limits,
    /// The `searchmoves` texts (the engine resolves them).
    searchmoves: Vec<String>,
    /// Whether `perft` was given (with a good depth in `perft`, or not).
    perft_asked: bool,
    perft: Option<i64>,
    /// Reported problems that leave the rest of the command standing (an
    /// unknown word, a value that is not an integer).
    errors: Vec<String>,
    /// Why the whole command is refused (a field given twice or without
    /// its value, `perft` with other fields): nothing runs.
    refused: Option<String>,
}

/// The words of `go`.
const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses the arguments of `go`. A field given twice, a field without
/// its value (`go depth`, `go wtime perft 5`: a value is never another
/// field's word), `searchmoves` without a move, or `perft` beside other
/// fields refuses the whole command ([`Go::refused`]), since which of
/// them was meant is a guess. Otherwise lenient: an unknown word or a
/// value that is not an integer is reported and skipped, the rest still
/// counts. Negative times count as 0 (some GUIs send them when a clock
/// ran out); a depth is at least 1.
fn parse_go(args: &[&str]) -> Go {
    let mut go = Go::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        if !GO_WORDS.contains(&word) {
            go.errors
                .push(format!("go: unknown word '{}' ignored", clip(word)));
            continue;
        }
        if seen.contains(&word) {
            go.refused
                .get_or_insert_with(|| format!("{word} is given more than once"));
        }
        seen.push(word);
        go.perft_asked |= word == "perft";
        match word {
            "ponder" => go.limits.ponder = true,
            "infinite" => go.limits.infinite = true,
            "searchmoves" => {
                let first = i;
                while i < args.len() && !GO_WORDS.contains(&args[i]) {
                    go.searchmoves.push(args[i].to_owned());
                    i += 1;
                }
                if i == first {
                    go.refused
                        .get_or_insert_with(|| "searchmoves needs at least one move".to_owned());
                }
            }
            _ => {
                let value = args.get(i).filter(|t| !GO_WORDS.contains(t));
                let Some(&value) = value else {
                    let found = args
                        .get(i)
                        .map_or_else(|| "nothing".to_owned(), |t| format!("'{}'", clip(t)));
                    go.refused
                        .get_or_insert_with(|| format!("{word} needs a value (found {found})"));
                    continue;
                };
                i += 1;
                let n = match value.parse::<i64>() {
                    Ok(n) => n,
                    // Digits past i64: the largest (or smallest) value, as
                    // the GUI meant a limit beyond reach.
                    Err(_) if is_integer_text(value) => {
                        if value.starts_with('-') {
                            i64::MIN
                        } else {
                            i64::MAX
                        }
                    }
                    Err(_) => {
                        go.errors.push(format!(
                            "go: '{}' after {word} is not an integer; {word} ignored",
                            clip(value)
                        ));
                        continue;
                    }
                };
                let ms = || Some(Duration::from_millis(n.max(0) as u64));
                let l = &mut go.limits;
                match word {
                    "wtime" => l.time[0] = ms(),
                    "btime" => l.time[1] = ms(),
                    "winc" => l.inc[0] = ms(),
                    "binc" => l.inc[1] = ms(),
                    "movetime" => l.movetime = ms(),
                    "movestogo" => l.movestogo = (n > 0).then(|| n.min(1000) as u32),
                    "depth" => l.depth = Some(n.clamp(1, 1000) as i32),
                    "nodes" => l.nodes = Some(n.max(1) as u64),
                    "mate" => l.mate = Some(n.clamp(1, 1000) as u32),
                    _ => go.perft = Some(n),
                }
            }
        }
    }
    if go.perft_asked
        && let Some(other) = seen.iter().find(|&&w| w != "perft")
    {
        go.refused
            .get_or_insert_with(|| format!("perft takes no other field (found {other})"));
    }
    go
}

/// Whether `t` is an optional minus and digits only (an integer of any
/// size).
fn is_integer_text(t: &str) -> bool {
    let digits = t.strip_prefix('-').unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_past_i64_are_the_largest_limit() {
        let g = parse_go(&[
            "nodes",
            "99999999999999999999999",
            "wtime",
            "-99999999999999999999",
        ]);
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        assert_eq!(g.limits.nodes, Some(i64::MAX as u64));
        assert_eq!(g.limits.time[0], Some(Duration::ZERO));
        let g = parse_go(&["depth", "9".repeat(40).as_str()]);
        assert_eq!(g.limits.depth, Some(1000));
        let g = parse_go(&["nodes", "12x"]);
        assert_eq!(g.limits.nodes, None);
        assert_eq!(g.errors.len(), 1);
    }

    #[test]
    fn go_words() {
        let g = parse_go(&[
            "wtime",
            "-5",
            "btime",
            "1000",
            "winc",
            "10",
            "movestogo",
            "0",
            "depth",
            "x",
            "searchmoves",
            "e2e4",
            "d2d4",
            "nodes",
            "5",
            "bogus",
        ]);
        assert_eq!(
            g.limits.time,
            [Some(Duration::ZERO), Some(Duration::from_millis(1000))]
        );
        assert_eq!(g.limits.inc[0], Some(Duration::from_millis(10)));
        assert_eq!(g.limits.movestogo, None);
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(g.limits.nodes, Some(5));
        assert_eq!(g.errors.len(), 2);
        assert_eq!(parse_go(&["perft", "3"]).perft, Some(3));
        let bad = parse_go(&["perft", "x"]);
        assert!(bad.perft_asked && bad.perft.is_none());
        assert!(parse_go(&["depth"]).refused.is_some());
    }

    #[test]
    fn repeated_and_valueless_fields_refuse_the_command() {
        let refused = |args: &[&str]| parse_go(args).refused;
        // `wtime` does not take the `perft` after it as its value.
        let g = parse_go(&["perft", "3", "perft", "10", "wtime", "perft", "5"]);
        assert!(g.perft_asked);
        assert_eq!(g.refused.as_deref(), Some("perft is given more than once"));
        assert_eq!(
            refused(&["wtime", "perft", "5"]).as_deref(),
            Some("wtime needs a value (found 'perft')")
        );
        assert_eq!(
            refused(&["depth", "5", "nodes"]).as_deref(),
            Some("nodes needs a value (found nothing)")
        );
        for args in [
            &["depth", "5", "depth", "6"][..],
            &["infinite", "infinite"],
            &["ponder", "wtime", "10", "ponder"],
            &["searchmoves", "e2e4", "searchmoves", "d2d4"],
            &["searchmoves", "depth", "3"],
            &["searchmoves"],
            &["perft", "3", "depth", "2"],
            &["movetime", "wtime", "5"],
            &["perft"],
        ] {
            assert!(refused(args).is_some(), "{args:?}");
        }
        for args in [
            &["depth", "5", "nodes", "100"][..],
            &[
                "wtime",
                "1",
                "btime",
                "2",
                "winc",
                "0",
                "binc",
                "0",
                "movestogo",
                "3",
            ],
            &["searchmoves", "e2e4", "d2d4", "infinite"],
            &["perft", "3"],
            &["depth", "x"],
            &["bogus", "bogus", "depth", "2"],
        ] {
            assert_eq!(refused(args), None, "{args:?}");
        }
    }

    #[test]
    fn fens_and_rest() {
        let line = "  setoption name Hash value 8";
        let tokens: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(rest_after(line, tokens[0]), " name Hash value 8");
    }
}
