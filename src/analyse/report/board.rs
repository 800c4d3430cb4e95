//! Chess boards as inline SVG for the HTML report of `tally analyse`.
//!
//! What lives here: [`views`] replays a scored game and returns what to
//! draw at every point of it ([`View`]: the pieces, the last move, kings in
//! check, the tiebraker disk), [`svg`] draws one view, and [`defs`] is the
//! board background and highlights that every drawn board refers to (put
//! once in the document). The pieces are the Unicode chess symbols as SVG
//! text (a white piece is its outline glyph over a white silhouette), so no
//! image or font file is needed. Nothing here knows about HTML pages.
//!
//! Boards are drawn from White's side, 8 squares of 45 units; the board is
//! drawn whatever it holds (extinction positions with two kings or none of
//! a type draw like any other).

use std::fmt::Write as _;

use shakmaty::{Color, Piece, Role, Square};

use crate::referee::ScoreRecord;
use crate::rules::{Action, Game, Node, Pos, Rules};
use crate::with_game;

/// The size of a square in SVG units.
const SQUARE: u32 = 45;

/// What to draw of one point of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The pieces.
    pub board: shakmaty::Board,
    /// The side to move.
    pub turn: Color,
    /// The squares the last chess move left and reached (a castling king's
    /// own squares); `None` at the start and after a special action.
    pub last: Option<(Square, Square)>,
    /// The kings in check (the side to move's; none in extinction).
    pub check: Vec<Square>,
    /// The side whose king is a tiebraker disk, if any.
    pub disk: Option<Color>,
}

impl View {
    fn of<P: Pos>(node: &Node<P>, action: Option<Action>) -> View {
        let board = node.pos.board().clone();
        let last = match action {
            Some(Action::Move(m)) => m.from().map(|from| {
                let to = m.castling_side().map_or(m.to(), |side| {
                    Square::from_coords(side.king_to_file(), from.rank())
                });
                (from, to)
            }),
            _ => None,
        };
        let turn = node.turn();
        let check = if node.check {
            (board.kings() & board.by_color(turn)).into_iter().collect()
        } else {
            Vec::new()
        };
        View {
            board,
            turn,
            last,
            check,
            disk: node.extra.disk.disk_holder(),
        }
    }
}

/// The view at every point of a scored game: the start and after every
/// ply.
///
/// # Errors
///
/// A one-line message if the game cannot be replayed (it was scored, so
/// this does not happen).
pub fn views(record: &ScoreRecord) -> Result<Vec<View>, String> {
    // Under the rules it was scored by: its castling (Chess960) and its
    // special actions.
    with_game!(crate::rules::AnyRules::of(record.variant), |rules| replay(
        rules.with_specials(true).with_chess960(record.chess960),
        record
    ))
}

fn replay<P: Pos>(rules: Rules<P>, record: &ScoreRecord) -> Result<Vec<View>, String> {
    let mut game = Game::new(rules, Some(&record.start_fen)).map_err(|e| e.to_string())?;
    for p in &record.plies {
        game.play(p.action).map_err(|e| e.to_string())?;
    }
    let nodes = game.nodes();
    let actions = game.actions();
    Ok(nodes
        .iter()
        .enumerate()
        .map(|(i, n)| View::of(n, i.checked_sub(1).and_then(|k| actions.get(k).copied())))
        .collect())
}

/// The board background (squares and coordinates, the symbol
/// `tally-board`) and the check highlight (the gradient `tally-check`)
/// that [`svg`] refers to: put once in the document, inside an `<svg>` of
/// its own.
pub fn defs() -> String {
    let mut s = String::from(concat!(
        r##"<defs><radialGradient id="tally-check"><stop offset="0" stop-color="#ff2020" stop-opacity="0.95"/>"##,
        r##"<stop offset="0.45" stop-color="#e01010" stop-opacity="0.6"/>"##,
        r##"<stop offset="1" stop-color="#a00000" stop-opacity="0"/></radialGradient></defs>"##,
        r##"<symbol id="tally-board" viewBox="0 0 360 360">"##,
        r##"<rect width="360" height="360" fill="#f0d9b5"/><path fill="#b58863" d=""##,
    ));
    for rank in 0..8u32 {
        for file in 0..8u32 {
            if (rank + file) % 2 == 1 {
                let _ = write!(s, "M{} {}h45v45h-45z", file * SQUARE, rank * SQUARE);
            }
        }
    }
    s.push_str(r#""/>"#);
    for i in 0..8u32 {
        // Files along the bottom edge, ranks along the left, each in the
        // other shade than its square's.
        let file_colour = if i % 2 == 0 { "#f0d9b5" } else { "#b58863" };
        let rank_colour = if i % 2 == 0 { "#b58863" } else { "#f0d9b5" };
        let _ = write!(
            s,
            r#"<text x="{}" y="357" font-size="10" fill="{file_colour}" text-anchor="end">{}</text>"#,
            i * SQUARE + 43,
            char::from(b'a' + i as u8)
        );
        let _ = write!(
            s,
            r#"<text x="2" y="{}" font-size="10" fill="{rank_colour}">{}</text>"#,
            i * SQUARE + 11,
            8 - i
        );
    }
    s.push_str("</symbol>");
    s
}

/// The solid glyph of a role (drawn for both colours) and the outline
/// glyph (drawn over a white piece).
fn glyphs(role: Role) -> (char, char) {
    match role {
        Role::King => ('\u{265A}', '\u{2654}'),
        Role::Queen => ('\u{265B}', '\u{2655}'),
        Role::Rook => ('\u{265C}', '\u{2656}'),
        Role::Bishop => ('\u{265D}', '\u{2657}'),
        Role::Knight => ('\u{265E}', '\u{2658}'),
        Role::Pawn => ('\u{265F}', '\u{2659}'),
    }
}

/// The top-left corner of a square, White at the bottom.
fn corner(sq: Square) -> (u32, u32) {
    let file = u32::from(sq.file());
    let rank = u32::from(sq.rank());
    (file * SQUARE, (7 - rank) * SQUARE)
}

/// A piece's name for a screen reader: `white knight`.
fn piece_name(p: Piece) -> String {
    let role = match p.role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    };
    format!("{} {role}", p.color.fold_wb("white", "black"))
}

/// One board as an `<svg>` element with `attrs` (already escaped HTML
/// attributes, e.g. `class="board" data-ply="3"`) and `label` (escaped
/// text) as its accessible name and title.
pub fn svg(view: &View, attrs: &str, label: &str) -> String {
    let mut s = String::with_capacity(4096);
    let _ = write!(
        s,
        r##"<svg {attrs} viewBox="0 0 360 360" role="img" aria-label="{label}"><title>{label}</title><use href="#tally-board"/>"##
    );
    if let Some((from, to)) = view.last {
        for sq in [from, to] {
            let (x, y) = corner(sq);
            let _ = write!(
                s,
                r##"<rect x="{x}" y="{y}" width="45" height="45" fill="#d8d820" fill-opacity="0.45"/>"##
            );
        }
    }
    for &sq in &view.check {
        let (x, y) = corner(sq);
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{y}" width="45" height="45" fill="url(#tally-check)"/>"##
        );
    }
    // U+FE0E asks for the text form of the symbols, never an emoji.
    s.push_str(r#"<g class="pieces" font-size="39" text-anchor="middle">"#);
    for (sq, piece) in &view.board {
        let (x, y) = corner(sq);
        let (cx, base) = (x + SQUARE / 2, y + 37);
        let (solid, outline) = glyphs(piece.role);
        let name = piece_name(piece);
        if piece.color.is_white() {
            let _ = write!(
                s,
                r##"<g aria-label="{name}"><text x="{cx}" y="{base}" fill="#fff">{solid}&#xFE0E;</text><text x="{cx}" y="{base}" fill="#111">{outline}&#xFE0E;</text></g>"##
            );
        } else {
            let _ = write!(
                s,
                r##"<text x="{cx}" y="{base}" fill="#111" aria-label="{name}">{solid}&#xFE0E;</text>"##
            );
        }
        if piece.role == Role::King && view.disk == Some(piece.color) {
            let _ = write!(
                s,
                r##"<circle cx="{cx}" cy="{}" r="20" fill="none" stroke="#1670d0" stroke-width="3" stroke-dasharray="6 3"><title>disk: this king is frozen</title></circle>"##,
                y + SQUARE / 2
            );
        }
    }
    s.push_str("</g></svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameInput, score_input};
    use crate::rules::Variant;
    use crate::scoring::Scorer;

    fn views_of(variant: Variant, fen: Option<&str>, moves: &str) -> Vec<View> {
        let record = score_input(&Scorer::new(variant), &GameInput::from_text(fen, moves)).unwrap();
        views(&record).unwrap()
    }

    #[test]
    fn views_follow_the_game() {
        let v = views_of(Variant::Chess, None, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(v.len(), 5);
        assert_eq!(v[0].board.occupied().count(), 32);
        assert_eq!(v[0].last, None);
        assert_eq!(v[4].last, Some((Square::D8, Square::H4)));
        assert_eq!(v[4].check, [Square::E1]);
        assert_eq!(v[4].turn, Color::White);
        let s = svg(&v[4], r#"class="board""#, "after 2... Qh4#");
        // 32 pieces: 16 white of two glyphs each, 16 black of one.
        assert_eq!(s.matches("<text").count(), 48);
        assert!(s.contains("url(#tally-check)") && s.contains("\u{265B}"));
    }

    #[test]
    fn castling_marks_the_kings_squares() {
        let v = views_of(
            Variant::Chess,
            Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            "e1g1 e8c8",
        );
        assert_eq!(v[1].last, Some((Square::E1, Square::G1)));
        assert_eq!(v[2].last, Some((Square::E8, Square::C8)));
    }

    /// A Chess960 game replays under its own castling: king takes rook.
    #[test]
    fn chess960_castling_replays() {
        let v = views_of(
            Variant::Chess,
            Some("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"),
            "f1g1 f8g8 e2e4",
        );
        assert_eq!(v.len(), 4);
        let board = &v[2].board;
        assert_eq!(board.king_of(Color::White), Some(Square::G1));
        assert_eq!(board.king_of(Color::Black), Some(Square::G8));
        assert_eq!(board.role_at(Square::F1), Some(shakmaty::Role::Rook));
    }

    #[test]
    fn extinction_kings_and_the_tiebraker_disk() {
        let v = views_of(
            Variant::Extinction,
            Some("1k1qrbn1/P6p/8/8/8/8/7P/KQRBN3 w - - 0 1"),
            "a7a8k b8a8",
        );
        let kings = |v: &View, c: Color| (v.board.kings() & v.board.by_color(c)).count();
        assert_eq!(kings(&v[1], Color::White), 2);
        assert_eq!(kings(&v[2], Color::White), 1);
        assert!(v.iter().all(|v| v.check.is_empty()));
        let v = views_of(
            Variant::Tiebraker,
            Some("6k1/p4ppp/8/8/8/8/8/K3R3 w - - 0 1"),
            "disk a7a6",
        );
        assert_eq!((v[1].last, v[1].disk), (None, Some(Color::White)));
        assert_eq!(v[2].disk, Some(Color::White));
        assert!(svg(&v[1], "", "").contains("disk: this king is frozen"));
    }
}
