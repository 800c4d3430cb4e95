//! A datagen run from the words of its command line: [`Options`] are the
//! arguments of `tally datagen` (clap parses them here), [`config`] checks
//! them and builds the [`Config`] and the [`Target`], choosing the opening
//! check and the adjudication from what is given over the variant's
//! defaults. `tally datagen` runs it and prints.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Config, DEFAULT_DRAW, DEFAULT_WIN, DrawRule, Target, Verify, WinRule, load_openings};
use crate::rules::{BoardKind, Variant};
use crate::shard::resolve_shard;
use crate::variant_args::VariantArgs;

/// The settings of a datagen run as the command line words them: the
/// arguments of `tally datagen` (whose `--help` these comments are), but
/// the progress bar's.
#[derive(Clone, Debug, clap::Args)]
#[command(
    mut_arg("variant", |a| a.default_value("chess")),
    mut_arg("draw_advantage", |a| a.default_value("black")),
)]
pub struct Options {
    /// The variant (chess by default), the rules file and the draw
    /// advantage (black by default).
    #[command(flatten)]
    pub variant_args: VariantArgs,
    /// The data file; a `{shard}` in the name becomes K-of-N. An existing
    /// file of the same settings is resumed.
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Games in the whole run (all shards).
    #[arg(long, short = 'n', conflicts_with = "positions")]
    pub games: Option<u64>,
    /// Positions in the whole run, split evenly between the shards.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes per move: with --soft-nodes, the hard cap of a move.
    #[arg(long, default_value_t = super::DEFAULT_NODES)]
    pub nodes: u64,
    /// No new iteration of a move's search after this many nodes (at
    /// most --nodes, which stays the hard cap; e.g. --soft-nodes 5000
    /// --nodes 50000): quiet positions take fewer nodes, sharp ones more.
    /// Default: a fixed --nodes a move.
    #[arg(long, value_name = "N")]
    pub soft_nodes: Option<u64>,
    /// Play with this net (from `tally train`; EvalMode nnue) instead of
    /// the built-in evaluation: the data of the net's next generation. A
    /// net of the variant's board (the scoring variants: a chess net).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Random plies (chess moves) before the searches start.
    #[arg(long, default_value_t = super::DEFAULT_RANDOM_PLIES, value_name = "N")]
    pub random_plies: u32,
    /// Start positions (EPD), one drawn at random per game; default: the
    /// standard position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Chess960: without --openings, each game starts from one of the 960
    /// start positions (drawn by the seed); castling as Chess960 castles.
    #[arg(long)]
    pub chess960: bool,
    /// The seed: the same seed and settings give the same file.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table per game, in MiB.
    #[arg(long, default_value_t = 4, value_name = "MB")]
    pub hash: usize,
    /// Nodes of the opening check's search (default: --nodes).
    #[arg(long, value_name = "N")]
    pub verify_nodes: Option<u64>,
    /// Drop an opening whose check scores beyond this, in internal units
    /// (100 a pawn); default 300 where wins are decided on the board (all
    /// but stylish and wacky, where giving it turns the check on).
    #[arg(long, value_name = "UNITS")]
    pub max_opening_score: Option<i32>,
    /// No opening check.
    #[arg(long, conflicts_with = "max_opening_score")]
    pub no_verify: bool,
    /// Win adjudication threshold, in internal units (default 900).
    #[arg(long, value_name = "UNITS")]
    pub win_score: Option<i32>,
    /// Consecutive plies beyond --win-score that adjudicate a win (default
    /// 6; 0 turns win adjudication off).
    #[arg(long, value_name = "N")]
    pub win_plies: Option<u32>,
    /// Draw adjudication threshold, in internal units (default 20).
    #[arg(long, value_name = "UNITS")]
    pub draw_score: Option<i32>,
    /// Consecutive plies within --draw-score that adjudicate a draw
    /// (default 12; 0 turns draw adjudication off).
    #[arg(long, value_name = "N")]
    pub draw_plies: Option<u32>,
    /// The first ply at which draw adjudication may count (default 80).
    #[arg(long, value_name = "PLY")]
    pub draw_after: Option<u32>,
    /// No adjudication: every game ends by the rules.
    #[arg(long)]
    pub no_adjudication: bool,
    /// Play only shard K of N (game i when i % N == K-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The shard count when the shard index comes from the environment
    /// (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
}

/// The openings of an EPD file, each checked under `variant`
/// ([`load_openings`]), read as `tally match` reads an EPD file: bytes that
/// are not UTF-8 (a Latin-1 comment) do not refuse the file.
///
/// # Errors
///
/// A message naming the file: unreadable, a bad line, or no openings.
pub fn read_openings(path: &std::path::Path, variant: Variant) -> Result<Vec<String>, String> {
    let bytes = crate::files::read_input(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let openings = load_openings(&text, variant).map_err(|e| format!("{}: {e}", path.display()))?;
    if openings.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(openings)
}

/// The config and target a run's settings describe.
///
/// # Errors
///
/// A one-line message for the first bad setting.
pub fn config(a: &Options) -> Result<(Config, Target), String> {
    let variant = a.variant_args.variant.unwrap_or_default();
    let tables = a.variant_args.tables()?;
    let mut c = Config::new(variant, tables);
    if a.nodes == 0 {
        return Err("--nodes must be at least 1".to_owned());
    }
    c.nodes = a.nodes;
    c.soft_nodes = match a.soft_nodes {
        Some(0) => return Err("--soft-nodes must be at least 1".to_owned()),
        Some(n) if n > a.nodes => {
            return Err(format!(
                "--soft-nodes {n} is above --nodes {} (the hard cap); raise --nodes",
                a.nodes
            ));
        }
        n => n,
    };
    c.random_plies = a.random_plies;
    if let Some(path) = &a.openings {
        c.openings = read_openings(path, variant)?;
    }
    c.seed = a.seed;
    c.chess960 = a.chess960;
    c.hash_mb = a.hash.max(1);
    c.verify = match (a.no_verify, a.max_opening_score, c.verify) {
        (true, _, _) => None,
        (false, Some(s), _) => Some(Verify {
            nodes: 0,
            max_score: s.max(0),
        }),
        (false, None, v) => v,
    }
    .map(|v| Verify {
        nodes: a.verify_nodes.unwrap_or(c.nodes).max(1),
        ..v
    });
    let given = |x: Option<u32>, y: Option<i32>| x.is_some() || y.is_some();
    c.win = if a.no_adjudication || a.win_plies == Some(0) {
        None
    } else if c.win.is_some() || given(a.win_plies, a.win_score) {
        Some(WinRule {
            score: a.win_score.unwrap_or(DEFAULT_WIN.score),
            plies: a.win_plies.unwrap_or(DEFAULT_WIN.plies),
        })
    } else {
        None
    };
    c.draw = if a.no_adjudication || a.draw_plies == Some(0) {
        None
    } else if c.draw.is_some() || given(a.draw_plies, a.draw_score) || a.draw_after.is_some() {
        Some(DrawRule {
            score: a.draw_score.unwrap_or(DEFAULT_DRAW.score),
            plies: a.draw_plies.unwrap_or(DEFAULT_DRAW.plies),
            after: a.draw_after.unwrap_or(DEFAULT_DRAW.after),
        })
    } else {
        None
    };
    c.draw_advantage = a.variant_args.draw_advantage.unwrap_or_default();
    c.shard = resolve_shard(a.shard.as_deref(), a.shards)?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    c.threads = match a.threads {
        Some(n) => {
            crate::search::check_threads(n)?;
            n
        }
        None => cores.clamp(1, crate::search::MAX_THREADS),
    };
    if let Some(path) = &a.net {
        let net = crate::nnue::format::load(path)?;
        let board = BoardKind::of(variant);
        if net.board() != board {
            return Err(format!(
                "--net: {} is a net for the {} board; {variant} is played on the {} board",
                net.name(),
                net.board().name(),
                board.name()
            ));
        }
        c.net = Some(Arc::new(net));
    }
    let target = match (a.games, a.positions) {
        (Some(g), _) => Target::Games(g),
        (None, Some(p)) => Target::Positions(p),
        (None, None) => return Err("give --games N or --positions N".to_owned()),
    };
    Ok((c, target))
}
