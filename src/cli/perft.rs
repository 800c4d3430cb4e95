//! `tally perft`: node counts through the rules layer, split across cores.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::CliError;
use crate::rules::{Game, Node, Pos, Rules, Variant, fen_needs_chess960, perft, perft_divide};
use crate::variant_args::{parse_variant, variant_help};
use crate::with_game;

/// Arguments of `tally perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant (chess by default).
    #[arg(long, short = 'v', value_parser = parse_variant, default_value = "chess", help = variant_help(""))]
    pub variant: Variant,
    /// Start position (FEN); the standard position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Actions to play from the start position first (UCI moves or special
    /// words, space separated).
    #[arg(long)]
    pub moves: Option<String>,
    /// Depth in plies, 0 to 20 (deeper trees cannot be counted).
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Print `action: count` for each root action.
    #[arg(long)]
    pub divide: bool,
    /// Chess960: X-FEN or Shredder-FEN castling rights, castling written
    /// as king takes rook (on by itself for a FEN whose castling rights
    /// only Chess960 reads).
    #[arg(long)]
    pub chess960: bool,
}

/// Runs `tally perft`.
///
/// # Errors
///
/// Bad variant, FEN, action or depth (past
/// [`MAX_PERFT_DEPTH`](crate::rules::MAX_PERFT_DEPTH)): a [`CliError`] with
/// exit code 2.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let variant = args.variant;
    let chess960 = args.chess960 || args.fen.as_deref().is_some_and(fen_needs_chess960);
    with_game!(crate::rules::AnyRules::of(variant), |rules| run_with(
        &rules.with_chess960(chess960),
        args
    ))
}

fn run_with<P: Pos>(rules: &Rules<P>, args: &PerftArgs) -> Result<(), CliError> {
    let root = start_node(rules, args.fen.as_deref(), args.moves.as_deref())?;
    let started = Instant::now();
    let entries = perft_divide(rules, &root, args.depth)?;
    let total: u64 = if args.depth == 0 {
        perft(rules, &root, 0)?
    } else {
        entries.iter().map(|e| e.nodes).sum()
    };
    let elapsed = started.elapsed();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.divide {
        for e in &entries {
            let _ = writeln!(out, "{}: {}", rules.text(e.action), e.nodes);
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "Nodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        eprintln!(
            "perft {}: {:.3} s, {:.0} nodes/s",
            args.depth,
            secs,
            total as f64 / secs
        );
    }
    Ok(())
}

/// The node after `moves` from `fen` (or the start position).
pub(crate) fn start_node<P: Pos>(
    rules: &Rules<P>,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Node<P>, CliError> {
    let mut game = Game::new(*rules, fen)?;
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        game.play_text(text)
            .map_err(|e| CliError::bad_input(format!("action {} ('{text}'): {e}", i + 1)))?;
    }
    Ok(game.current().clone())
}
