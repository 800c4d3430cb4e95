//! The text of the `d` and `eval` commands (plain lines, as other engines
//! print them, not `info` lines). `d` ends with the endgame tables' WDL
//! and DTZ of the position where the search would probe them.

use shakmaty::{Color, File, Rank, Square};

use crate::engine::Engine;
use crate::rules::{Bare, Disk, Game, Pos};

fn side(c: Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

/// The tiebraker disk state in words.
fn describe_disk(d: Disk) -> String {
    match d {
        Disk::None => "none".to_owned(),
        Disk::Offered { by } => format!("offered by {} (its king is the disk)", side(by)),
        Disk::Accepted { disk } => format!("accepted, {}'s king is the disk", side(disk)),
        Disk::Swapped { disk, plies } => {
            format!(
                "swapped, {}'s king is the disk, {plies} plies since",
                side(disk)
            )
        }
        Disk::Restored { first } => format!("restored against {}", side(first)),
    }
}

/// The sets bare-king state in words.
fn describe_bare(b: Bare) -> String {
    match b {
        Bare::None => "none".to_owned(),
        Bare::Reply { barer } => format!("{} bared the other king, reply pending", side(barer)),
        Bare::Claim { barer } => format!("{} may claim", side(barer)),
        Bare::Done => "over (no claim possible)".to_owned(),
        Bare::Mutual { first } => format!("mutual, {} bared first", side(first)),
        Bare::Claimed { barer } => format!("claimed by {}", side(barer)),
    }
}

/// The lines of `d`: board, FEN, key, variant and its state, legal actions,
/// ending, points so far.
pub(super) fn position(engine: &Engine) -> Vec<String> {
    crate::with_game!(engine.game(), |g| position_of(engine, g))
}

fn position_of<P: Pos>(engine: &Engine, game: &Game<P>) -> Vec<String> {
    let node = game.current();
    let board = node.pos.board();
    let disk_king = node
        .extra
        .disk
        .disk_holder()
        .and_then(|c| (board.kings() & board.by_color(c)).first());
    let mut out = vec![String::new()];
    let rule = " +---+---+---+---+---+---+---+---+";
    out.push(rule.to_owned());
    for rank in Rank::ALL.iter().rev() {
        let mut row = String::from(" |");
        for file in File::ALL {
            let sq = Square::from_coords(file, *rank);
            let c = match board.piece_at(sq) {
                // A disk is shown as `D` / `d`.
                Some(p) if Some(sq) == disk_king => {
                    if p.color.is_white() {
                        'D'
                    } else {
                        'd'
                    }
                }
                Some(p) => p.char(),
                None => ' ',
            };
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank.char()));
        out.push(row);
        out.push(rule.to_owned());
    }
    out.push("   a   b   c   d   e   f   g   h".to_owned());
    out.push(String::new());
    let variant = engine.variant();
    let specials = if engine.options().specials {
        "on"
    } else {
        "off"
    };
    let rules_name = engine.game().kind().name();
    out.push(format!("Fen: {}", node.fen()));
    out.push(format!("Key: {:016X}", node.key));
    out.push(format!(
        "Variant: {variant} (rules: {rules_name}, special actions: {specials})"
    ));
    out.push(format!("Side to move: {}", side(node.turn())));
    if variant.has_disk() {
        out.push(format!("Disk: {}", describe_disk(node.extra.disk)));
    }
    if variant.has_claim() {
        out.push(format!("Bare king: {}", describe_bare(node.extra.bare)));
    }
    let actions = game.legal_actions();
    out.push(format!(
        "In check: {}",
        if node.check { "yes" } else { "no" }
    ));
    out.push(format!(
        "Legal actions: {} ({} plies played)",
        actions.len(),
        game.actions().len()
    ));
    out.push(format!(
        "Ending: {}",
        game.ending()
            .map_or_else(|| "none (the game runs)".to_owned(), |e| e.describe())
    ));
    let (white, black) = engine.points_so_far();
    out.push(format!("Points so far: White {white} Black {black}"));
    if let Some((wdl, dtz)) = engine.tablebase_probe() {
        // As python-chess's prober gives them: WDL -2 (loss) to 2 (win)
        // as if the halfmove clock were 0, DTZ in plies.
        let dtz = dtz.map_or_else(|| "none".to_owned(), |d| d.to_string());
        out.push(format!("Tablebases: WDL {} DTZ {dtz}", wdl as i32));
    }
    out
}

/// The lines of `eval`: the base evaluation's terms, White's view, then
/// the evaluation for the side to move and the expected margin in points.
pub(super) fn evaluation(engine: &Engine) -> Vec<String> {
    let trace = engine.trace_eval();
    let b = &trace.base;
    let mut out = vec![
        String::new(),
        "      Term    |   MG    EG  (White's view, centipawns)".to_owned(),
        " -------------+------------".to_owned(),
    ];
    let terms = [
        ("Material", b.material),
        ("Placement", b.placement),
        ("Mobility", b.mobility),
        ("King safety", b.king_safety),
        ("Pawns", b.pawns),
        ("Pieces", b.pieces),
    ];
    for (name, s) in terms {
        out.push(format!(" {name:>12} | {:>5} {:>5}", s.mg, s.eg));
    }
    let total = b.total();
    out.push(" -------------+------------".to_owned());
    out.push(format!(
        " {:>12} | {:>5} {:>5}",
        "Total", total.mg, total.eg
    ));
    out.push(String::new());
    out.push(format!("Phase: {} of 24", b.phase));
    let turn = trace.turn;
    out.push(format!(
        "Base evaluation: {} cp for {} (tapered, with tempo)",
        b.cp_for(turn),
        side(turn)
    ));
    out.push(format!(
        "Expected margin: {} {} points for {} ({} evaluation, {} internal units)",
        trace.margin.signed(),
        engine.variant(),
        side(turn),
        trace.evaluation(),
        trace.value
    ));
    if let Some(e) = engine.ending() {
        out.push(format!("The game is over: {}", e.describe()));
    }
    out
}
