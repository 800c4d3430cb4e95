//! A match run from the words of its command line: [`config`] checks them
//! and builds the [`MatchConfig`]; [`RunFiles`] are the results file
//! (resumed when it holds the same experiment) and the PGN file every
//! finished game is appended to. `tally match` gives the words and
//! prints; the checks and the files are here.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use super::results::{self, Header, Writer};
use super::{
    Control, GameRecord, MatchConfig, PlayerSpec, SprtConfig, openings, resolve_shard, shard_path,
};
use crate::rules::Variant;
use crate::scoring::{DrawAdvantage, Tables};

/// The settings of a match run as the command line words them (see
/// `tally match --help` for each).
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The variant id.
    pub variant: &'a str,
    /// The player specs (two are needed).
    pub players: &'a [String],
    /// The time control `BASE[+INC]`.
    pub tc: Option<&'a str>,
    /// Fixed depth per move.
    pub depth: Option<i32>,
    /// Fixed nodes per move.
    pub nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    pub movetime: Option<u64>,
    /// An EPD or PGN file of openings (default: the shipped ones, or the
    /// 960 start positions under `chess960`).
    pub openings: Option<&'a Path>,
    /// Chess960 castling (on by itself for openings that need it).
    pub chess960: bool,
    /// The seed of the Chess960 openings' order.
    pub seed: u64,
    /// Games in the whole match.
    pub games: Option<usize>,
    /// Games at once (default: cores / threads per game).
    pub concurrency: Option<usize>,
    /// Whether more threads than cores are allowed.
    pub oversubscribe: bool,
    /// A TOML rules file.
    pub rules: Option<&'a Path>,
    /// Sets: who gets 1/2 for a plain draw.
    pub draw_advantage: &'a str,
    /// The SPRT spec.
    pub sprt: Option<&'a str>,
    /// `K/N`.
    pub shard: Option<&'a str>,
    /// The shard count when the index comes from the environment.
    pub shards: Option<u32>,
    /// Lateness allowed after the clock ran out, in milliseconds.
    pub time_margin: u64,
    /// Seconds past its time before an engine counts as hung.
    pub hang_timeout: f64,
}

/// The config a run's settings describe.
///
/// # Errors
///
/// A one-line message for the first bad setting.
pub fn config(a: &Options) -> Result<MatchConfig, String> {
    let variant = Variant::from_id(a.variant).map_err(|e| e.to_string())?;
    if a.players.len() != 2 {
        return Err(format!(
            "give exactly two --player (got {})",
            a.players.len()
        ));
    }
    let players = [
        PlayerSpec::parse(&a.players[0])?,
        PlayerSpec::parse(&a.players[1])?,
    ];
    let mut control = Control::default();
    if let Some(tc) = a.tc {
        let (b, i) = Control::parse_tc(tc)?;
        control.base = Some(b);
        control.inc = i;
    }
    if let Some(d) = a.depth
        && !(1..=64).contains(&d)
    {
        return Err(format!("--depth {d} is out of range (1 to 64)"));
    }
    control.depth = a.depth;
    control.nodes = a.nodes;
    control.movetime = a.movetime.map(Duration::from_millis);
    let openings = match a.openings {
        None if a.chess960 => openings::chess960(a.seed),
        path => openings::load(path, variant)?,
    };
    let mut config = MatchConfig::new(variant, players, control, openings);
    config.chess960 |= a.chess960;
    if let Some(n) = a.games {
        config.games = n;
    }
    config.tables = match a.rules {
        Some(path) => Tables::from_file(path).map_err(|e| e.to_string())?,
        None => Tables::default(),
    };
    config.draw_advantage = DrawAdvantage::parse(a.draw_advantage)?;
    config.sprt = a.sprt.map(str::parse::<SprtConfig>).transpose()?;
    config.shard = resolve_shard(a.shard, a.shards)?;
    config.time_margin = Duration::from_millis(a.time_margin);
    if !(a.hang_timeout.is_finite() && a.hang_timeout > 0.0 && a.hang_timeout < 1e6) {
        return Err("--hang-timeout must be a positive number of seconds".to_owned());
    }
    config.hang_timeout = Duration::from_secs_f64(a.hang_timeout);
    config.start_timeout = config.hang_timeout.max(super::player::START_TIMEOUT);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    config.concurrency = a
        .concurrency
        .unwrap_or_else(|| (cores / config.threads_per_game()).max(1));
    config.check(cores, a.oversubscribe)?;
    Ok(config)
}

/// The files of a run: every finished game is appended to the results
/// file and the PGN file (either optional); the errors of writing are
/// kept for the end of the run.
#[derive(Debug)]
pub struct RunFiles {
    results: Option<Mutex<Writer>>,
    pgn: Option<Mutex<File>>,
    errors: Mutex<Vec<String>>,
}

impl RunFiles {
    /// Opens the results file (`{shard}` replaced) and the PGN file of a
    /// run of `config`: a results file of the same experiment and shard
    /// is resumed: its games are returned.
    ///
    /// # Errors
    ///
    /// A one-line message: a file that cannot be opened, or a results file
    /// of another experiment or shard. A cut-short last line removed from
    /// the results file is told to `warn` first.
    pub fn open(
        config: &MatchConfig,
        results_path: Option<&Path>,
        pgn_path: Option<&Path>,
        warn: &dyn Fn(&str),
    ) -> Result<(RunFiles, Vec<GameRecord>), String> {
        let experiment = config.experiment();
        let header = Header {
            format: results::FORMAT,
            experiment: experiment.clone(),
            shard: config.shard,
        };
        let mut resumed = Vec::new();
        let results = match results_path {
            None => None,
            Some(path) => {
                let path = shard_path(path, config.shard);
                let opened = results::open(&path, &header)?;
                if let Some(w) = &opened.repaired {
                    warn(w);
                }
                if opened.header.experiment != experiment || opened.header.shard != config.shard {
                    return Err(format!(
                        "{} holds another experiment or shard: give another --results file to start afresh",
                        path.display()
                    ));
                }
                resumed = opened.games;
                Some(opened.writer)
            }
        };
        let pgn = match pgn_path {
            None => None,
            Some(path) => {
                let path = shard_path(path, config.shard);
                Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(&path)
                        .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
                )
            }
        };
        let files = RunFiles {
            results: results.map(Mutex::new),
            pgn: pgn.map(Mutex::new),
            errors: Mutex::new(Vec::new()),
        };
        Ok((files, resumed))
    }

    /// Appends a finished game to both files; an error is kept for
    /// [`RunFiles::errors`].
    pub fn write(&self, game: &GameRecord) {
        let mut errors = Vec::new();
        if let Some(w) = &self.results
            && let Ok(mut w) = w.lock()
            && let Err(e) = w.game(game)
        {
            errors.push(e);
        }
        if let Some(f) = &self.pgn
            && let Ok(mut f) = f.lock()
            && let Err(e) = f.write_all(game.pgn.as_bytes()).and_then(|()| f.flush())
        {
            errors.push(format!("cannot write the PGN file: {e}"));
        }
        if !errors.is_empty()
            && let Ok(mut all) = self.errors.lock()
        {
            all.extend(errors);
        }
    }

    /// The errors of writing so far, in order.
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().map(|e| e.clone()).unwrap_or_default()
    }
}
