//! What an analysis starts from, as `tally analyse` words it: its
//! [`Options`] and the [`Session`] they set up, the search
//! limits with their defaults ([`limits`]), the variant from the option or
//! the PGN's tag ([`variant_of`]), the position from a FEN and actions
//! ([`set_position`]) or after the first plies of a game
//! ([`moves_to_ply`]). Each error is one line.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Engine, EngineOptions};
use crate::eval::EvalMode;
use crate::files::open_input;
use crate::pgn::{PgnGame, nth_game, variant_of_tag};
use crate::referee::GameInput;
use crate::rules::{Variant, fen_needs_chess960};
use crate::search::Limits;
use crate::variant_args::{OVER_THE_TAG, VariantArgs, variant_help};

/// The options of `tally analyse` that say what is analysed and how (whose
/// `--help` these comments are); the outputs are the command's.
#[derive(Clone, Debug, clap::Args)]
#[command(
    mut_arg("variant", |a| a.help(variant_help(OVER_THE_TAG))),
    mut_arg("draw_advantage", |a| a.default_value("black")),
)]
pub struct Options {
    /// The variant (over a PGN's Variant tag; without either, chess), the
    /// rules file and the draw advantage (black by default).
    #[command(flatten)]
    pub variant_args: VariantArgs,
    /// Chess960 castling: X-FEN or Shredder-FEN castling rights, castling
    /// as king takes rook. A FEN, or a PGN whose Variant tag or FEN, says
    /// Chess960 is read so without it.
    #[arg(long)]
    pub chess960: bool,
    /// The position to rank (FEN); the standard position by default.
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Actions to play before ranking (UCI moves and special words, space
    /// separated).
    #[arg(long, conflicts_with = "pgn")]
    pub moves: Option<String>,
    /// A PGN file. With --ply: rank the position after that many plies of
    /// game --game. Without: analyse the whole game (annotated PGN, --html,
    /// --svg).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Which game of the PGN file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,
    /// With --pgn: rank the position after this many plies instead of
    /// analysing the whole game.
    #[arg(long, value_name = "K", requires = "pgn")]
    pub ply: Option<usize>,
    /// Search depth per position. Without --depth, --movetime or --nodes:
    /// 2000 ms for a position, 400 ms for each position of a whole game.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search time per position, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads (default: one per core). With --depth or --nodes
    /// alone, --threads 1 gives the same answer every time.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB")]
    pub hash: usize,
    /// Evaluator: variant, untuned, base or nnue (default: nnue with --net, else
    /// variant).
    #[arg(long)]
    pub eval: Option<String>,
    /// The net of the nnue evaluator (a `tally train` file).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
}

/// What an analysis starts from: the engine, the limits of each search,
/// and the PGN's game when one was given.
#[derive(Debug)]
pub struct Session {
    /// The engine, its variant and options set.
    pub engine: Engine,
    /// The limits of each search.
    pub limits: Limits,
    /// Game `--game` of the `--pgn` file.
    pub game: Option<PgnGame>,
}

impl Options {
    /// Whether a whole game is analysed (`--pgn` without `--ply`).
    pub fn whole_game(&self) -> bool {
        self.pgn.is_some() && self.ply.is_none()
    }

    /// Checks the options, reads the PGN's game and builds the engine.
    ///
    /// # Errors
    ///
    /// The first bad option or unreadable file, one line.
    pub fn session(&self) -> Result<Session, String> {
        let limits = limits(self.depth, self.nodes, self.movetime, self.whole_game())?;
        let tables = self.variant_args.tables()?;
        let draw_advantage = self.variant_args.draw_advantage.unwrap_or_default();
        let eval_mode = match &self.eval {
            Some(text) => EvalMode::parse(text).ok_or_else(|| {
                format!(
                    "--eval '{}': expected variant, untuned, base or nnue",
                    text.trim()
                )
            })?,
            None if self.net.is_some() => EvalMode::Nnue,
            None => EvalMode::Variant,
        };
        let net = match &self.net {
            Some(path) => Some(Arc::new(crate::nnue::format::load(path)?)),
            None => None,
        };
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(crate::search::MAX_THREADS)
        });
        crate::search::check_threads(threads)?;
        let max_hash = crate::search::MAX_HASH_MB;
        if !(1..=max_hash).contains(&self.hash) {
            return Err(format!(
                "--hash {} is out of range (1 to {max_hash} MiB)",
                self.hash
            ));
        }
        let game = match &self.pgn {
            Some(path) => Some(nth_game(
                open_input(path)?,
                self.game,
                &path.display().to_string(),
            )?),
            None => None,
        };
        let variant = variant_of(
            self.variant_args.variant.map(Variant::id),
            game.as_ref().and_then(|g| g.variant.as_deref()),
        )?;
        let options = EngineOptions {
            hash_mb: self.hash,
            threads,
            specials: true,
            chess960: self.chess960 || self.fen.as_deref().is_some_and(fen_needs_chess960),
            draw_advantage,
            eval_mode,
            net,
            tables,
            ..EngineOptions::default()
        };
        Ok(Session {
            engine: Engine::with_options(variant, options),
            limits,
            game,
        })
    }

    /// Sets `engine` to the position ranked: the one after `--ply` plies
    /// of `game`, or `--fen` and `--moves`.
    ///
    /// # Errors
    ///
    /// As [`moves_to_ply`] and [`set_position`].
    pub fn set_ranked(&self, engine: &mut Engine, game: Option<&PgnGame>) -> Result<(), String> {
        match (game, self.ply) {
            (Some(g), Some(k)) => {
                let (fen, moves) = moves_to_ply(engine, &g.input, k, self.game)?;
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                set_position(engine, Some(&fen), &moves)
            }
            _ => {
                let moves: Vec<&str> = self
                    .moves
                    .as_deref()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect();
                set_position(engine, self.fen.as_deref(), &moves)
            }
        }
    }
}

/// The search time of a position when no limit is given, in milliseconds:
/// a considered answer, in the time a user waits for one.
pub const DEFAULT_POSITION_MS: u64 = 2000;
/// The search time of each position of a whole game when no limit is
/// given, in milliseconds (up to two searches a ply: a game of 80 plies
/// takes about a minute).
pub const DEFAULT_GAME_MS: u64 = 400;

/// The limits of each search: those given, or without any
/// [`DEFAULT_GAME_MS`] for a whole game and [`DEFAULT_POSITION_MS`] for a
/// position.
///
/// # Errors
///
/// A depth outside 1 to 64.
pub fn limits(
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    whole_game: bool,
) -> Result<Limits, String> {
    if let Some(d) = depth
        && !(1..=64).contains(&d)
    {
        return Err(format!("--depth {d} is out of range (1 to 64)"));
    }
    if nodes == Some(0) || movetime_ms == Some(0) {
        return Err("--nodes and --movetime must be at least 1".to_owned());
    }
    let mut limits = Limits {
        depth,
        nodes,
        movetime: movetime_ms.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        let ms = if whole_game {
            DEFAULT_GAME_MS
        } else {
            DEFAULT_POSITION_MS
        };
        limits.movetime = Some(Duration::from_millis(ms));
    }
    Ok(limits)
}

/// The variant analysed: the one given, else the one the PGN's `Variant`
/// tag names, else chess.
///
/// # Errors
///
/// An unknown variant id or tag.
pub fn variant_of(given: Option<&str>, tag: Option<&str>) -> Result<Variant, String> {
    match (given, tag) {
        (Some(v), _) => Variant::from_id(v).map_err(|e| e.to_string()),
        (None, Some(tag)) => variant_of_tag(tag)
            .ok_or_else(|| format!("unknown variant '{tag}' in the Variant tag (give --variant)")),
        (None, None) => Ok(Variant::Chess),
    }
}

/// The warning printed when a PGN's game is analysed as chess only
/// because neither `-v` nor a `Variant` tag names a variant: a GUI's PGN
/// of a scoring-variant game usually has no such tag, and chess would
/// rank its moves by other points without a word.
pub fn chess_fallback_warning(given: Option<Variant>, game: Option<&PgnGame>) -> Option<String> {
    match (given, game) {
        (None, Some(g)) if g.variant.is_none() => Some(
            "the game has no Variant tag and no -v was given: it is analysed as chess; \
             for a scoring variant give -v stylish, wacky, sets, dynamic, tiebraker or extinction"
                .to_owned(),
        ),
        _ => None,
    }
}

/// Sets the engine's position: `fen` (the start without one), then
/// `moves`.
///
/// # Errors
///
/// A bad FEN, or the first action that cannot be played (`action N
/// ('text'): why`).
pub fn set_position(engine: &mut Engine, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
    engine.set_position(fen, moves).map_err(|e| {
        if e.bad_fen {
            e.error.to_string()
        } else {
            format!(
                "action {} ('{}'): {}",
                e.applied + 1,
                moves.get(e.applied).unwrap_or(&""),
                e.error
            )
        }
    })
}

/// The start position and the first `k` actions of game number `game`
/// (its recorded result set aside), to rank the position after them.
///
/// # Errors
///
/// A game that cannot be scored, or one shorter than `k` plies.
pub fn moves_to_ply(
    engine: &mut Engine,
    input: &GameInput,
    k: usize,
    game: usize,
) -> Result<(String, Vec<String>), String> {
    let input = GameInput {
        result: None,
        ..input.clone()
    };
    let record = super::score_for(engine, &input).map_err(|e| format!("game {game}: {e}"))?;
    if k > record.plies.len() {
        return Err(format!(
            "--ply {k}: game {game} has {} plies",
            record.plies.len()
        ));
    }
    let moves = record.plies[..k]
        .iter()
        .map(|p| p.action.to_string())
        .collect();
    Ok((record.start_fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_limit_a_position_gets_two_seconds_and_a_game_less_a_ply() {
        let position = limits(None, None, None, false).expect("limits");
        assert_eq!(position.movetime, Some(Duration::from_millis(2000)));
        assert_eq!((position.depth, position.nodes), (None, None));
        let game = limits(None, None, None, true).expect("limits");
        assert_eq!(game.movetime, Some(Duration::from_millis(400)));
        // A limit given replaces the default.
        let deep = limits(Some(9), None, None, true).expect("limits");
        assert_eq!((deep.depth, deep.movetime), (Some(9), None));
        assert_eq!(
            limits(Some(0), None, None, false).unwrap_err(),
            "--depth 0 is out of range (1 to 64)"
        );
    }

    #[test]
    fn chess_is_a_fallback_only_warned_of_without_tag_or_option() {
        let game = |tag: Option<&str>| PgnGame {
            variant: tag.map(str::to_owned),
            ..nth_game("1. e4 e5 *\n".as_bytes(), 1, "test").unwrap()
        };
        let warning = chess_fallback_warning(None, Some(&game(None))).unwrap();
        assert!(warning.contains("no Variant tag") && warning.contains("-v stylish"));
        assert_eq!(
            chess_fallback_warning(Some(Variant::Chess), Some(&game(None))),
            None
        );
        assert_eq!(
            chess_fallback_warning(None, Some(&game(Some("stylish")))),
            None
        );
        assert_eq!(chess_fallback_warning(None, None), None);
    }

    #[test]
    fn the_variant_given_outranks_the_tag() {
        assert_eq!(variant_of(Some("wacky"), Some("sets")), Ok(Variant::Wacky));
        assert_eq!(variant_of(None, None), Ok(Variant::Chess));
        assert!(
            variant_of(None, Some("no such"))
                .unwrap_err()
                .contains("in the Variant tag")
        );
    }
}
