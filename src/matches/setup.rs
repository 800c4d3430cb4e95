//! A match run from the words of its command line: [`Options`] are the
//! arguments of `tally match` (clap parses them here), [`config`] checks
//! them and builds the [`MatchConfig`]; [`RunFiles`] are the results file
//! (resumed when it holds the same experiment) and the PGN file every
//! finished game is appended to. `tally match` runs it and prints; the
//! checks and the files are here.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use super::results::{self, Header, Writer};
use super::{Control, GameRecord, MatchConfig, PlayerSpec, SprtConfig, Tournament, openings};
use crate::contest::{self, Format, Seat};
use crate::rules::Variant;
use crate::shard::{resolve_shard, shard_path};
use crate::variant_args::{VariantArgs, variant_help};

/// The settings of a match run as the command line words them: the
/// arguments of `tally match` (whose `--help` these comments are). `json`
/// and `quiet` say how the command prints and are not read here; the
/// results and PGN files are opened by [`RunFiles::open`].
#[derive(Clone, Debug, clap::Args)]
#[command(
    mut_arg("variant", |a| a.help(variant_help(" (default: chess; dynamic with --format tiebreak-match)"))),
    mut_arg("draw_advantage", |a| a.help(
        "Sets: who gets 1/2 for a plain draw (black, white or none; default black). In a sets \
         contest (--format) the draw advantage is a player's instead: see --colour-chooser",
    )),
)]
pub struct Options {
    /// The variant (chess by default; dynamic with --format
    /// tiebreak-match), the rules file and the draw advantage (black by
    /// default; in a sets contest a player's instead: --colour-chooser).
    #[command(flatten)]
    pub variant_args: VariantArgs,
    /// Chess960: without --openings the openings are the 960 start
    /// positions in the order --seed shuffles them (1920 games unless
    /// --games says); every engine gets UCI_Chess960 and castling goes as
    /// king takes rook. On by itself for openings with Chess960 castling
    /// rights.
    #[arg(long)]
    pub chess960: bool,
    /// The seed of the Chess960 openings' order.
    #[arg(long, default_value_t = 1, requires = "chess960")]
    pub seed: u64,
    /// A player, twice for a match, more for a tournament: key=value
    /// words. Tally: name=, eval=variant|untuned|base|nnue,
    /// hash=, threads=, specials=on|off, depth=, nodes=, movetime=,
    /// option.NAME=VALUE. An external UCI engine: cmd=PROGRAM (arg=...
    /// repeatable), name=, option.NAME=VALUE (sent as setoption), threads=,
    /// hash=, depth=, nodes=, movetime=. Quote values with spaces.
    #[arg(long = "player", short = 'p', value_name = "SPEC")]
    pub players: Vec<String>,
    /// Time control BASE[+INC] in seconds per side, like 10+0.1.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Openings: an EPD file (one position a line) or a PGN file (the
    /// position after each game's moves); default: the shipped
    /// positions/openings.epd (40 openings), for extinction
    /// positions/openings-extinction.epd (110 openings balanced under its
    /// rules).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games of each pairing (of the whole match, in a two-player match;
    /// all shards); default: every opening twice, colours reversed. With
    /// --format, a multiple of the format's games: that many games' worth
    /// of contests.
    #[arg(long, short = 'n')]
    pub games: Option<usize>,
    /// A tournament: round-robin (every player against every other) or
    /// gauntlet (the first player against each of the others); each
    /// pairing plays the same openings, --games games. Default with more
    /// than two players: round-robin.
    #[arg(long, value_name = "KIND")]
    pub tournament: Option<String>,
    /// Each pairing plays contests of FORMAT: series:N (N games, colours
    /// alternating, points summed by player) or tiebreak-match:N[,cap=K]
    /// (N games of dynamic; while tied, up to K games of tiebraker, 4 by
    /// default). See docs/rules.md, Contests.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Contests of each pairing with --format (all shards); default:
    /// enough for the regular games to play every opening twice.
    #[arg(long, value_name = "N", requires = "format", conflicts_with = "games")]
    pub contests: Option<usize>,
    /// With --format: whether a resignation (a forfeit, a loss on time)
    /// ends the contest, the resigning player losing it whatever the sums
    /// (on or off; default: on in stylish, as its rules say, off
    /// otherwise).
    #[arg(long, value_name = "ON|OFF", requires = "format")]
    pub resignation_ends: Option<String>,
    /// With --format in sets: who chose colour for game 1 of each contest
    /// (first: the player White in it, who chose White; second: the other,
    /// who chose Black; none); the other player holds the draw advantage
    /// in every game of the contest, whatever its colour. Default: first.
    #[arg(long, value_name = "WHO", requires = "format")]
    pub colour_chooser: Option<String>,
    /// Games played at once (default: cores / threads per game).
    #[arg(long, short = 'c')]
    pub concurrency: Option<usize>,
    /// Allow more search threads in all than cores.
    #[arg(long)]
    pub oversubscribe: bool,
    /// Append every finished game as PGN (awards as comments) to FILE; a
    /// `{shard}` in the name becomes K-of-N.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Results file (JSON Lines): every finished game is appended; an
    /// existing file of the same experiment is resumed (a cut-short last
    /// line is removed first); one run at a time may use a file (it is
    /// locked); a `{shard}` in the name becomes K-of-N.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Stop early on a sequential probability ratio test over the game
    /// pairs (pentanomial): elo0=E0,elo1=E1[,alpha=0.05,beta=0.05,
    /// model=logistic|normalized,min_pairs=100] (the bounds' Elo scale,
    /// logistic by default; no decision before min_pairs game pairs).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Play only shard K of N: the game pairs j (games 2j and 2j+1, one
    /// opening) with j % N == K-1.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The shard count when the shard index comes from the environment
    /// (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Print the summary as JSON (no progress bar).
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Sets, two players: play with the handicap of a gap of D Elo (the
    /// handicap table of docs/rules.md) given to the --weaker player: in
    /// each game every value paid to it counts the table's factor times,
    /// whatever its colour, and it holds the draw advantage; Tally players
    /// play to the handicapped values. Needs --weaker-elo.
    #[arg(long, value_name = "D", requires_all = ["weaker", "weaker_elo"])]
    pub handicap: Option<u32>,
    /// With --handicap: the weaker player's rating (`UCI_Elo` scale): the
    /// handicap of a gap depends on it (docs/rules.md, sets, Handicap).
    #[arg(long, value_name = "ELO", requires = "handicap")]
    pub weaker_elo: Option<u32>,
    /// With --handicap (or a rules file's [sets.handicap]): the weaker
    /// player, by name (name=, or the default name), whose colour in each
    /// game the handicap follows.
    #[arg(long, value_name = "NAME")]
    pub weaker: Option<String>,
    /// Play each opening once, colours alternating from one opening to the
    /// next, instead of twice with colours reversed (for the same
    /// deterministic engine on both sides, whose reversed game would
    /// repeat the first); default --games: one per opening.
    #[arg(long, conflicts_with = "format")]
    pub no_reverse: bool,
    /// How late a move may arrive after its clock ran out, in milliseconds.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub time_margin: u64,
    /// Seconds past its time an engine may stay silent before it counts as
    /// hung (the whole wait with fixed depth or nodes); also its time to
    /// start, at least 10 s.
    #[arg(long, default_value_t = 30.0, value_name = "SECS")]
    pub hang_timeout: f64,
}

/// The config a run's settings describe.
///
/// # Errors
///
/// A one-line message for the first bad setting.
pub fn config(a: &Options) -> Result<MatchConfig, String> {
    let format = a
        .format
        .as_deref()
        .map(|f| f.parse::<Format>().map_err(|e| format!("--format: {e}")))
        .transpose()?;
    let variant = match (a.variant_args.variant, format) {
        (Some(v), _) => v,
        (None, Some(f)) => f.fixed_variant().unwrap_or_default(),
        (None, None) => Variant::Chess,
    };
    if a.players.len() < 2 {
        return Err(format!(
            "give two --player for a match, or more for a tournament (got {})",
            a.players.len()
        ));
    }
    let players = a
        .players
        .iter()
        .map(|p| PlayerSpec::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let tournament = match &a.tournament {
        Some(t) => Some(Tournament::parse(t)?),
        None if players.len() > 2 => Some(Tournament::RoundRobin),
        None => None,
    };
    let mut control = Control::default();
    if let Some(tc) = &a.tc {
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
    let openings = match a.openings.as_deref() {
        None if a.chess960 => openings::chess960(a.seed),
        path => openings::load(path, variant)?,
    };
    let mut config = MatchConfig::new(variant, players, control, openings);
    config.chess960 |= a.chess960;
    config.tournament = tournament;
    if let Some(format) = format {
        let rules = contest_rules(a, format, variant)?;
        let n = format.games() as usize;
        config.contests = match (a.contests, a.games) {
            (Some(c), _) => c,
            (None, Some(g)) if g % n == 0 => g / n,
            (None, Some(g)) => {
                return Err(format!(
                    "--games {g} with --format {format}: give a multiple of {n} (or --contests)"
                ));
            }
            (None, None) => (2 * config.openings.len().max(1)).div_ceil(n),
        };
        config.contest = Some(rules);
    } else if let Some(n) = a.games {
        config.games = n;
    } else if a.no_reverse {
        config.games = config.openings.len();
    }
    config.no_reverse = a.no_reverse;
    config.tables = a.variant_args.tables()?;
    if let (Some(gap), Some(weaker_elo)) = (a.handicap, a.weaker_elo) {
        let g = crate::scoring::variants::sets::HandicapGap { gap, weaker_elo };
        config.tables = config
            .tables
            .with_handicap(g, shakmaty::Color::Black)
            .map_err(|e| format!("--handicap {gap}: {e}"))?;
    }
    if let Some(name) = &a.weaker {
        config.weaker = Some(weaker_player(a, &config, name)?);
    }
    if let Some(d) = a.variant_args.draw_advantage {
        if config.contest.is_some() && variant == Variant::Sets {
            return Err(
                "--draw-advantage gives it to a colour; in a sets contest it is a player's: use --colour-chooser"
                    .to_owned(),
            );
        }
        config.draw_advantage = d;
    }
    config.sprt = a
        .sprt
        .as_deref()
        .map(str::parse::<SprtConfig>)
        .transpose()?;
    config.shard = resolve_shard(a.shard.as_deref(), a.shards)?;
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

/// The number of the `--weaker` player `name` of a sets match with a
/// handicap, after checking that the handicap can follow it.
fn weaker_player(a: &Options, config: &MatchConfig, name: &str) -> Result<usize, String> {
    let shown = crate::text::printable(name.trim());
    if config.variant != Variant::Sets {
        return Err(format!(
            "--weaker: the handicap is a sets handicap (the variant is {})",
            config.variant
        ));
    }
    if config.tables.sets.handicap.is_none() {
        return Err(
            "--weaker: no handicap to give (--handicap D, or a rules file's [sets.handicap])"
                .to_owned(),
        );
    }
    if config.players.len() != 2 || config.tournament.is_some() {
        return Err("--weaker: a handicap is between two players: leave out --tournament and give two --player".to_owned());
    }
    if config.contest.is_some() {
        return Err("--weaker: a handicap goes with single games; in a sets contest the draw advantage is the contest's (leave out --format)".to_owned());
    }
    if a.variant_args.draw_advantage.is_some() {
        return Err(
            "--draw-advantage: under the handicap the weaker player holds the draw advantage"
                .to_owned(),
        );
    }
    let found: Vec<usize> = (0..config.players.len())
        .filter(|&i| config.players[i].default_name() == name.trim())
        .collect();
    match found[..] {
        [i] => Ok(i),
        [] => Err(format!(
            "--weaker '{shown}': no player of that name (give name= in the player)"
        )),
        _ => Err(format!(
            "--weaker '{shown}': two players have that name (give each a name=)"
        )),
    }
}

/// The contests' rules of a run with `--format`: the format in the
/// variant, with the resignation switch and the colour chooser as given.
fn contest_rules(a: &Options, format: Format, variant: Variant) -> Result<contest::Rules, String> {
    let mut rules = contest::Rules::new(format, variant).map_err(|e| format!("--format: {e}"))?;
    if let Some(v) = &a.resignation_ends {
        rules.resignation_ends = contest::switch(v).ok_or_else(|| {
            format!(
                "--resignation-ends '{}': expected on or off",
                crate::text::printable(v.trim())
            )
        })?;
    }
    if let Some(who) = &a.colour_chooser {
        if variant != Variant::Sets {
            return Err(format!(
                "--colour-chooser: only sets has a draw advantage to hold (the variant is {variant})"
            ));
        }
        rules.chooser = match who.trim() {
            "none" => None,
            w => Some(Seat::from_name(w).ok_or_else(|| {
                format!(
                    "--colour-chooser '{}': expected first, second or none",
                    crate::text::printable(w)
                )
            })?),
        };
    }
    Ok(rules)
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
