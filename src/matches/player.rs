//! The players of a match: Tally in process ([`TallyPlayer`], over
//! [`Engine`]) and any UCI engine in a child process ([`UciPlayer`]), both
//! behind [`Player`], started from their [`PlayerSpec`]s (in
//! [`super::spec`]).
//!
//! External engines and the protocol: the engine is started with its
//! standard error discarded and in its own process group (so a Ctrl-C at
//! the terminal reaches only Tally, which stops the match cleanly), sent
//! `uci` (and must answer `uciok` within its start timeout, by default
//! [`START_TIMEOUT`]), its options,
//! and `isready`; before each game `ucinewgame` and `isready`; for each
//! move `position` (`startpos` or `fen`, then `moves`) and `go`. A reader
//! thread turns its output into a channel, so every wait has a deadline:
//! end of output is a crash, no `bestmove` by the deadline a hang. Output
//! is read as bytes and decoded lossily (bytes that are not UTF-8, such as
//! a Latin-1 author's name, become U+FFFD). Output is bounded, so that an
//! engine cannot exhaust Tally's memory: a line longer than [`MAX_LINE`],
//! or more than [`MAX_OUTPUT`] bytes or [`MAX_LINES`] lines between two
//! requests, is a flood ([`Failure::Flood`]): the reader stops, the engine
//! forfeits the game and is restarted for the next, as after a crash. For
//! extinction, `setoption name UCI_Variant value extinction` is sent unless
//! the spec sets `UCI_Variant` itself. A scoring variant is played on
//! standard chess rules, so an engine that does not know it plays chess;
//! one that lists the variant among its `UCI_Variant` values (as Tally
//! does) is told it with `setoption name UCI_Variant value VARIANT`, again
//! unless the spec sets `UCI_Variant`. Likewise an engine that offers a
//! `DrawAdvantage` option (as Tally does) is told the match's, unless the
//! spec sets it, so that it scores draws as the referee does. In a
//! Chess960 match every engine is sent `setoption name UCI_Chess960 value
//! true` (unless the spec sets it), and one that does not offer the option
//! is refused at its start; positions go as X-FEN and castling as king
//! takes rook.
//!
//! Engines die with Tally: an engine that is not reading its input (hung,
//! or thinking) does not see it close when Tally is killed (`kill -9`,
//! an out-of-memory kill) and would run on, orphaned. So on Unix each
//! engine gets a watchdog, `/bin/sh -c 'read -r line; kill -KILL -GROUP'`,
//! a process in the engine's process group whose standard input is a pipe
//! that Tally holds and never writes: when Tally ends for any reason the
//! kernel closes the pipe, `read` returns, and the watchdog kills the
//! engine's whole process group (itself and any children of the engine
//! included). When Tally ends an engine itself, it kills the watchdog
//! first, so that it never fires at a group number that could have been
//! reused. This needs no `unsafe` (unlike `PR_SET_PDEATHSIG`, which also
//! fires when the spawning *thread* ends, and is Linux only). Without
//! `/bin/sh` (or elsewhere than Unix) engines run without a watchdog.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use super::spec::{PlayerKind, PlayerSpec};
use crate::engine::{Engine, EngineOptions};
use crate::rules::Variant;
use crate::scoring::{DrawAdvantage, Tables};
use crate::search::{Limits, Silent};
use crate::uci::option_names::{DRAW_ADVANTAGE, UCI_CHESS960};

/// How long an external engine may take, by default, over what is not a
/// move: answering `uci` or `isready`, and giving its exit status once
/// its output ended (a crash is reported with it).
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line an external engine may write (64 KiB; UCI lines are
/// well under 1 KiB).
pub const MAX_LINE: usize = 64 * 1024;

/// The most an external engine may write between two of Tally's requests
/// (`uci`, `ucinewgame`, `go`): 16 MiB ...
pub const MAX_OUTPUT: usize = 16 * 1024 * 1024;

/// ... in at most this many lines (a long search prints a few thousand).
pub const MAX_LINES: usize = 100_000;

/// The limits a player is asked to move under: the clocks, or fixed
/// limits (sent to an external engine as its `go` command).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Remaining time `[white, black]`, when a clock runs.
    pub time: Option<[Duration; 2]>,
    /// Increment `[white, black]`.
    pub inc: [Duration; 2],
    /// Fixed depth.
    pub depth: Option<i32>,
    /// Fixed nodes.
    pub nodes: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
}

impl MoveLimits {
    /// As Tally's search limits.
    pub fn search_limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            time: self.time.map_or([None, None], |t| [Some(t[0]), Some(t[1])]),
            inc: if self.time.is_some() {
                [Some(self.inc[0]), Some(self.inc[1])]
            } else {
                [None, None]
            },
            ..Limits::default()
        }
    }

    /// The UCI `go` command.
    pub fn uci(&self) -> String {
        let mut s = "go".to_owned();
        if let Some(t) = self.time {
            s.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                t[0].as_millis(),
                t[1].as_millis(),
                self.inc[0].as_millis(),
                self.inc[1].as_millis()
            ));
        }
        if let Some(d) = self.depth {
            s.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.nodes {
            s.push_str(&format!(" nodes {n}"));
        }
        if let Some(m) = self.movetime {
            s.push_str(&format!(" movetime {}", m.as_millis()));
        }
        s
    }
}

/// What a game is played under, told to both players before it starts:
/// its variant and the sets draw advantage by colour. Within one match
/// they change only between the games of a contest (a tie-break match's
/// `tiebraker` games, the sets draw advantage that follows a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// The sets draw advantage.
    pub draw_advantage: DrawAdvantage,
    /// The colour of the sets handicap in this game, when it follows a
    /// player (`tally match --weaker`): the tables' handicap is given to
    /// it. `None`: the tables as they are.
    pub handicap: Option<shakmaty::Color>,
}

/// Why a player gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or its pipe broke.
    Crash(String),
    /// No answer by the deadline.
    Hang(Duration),
    /// An answer that breaks the protocol (or an internal error).
    Protocol(String),
    /// Output beyond the bounds ([`MAX_LINE`], [`MAX_OUTPUT`],
    /// [`MAX_LINES`]).
    Flood(String),
    /// The match is stopping.
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crash(m) => write!(f, "crashed: {m}"),
            Failure::Hang(d) => write!(f, "no reply within {:.1} s", d.as_secs_f64()),
            Failure::Protocol(m) => write!(f, "protocol error: {m}"),
            Failure::Flood(m) => write!(f, "flooded its output: {m}"),
            Failure::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// A player of a match.
pub trait Player: Send {
    /// The player's name.
    fn name(&self) -> &str;
    /// Sets the next game's variant and draw advantage (see
    /// [`GameSettings`]); nothing is sent when they are the ones in force.
    ///
    /// # Errors
    ///
    /// A [`Failure`] if the player cannot be told.
    fn prepare(&mut self, settings: &GameSettings) -> Result<(), Failure>;
    /// Prepares for a new game.
    ///
    /// # Errors
    ///
    /// A [`Failure`] if the player does not answer.
    fn new_game(&mut self) -> Result<(), Failure>;
    /// The action to play after `moves` from `start_fen`, searched under
    /// `limits` (UCI text; the caller checks it), waiting at most `wait`
    /// and giving up early when `stop` is set.
    ///
    /// # Errors
    ///
    /// A [`Failure`] if no action came.
    fn play(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limits: &MoveLimits,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure>;
    /// Starts the player afresh (after a failure).
    ///
    /// # Errors
    ///
    /// A message if it cannot be started.
    fn restart(&mut self) -> Result<(), String>;
}

/// Tally in process.
pub struct TallyPlayer {
    name: String,
    engine: Engine,
    /// The draw advantage the spec sets (`option.DrawAdvantage`), which
    /// the game's does not replace.
    own_draw_advantage: Option<DrawAdvantage>,
}

impl TallyPlayer {
    /// A Tally player for `variant` with `spec`'s settings; `specials` says
    /// whether the game allows special actions, `tables` and
    /// `draw_advantage` are the referee's.
    pub fn new(
        spec: &PlayerSpec,
        variant: Variant,
        specials: bool,
        tables: &Tables,
        draw_advantage: DrawAdvantage,
    ) -> TallyPlayer {
        let mut options = EngineOptions {
            hash_mb: spec.hash_mb,
            threads: spec.threads,
            specials,
            draw_advantage,
            tables: tables.clone(),
            ..EngineOptions::default()
        };
        let mut own_draw_advantage = None;
        if let PlayerKind::Tally {
            eval,
            net,
            move_overhead,
            draw_advantage,
            strength,
            weights,
            ..
        } = &spec.kind
        {
            options.eval_mode = *eval;
            options.weights.clone_from(weights);
            options.strength = *strength;
            options.net.clone_from(net);
            if let Some(m) = move_overhead {
                options.move_overhead = *m;
            }
            if let Some(a) = draw_advantage {
                options.draw_advantage = *a;
            }
            own_draw_advantage = *draw_advantage;
        }
        TallyPlayer {
            name: spec.default_name(),
            engine: Engine::with_options(variant, options),
            own_draw_advantage,
        }
    }

    /// The player set to Chess960 or not ([`Engine::set_chess960`]).
    #[must_use]
    pub fn with_chess960(mut self, on: bool) -> TallyPlayer {
        self.engine.set_chess960(on);
        self
    }
}

impl std::fmt::Debug for TallyPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TallyPlayer")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Player for TallyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn prepare(&mut self, settings: &GameSettings) -> Result<(), Failure> {
        if self.engine.variant() != settings.variant {
            self.engine.set_variant(settings.variant);
        }
        self.engine
            .set_draw_advantage(self.own_draw_advantage.unwrap_or(settings.draw_advantage));
        if let Some(side) = settings.handicap {
            let tables = &self.engine.options().tables;
            if let Some(h) = &tables.sets.handicap
                && h.side != side
            {
                let mut t = tables.clone();
                t.sets = t.sets.with_handicap_side(side);
                self.engine.set_tables(t);
            }
        }
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        self.engine.new_game();
        Ok(())
    }

    fn play(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limits: &MoveLimits,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.engine
            .set_position(Some(start_fen), &moves)
            .map_err(|e| Failure::Protocol(format!("position refused: {}", e.error)))?;
        // Ctrl-C and the wait end the search as they end an engine's.
        let started = Instant::now();
        let late = || started.elapsed() > wait;
        let halt = || stop.load(Ordering::Relaxed) || late();
        let r = self
            .engine
            .search_halting(limits.search_limits(), &Silent, &halt)
            .map_err(|e| Failure::Protocol(e.to_string()))?;
        if stop.load(Ordering::Relaxed) {
            return Err(Failure::Interrupted);
        }
        if late() {
            return Err(Failure::Hang(wait));
        }
        r.best
            .map(|a| a.to_string())
            .ok_or_else(|| Failure::Protocol("no move found".to_owned()))
    }

    fn restart(&mut self) -> Result<(), String> {
        self.engine.new_game();
        Ok(())
    }
}

/// What the reader thread hands on.
enum Output {
    /// A line, without its end.
    Line(String),
    /// The engine broke the output bounds; the reader has stopped.
    Flood(String),
}

/// What an engine wrote since the last request (shared with its reader).
#[derive(Default)]
struct Written {
    bytes: AtomicUsize,
    lines: AtomicUsize,
}

impl Written {
    /// Counts one line of `len` bytes; `Err` with the reason when the
    /// bounds are broken.
    fn count(&self, len: usize) -> Result<(), String> {
        let bytes = self.bytes.fetch_add(len, Ordering::Relaxed) + len;
        let lines = self.lines.fetch_add(1, Ordering::Relaxed) + 1;
        if bytes > MAX_OUTPUT {
            return Err(format!(
                "more than {} MiB written in answer to one request",
                MAX_OUTPUT >> 20
            ));
        }
        if lines > MAX_LINES {
            return Err(format!(
                "more than {MAX_LINES} lines written in answer to one request"
            ));
        }
        Ok(())
    }

    fn reset(&self) {
        self.bytes.store(0, Ordering::Relaxed);
        self.lines.store(0, Ordering::Relaxed);
    }
}

/// Reads `stdout` line by line into `tx` within the bounds (see the module
/// docs), until the output ends, the receiver is gone or the bounds break.
fn read_output(stdout: impl Read, tx: &Sender<Output>, written: &Written) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        // One byte more than a line may hold, its end included.
        let limit = MAX_LINE as u64 + 1;
        match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let ended = line.last() == Some(&b'\n');
        if !ended && line.len() > MAX_LINE {
            let _ = tx.send(Output::Flood(format!(
                "a line longer than {} KiB",
                MAX_LINE >> 10
            )));
            return;
        }
        if let Err(reason) = written.count(line.len()) {
            let _ = tx.send(Output::Flood(reason));
            return;
        }
        // Engines write in any encoding (an author's name in Latin-1):
        // decode lossily.
        let text = String::from_utf8_lossy(&line);
        if tx.send(Output::Line(text.trim_end().to_owned())).is_err() {
            return;
        }
    }
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    written: Arc<Written>,
    /// Kills the engine when Tally dies (see the module docs).
    watchdog: Option<Child>,
    /// The wait for an exit status.
    patience: Duration,
}

/// Starts the watchdog of `engine` (see the module docs); `None` where
/// none can run.
#[cfg(unix)]
fn watchdog(engine: &Child) -> Option<Child> {
    use std::os::unix::process::CommandExt;
    let group = engine.id();
    Command::new("/bin/sh")
        .args([
            "-c",
            "read -r line; kill -KILL -\"$1\"",
            "tally-watchdog",
            &group.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // In the engine's group: out of reach of a Ctrl-C at the terminal.
        .process_group(i32::try_from(group).ok()?)
        .spawn()
        .ok()
}

#[cfg(not(unix))]
fn watchdog(_engine: &Child) -> Option<Child> {
    None
}

impl Process {
    fn spawn(program: &str, args: &[String], patience: Duration) -> Result<Process, String> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{program}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot talk to '{program}'"));
        };
        let (tx, rx) = channel();
        let written = Arc::new(Written::default());
        let counter = Arc::clone(&written);
        let reader = std::thread::Builder::new()
            .name("uci-reader".to_owned())
            .spawn(move || read_output(stdout, &tx, &counter));
        let process = Process {
            watchdog: watchdog(&child),
            child,
            stdin,
            lines: rx,
            written,
            patience,
        };
        match reader {
            Ok(_) => Ok(process),
            // Dropping the process ends the engine and its watchdog.
            Err(e) => Err(format!("cannot start a reader thread: {e}")),
        }
    }

    /// Sends a request: what the engine writes from now on counts against
    /// the bounds afresh.
    fn request(&mut self, line: &str) -> Result<(), Failure> {
        self.written.reset();
        self.send(line)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write to the engine: {e}")))
    }

    /// Waits for a line for which `want` returns true; other lines are
    /// passed to `other`.
    fn wait_for(
        &mut self,
        want: &dyn Fn(&str) -> bool,
        other: &mut dyn FnMut(&str),
        timeout: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Hang(timeout));
            }
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(Failure::Interrupted);
            }
            let slice = (deadline - now).min(Duration::from_millis(100));
            match self.lines.recv_timeout(slice) {
                Ok(Output::Line(l)) if want(&l) => return Ok(l),
                Ok(Output::Line(l)) => other(&l),
                Ok(Output::Flood(reason)) => return Err(Failure::Flood(reason)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // An engine whose output ends is exiting: wait for its
                    // status, generously (a loaded machine may take a
                    // while to run its exit), but not without end.
                    let until = Instant::now() + self.patience;
                    let mut status = "the engine closed its output".to_owned();
                    while Instant::now() < until {
                        if let Ok(Some(s)) = self.child.try_wait() {
                            status = format!("the engine exited ({s})");
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    return Err(Failure::Crash(status));
                }
            }
        }
    }

    /// Drops the lines not read yet (the bounds keep them few).
    ///
    /// # Errors
    ///
    /// A [`Failure::Flood`] when the engine broke the bounds meanwhile.
    fn drain(&mut self) -> Result<(), Failure> {
        while let Ok(out) = self.lines.try_recv() {
            if let Output::Flood(reason) = out {
                return Err(Failure::Flood(reason));
            }
        }
        Ok(())
    }
}

/// What an external engine prints for `uci`, up to and with `uciok`, one
/// line each; it is then told to quit.
///
/// # Errors
///
/// A one-line message when the engine cannot be started or does not
/// answer within [`START_TIMEOUT`].
pub fn uci_lines(program: &str) -> Result<Vec<String>, String> {
    let mut proc = Process::spawn(program, &[], START_TIMEOUT)?;
    let what = |f: Failure| format!("'{program}' {f} while listing its options");
    proc.request("uci").map_err(what)?;
    let mut lines = Vec::new();
    let last = proc
        .wait_for(
            &|l| l.trim() == "uciok",
            &mut |l| lines.push(l.to_owned()),
            START_TIMEOUT,
            None,
        )
        .map_err(what)?;
    lines.push(last);
    Ok(lines)
}

impl Drop for Process {
    fn drop(&mut self) {
        // The watchdog first, while the engine (reaped only below) still
        // holds its group's number.
        if let Some(w) = &mut self.watchdog {
            let _ = w.kill();
            let _ = w.wait();
        }
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external UCI engine.
pub struct UciPlayer {
    name: String,
    program: String,
    args: Vec<String>,
    options: Vec<(String, String)>,
    /// The scoring variant to name in `UCI_Variant` if the engine lists it
    /// (none when the spec sets `UCI_Variant`, for chess and extinction):
    /// the game's, once [`Player::prepare`] changed it.
    offer_variant: Option<&'static str>,
    /// The scoring variants the engine lists among its `UCI_Variant`
    /// values (read at its start; none when the spec sets `UCI_Variant`).
    listed: Vec<&'static str>,
    /// Whether the spec sets `UCI_Variant` itself.
    own_variant: bool,
    /// The match's draw advantage, to set if the engine offers a
    /// `DrawAdvantage` option (none when the spec sets it): the game's,
    /// once [`Player::prepare`] changed it.
    offer_draw_advantage: Option<&'static str>,
    /// Whether the engine offers a `DrawAdvantage` option.
    has_draw_advantage: bool,
    /// Whether the games are Chess960: `UCI_Chess960` is set (the engine
    /// must offer it) unless the spec sets it.
    chess960: bool,
    patience: Duration,
    process: Option<Process>,
}

impl std::fmt::Debug for UciPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UciPlayer")
            .field("name", &self.name)
            .field("program", &self.program)
            .finish_non_exhaustive()
    }
}

impl UciPlayer {
    /// Starts an external engine for `variant` with the match's
    /// `draw_advantage` (see the module docs for the handshake), giving it
    /// `start_timeout` for everything that is not a move (see
    /// [`START_TIMEOUT`]).
    ///
    /// # Errors
    ///
    /// A one-line message if it cannot be started or does not answer.
    pub fn start(
        spec: &PlayerSpec,
        variant: Variant,
        chess960: bool,
        draw_advantage: DrawAdvantage,
        start_timeout: Duration,
    ) -> Result<UciPlayer, String> {
        let PlayerKind::Uci {
            program,
            args,
            options,
        } = &spec.kind
        else {
            return Err("not an external engine".to_owned());
        };
        let mut options = options.clone();
        let sets = |name: &str| options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        let has_variant = sets("UCI_Variant");
        let offer_draw_advantage = (!sets(DRAW_ADVANTAGE)).then(|| draw_advantage.as_str());
        let chess960 = chess960 && !sets(UCI_CHESS960);
        if variant.is_extinction() && !has_variant {
            options.insert(0, ("UCI_Variant".to_owned(), "extinction".to_owned()));
        }
        let offer_variant = (!has_variant && !variant.is_extinction() && variant != Variant::Chess)
            .then(|| variant.id());
        let mut p = UciPlayer {
            name: spec.name.clone().unwrap_or_default(),
            program: program.clone(),
            args: args.clone(),
            options,
            offer_variant,
            listed: Vec::new(),
            own_variant: has_variant,
            offer_draw_advantage,
            has_draw_advantage: false,
            chess960,
            patience: start_timeout,
            process: None,
        };
        p.launch()?;
        if p.name.is_empty() {
            p.name = spec.default_name();
        }
        Ok(p)
    }

    fn launch(&mut self) -> Result<(), String> {
        self.process = None;
        let mut proc = Process::spawn(&self.program, &self.args, self.patience)?;
        let what = |f: Failure| format!("'{}' {f} while starting", self.program);
        proc.request("uci").map_err(what)?;
        let mut id = None;
        let mut listed: Vec<&'static str> = Vec::new();
        let mut has_draw_advantage = false;
        let mut has_chess960 = false;
        let own_variant = self.own_variant;
        proc.wait_for(
            &|l| l.trim() == "uciok",
            &mut |l| {
                if let Some(n) = l.trim().strip_prefix("id name ") {
                    // Shown in tables and PGN tags: no control characters.
                    id = Some(crate::text::printable(n.trim()).into_owned());
                }
                if !own_variant {
                    for v in Variant::ALL.map(Variant::id) {
                        if !listed.contains(&v) && lists_variant(l, v) {
                            listed.push(v);
                        }
                    }
                }
                has_draw_advantage |=
                    option_name(l).is_some_and(|n| n.eq_ignore_ascii_case(DRAW_ADVANTAGE));
                has_chess960 |=
                    option_name(l).is_some_and(|n| n.eq_ignore_ascii_case(UCI_CHESS960));
            },
            self.patience,
            None,
        )
        .map_err(what)?;
        if self.name.is_empty()
            && let Some(n) = id
        {
            self.name = n;
        }
        self.listed = listed;
        self.has_draw_advantage = has_draw_advantage;
        let offered = self
            .offer_variant
            .filter(|v| self.listed.contains(v))
            .map(|v| ("UCI_Variant", v));
        let draw = self
            .offer_draw_advantage
            .filter(|_| has_draw_advantage)
            .map(|v| (DRAW_ADVANTAGE, v));
        if self.chess960 && !has_chess960 {
            return Err(format!(
                "'{}' does not offer {UCI_CHESS960}: it cannot play Chess960",
                self.program
            ));
        }
        let chess960 = self.chess960.then_some((UCI_CHESS960, "true"));
        let options = self.options.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        for (n, v) in offered
            .into_iter()
            .chain(draw)
            .chain(chess960)
            .chain(options)
        {
            proc.send(&format!("setoption name {n} value {v}"))
                .map_err(what)?;
        }
        proc.send("isready").map_err(what)?;
        let patience = self.patience;
        proc.wait_for(&|l| l.trim() == "readyok", &mut |_| {}, patience, None)
            .map_err(what)?;
        self.process = Some(proc);
        Ok(())
    }

    fn process(&mut self) -> Result<&mut Process, Failure> {
        self.process
            .as_mut()
            .ok_or_else(|| Failure::Crash("the engine is not running".to_owned()))
    }
}

/// The name of the engine's option that `line` declares (`option name
/// NAME type ...`, a one-word name), if it is an option line.
fn option_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    (words.next() == Some("option") && words.next() == Some("name"))
        .then(|| words.next())
        .flatten()
}

/// Whether `line` is a `UCI_Variant` option line that lists `variant`
/// among its `var` values (names compared without case).
fn lists_variant(line: &str, variant: &str) -> bool {
    if !option_name(line).is_some_and(|n| n.eq_ignore_ascii_case("UCI_Variant")) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .any(|w| w[0] == "var" && w[1].eq_ignore_ascii_case(variant))
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn prepare(&mut self, settings: &GameSettings) -> Result<(), Failure> {
        let variant = settings.variant;
        let offer = (!self.own_variant && !variant.is_extinction() && variant != Variant::Chess)
            .then(|| variant.id());
        let mut lines = Vec::new();
        if offer != self.offer_variant {
            if let Some(v) = offer.filter(|v| self.listed.contains(v)) {
                lines.push(format!("setoption name UCI_Variant value {v}"));
            }
            self.offer_variant = offer;
        }
        let draw = settings.draw_advantage.as_str();
        if let Some(current) = self.offer_draw_advantage
            && current != draw
        {
            if self.has_draw_advantage {
                lines.push(format!("setoption name {DRAW_ADVANTAGE} value {draw}"));
            }
            self.offer_draw_advantage = Some(draw);
        }
        if !lines.is_empty() {
            let p = self.process()?;
            for line in &lines {
                p.send(line)?;
            }
        }
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        let patience = self.patience;
        let p = self.process()?;
        p.drain()?;
        p.request("ucinewgame")?;
        p.send("isready")?;
        p.wait_for(&|l| l.trim() == "readyok", &mut |_| {}, patience, None)?;
        Ok(())
    }

    fn play(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limits: &MoveLimits,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        let p = self.process()?;
        p.drain()?;
        let mut pos = if start_fen == crate::pgn::STANDARD_FEN {
            "position startpos".to_owned()
        } else {
            format!("position fen {start_fen}")
        };
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        p.request(&pos)?;
        p.send(&limits.uci())?;
        let line = p.wait_for(
            &|l| l.trim_start().starts_with("bestmove"),
            &mut |_| {},
            wait,
            Some(stop),
        )?;
        match line.split_whitespace().nth(1) {
            Some(m) => Ok(m.to_owned()),
            None => Err(Failure::Protocol("'bestmove' without a move".to_owned())),
        }
    }

    fn restart(&mut self) -> Result<(), String> {
        self.launch()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn output_unread_between_requests_is_bounded() {
        // `yes` writes lines without end while nobody reads them (as an
        // engine might while its opponent thinks): the reader stops at the
        // bound and the next look at the output reports the flood. The
        // loop's bound only catches a broken reader; it is never reached.
        let mut p = Process::spawn("yes", &["info string idle".to_owned()], START_TIMEOUT).unwrap();
        let until = Instant::now() + Duration::from_secs(120);
        let failure = loop {
            match p.drain() {
                Err(f) => break f,
                Ok(()) if Instant::now() > until => panic!("no flood reported"),
                Ok(()) => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        assert_eq!(
            failure,
            Failure::Flood(format!(
                "more than {MAX_LINES} lines written in answer to one request"
            ))
        );
    }

    #[test]
    fn variant_lists() {
        let tally = "option name UCI_Variant type combo default chess var chess var extinction var stylish var Sets";
        assert!(lists_variant(tally, "stylish"));
        assert!(lists_variant(tally, "sets"));
        assert!(!lists_variant(tally, "wacky"));
        assert!(!lists_variant(
            "option name Style type combo default chess var stylish",
            "stylish"
        ));
        assert!(!lists_variant("info string var stylish", "stylish"));
        assert!(!lists_variant("option name UCI_Variant", "stylish"));
    }

    #[test]
    fn go_text() {
        let g = MoveLimits {
            time: Some([Duration::from_millis(1500), Duration::from_secs(2)]),
            inc: [Duration::from_millis(100); 2],
            ..MoveLimits::default()
        };
        assert_eq!(g.uci(), "go wtime 1500 btime 2000 winc 100 binc 100");
        let l = g.search_limits();
        assert_eq!(l.time[1], Some(Duration::from_secs(2)));
        let g = MoveLimits {
            depth: Some(4),
            ..MoveLimits::default()
        };
        assert_eq!(g.uci(), "go depth 4");
    }
}
