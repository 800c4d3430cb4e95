//! A datagen run from the words of its command line: [`config`] checks
//! them and builds the [`Config`] and the [`Target`], choosing the opening
//! check and the adjudication from what is given over the variant's
//! defaults. `tally datagen` gives the words and prints.

use std::path::Path;
use std::sync::Arc;

use super::{Config, DEFAULT_DRAW, DEFAULT_WIN, DrawRule, Target, Verify, WinRule, load_openings};
use crate::matches::resolve_shard;
use crate::rules::{BoardKind, Variant};
use crate::scoring::{DrawAdvantage, Tables};

/// The settings of a datagen run as the command line words them (see
/// `tally datagen --help` for each).
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The variant id.
    pub variant: &'a str,
    /// Games in the whole run.
    pub games: Option<u64>,
    /// Positions in the whole run.
    pub positions: Option<u64>,
    /// Nodes per move.
    pub nodes: u64,
    /// The net to play with.
    pub net: Option<&'a Path>,
    /// Random plies before the searches start.
    pub random_plies: u32,
    /// An EPD file of start positions.
    pub openings: Option<&'a Path>,
    /// The seed.
    pub seed: u64,
    /// Chess960: without openings, games start from the 960 start
    /// positions (drawn by the seed).
    pub chess960: bool,
    /// Games at once (default: one per core).
    pub threads: Option<usize>,
    /// Hash table per game, in MiB.
    pub hash: usize,
    /// Nodes of the opening check (default: `nodes`).
    pub verify_nodes: Option<u64>,
    /// The opening check's bound, in internal units.
    pub max_opening_score: Option<i32>,
    /// No opening check.
    pub no_verify: bool,
    /// Win adjudication threshold.
    pub win_score: Option<i32>,
    /// Win adjudication plies (0: off).
    pub win_plies: Option<u32>,
    /// Draw adjudication threshold.
    pub draw_score: Option<i32>,
    /// Draw adjudication plies (0: off).
    pub draw_plies: Option<u32>,
    /// The first ply draw adjudication may count.
    pub draw_after: Option<u32>,
    /// No adjudication at all.
    pub no_adjudication: bool,
    /// A TOML rules file.
    pub rules: Option<&'a Path>,
    /// Sets: who gets 1/2 for a plain draw.
    pub draw_advantage: &'a str,
    /// `K/N`.
    pub shard: Option<&'a str>,
    /// The shard count when the index comes from the environment.
    pub shards: Option<u32>,
}

/// The config and target a run's settings describe.
///
/// # Errors
///
/// A one-line message for the first bad setting.
pub fn config(a: &Options) -> Result<(Config, Target), String> {
    let variant = Variant::from_id(a.variant).map_err(|e| e.to_string())?;
    let tables = match a.rules {
        Some(path) => Tables::from_file(path).map_err(|e| e.to_string())?,
        None => Tables::default(),
    };
    let mut c = Config::new(variant, tables);
    if a.nodes == 0 {
        return Err("--nodes must be at least 1".to_owned());
    }
    c.nodes = a.nodes;
    c.random_plies = a.random_plies;
    if let Some(path) = a.openings {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        c.openings =
            load_openings(&text, variant).map_err(|e| format!("{}: {e}", path.display()))?;
        if c.openings.is_empty() {
            return Err(format!("{}: no openings", path.display()));
        }
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
    c.draw_advantage = DrawAdvantage::parse(a.draw_advantage)?;
    c.shard = resolve_shard(a.shard, a.shards)?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    c.threads = a.threads.unwrap_or(cores).max(1);
    if let Some(path) = a.net {
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
