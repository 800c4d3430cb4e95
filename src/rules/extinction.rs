//! [`Extinction`]: the extinction-chess position, on shakmaty's [`Board`] and
//! attack tables.
//!
//! No check exists: kings move into attack and are captured like any piece,
//! castling is allowed out of, through and into attack, pawns promote to
//! king too, and a side may have any number of kings. Game end by extinction
//! is [`Extinction::extinct`]; the ending itself is judged in `game`.

use std::hash::{Hash, Hasher};
use std::num::NonZeroU32;

use shakmaty::attacks;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Castles, CastlingMode, CastlingSide, Color, EnPassantMode,
    FromSetup, KnownOutcome, Move, MoveList, Outcome, Position, PositionError, Rank,
    RemainingChecks, Role, Setup, Square,
};

use super::RulesError;
use super::pos::Pos;

/// An extinction-chess position.
#[derive(Clone, Debug)]
pub struct Extinction {
    board: Board,
    turn: Color,
    castles: Castles,
    /// The square of each side's castling king: its home on the back rank
    /// (the e-file in standard chess, where the king stood in Chess960).
    king_homes: ByColor<Square>,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: NonZeroU32,
}

/// The kings' standard home squares.
const STANDARD_HOMES: ByColor<Square> = ByColor {
    white: Square::E1,
    black: Square::E8,
};

impl Default for Extinction {
    fn default() -> Extinction {
        Extinction {
            board: Board::new(),
            turn: Color::White,
            castles: Castles::new(),
            king_homes: STANDARD_HOMES,
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }
}

impl PartialEq for Extinction {
    fn eq(&self, other: &Extinction) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castles.castling_rights() == other.castles.castling_rights()
            && self.key_ep_square() == other.key_ep_square()
    }
}

impl Eq for Extinction {}

impl Hash for Extinction {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.turn.hash(state);
        self.castles.castling_rights().hash(state);
        self.key_ep_square().hash(state);
    }
}

const PROMOTIONS: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::King,
];

impl Extinction {
    /// Whether `color` has no piece left of one of the six types.
    #[inline]
    pub fn extinct(&self, color: Color) -> bool {
        let ours = self.board.by_color(color);
        Role::ALL
            .iter()
            .any(|&r| (self.board.by_role(r) & ours).is_empty())
    }

    /// The winner by extinction, judged as if the side not to move had just
    /// moved: the side to move loses if it is extinct, else wins if the
    /// other side is. `None` when nobody is extinct.
    pub fn extinction_winner(&self) -> Option<Color> {
        if self.extinct(self.turn) {
            Some(!self.turn)
        } else if self.extinct(!self.turn) {
            Some(self.turn)
        } else {
            None
        }
    }

    /// Builds a position, checking what extinction requires: pawns off the
    /// back ranks, a valid en-passant square and castling rights, the side
    /// not to move may be "in check" (no check exists), and at most 16
    /// pieces a side with no more promoted pieces than missing pawns.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidPosition`] with the reason.
    pub fn from_setup_validated(setup: Setup, fen: &str) -> Result<Extinction, RulesError> {
        Extinction::from_setup_in(setup, CastlingMode::Standard, fen)
    }

    /// [`Extinction::from_setup_validated`] under `mode`: in Chess960 the
    /// castling king stands anywhere on its back rank, with its rooks on
    /// either side.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidPosition`] with the reason.
    pub fn from_setup_in(
        setup: Setup,
        mode: CastlingMode,
        fen: &str,
    ) -> Result<Extinction, RulesError> {
        let bad = |reason: &str| RulesError::InvalidPosition {
            fen: fen.to_owned(),
            reason: reason.to_owned(),
        };
        let board = &setup.board;
        if board.occupied().is_empty() {
            return Err(bad("empty board"));
        }
        if (board.pawns() & Bitboard::BACKRANKS).any() {
            return Err(bad("pawns on a back rank"));
        }
        for color in Color::ALL {
            let ours = board.by_color(color);
            if ours.count() > 16 {
                return Err(bad("more than 16 pieces for one side"));
            }
            let extra =
                |role: Role, base: usize| (board.by_role(role) & ours).count().saturating_sub(base);
            let promoted = extra(Role::Queen, 1)
                + extra(Role::Rook, 2)
                + extra(Role::Bishop, 2)
                + extra(Role::Knight, 2)
                + extra(Role::King, 1);
            if (board.pawns() & ours).count() + promoted > 8 {
                return Err(bad("too much material"));
            }
        }
        let (castles, king_homes) = detect_castles(&setup, mode);
        let castles = castles.map_err(|_| bad("invalid castling rights"))?;
        let ep_square = match setup.ep_square {
            None => None,
            Some(ep) => {
                let pushed_to =
                    Square::from_coords(ep.file(), (!setup.turn).relative_rank(Rank::Fourth));
                let pushed_from =
                    Square::from_coords(ep.file(), (!setup.turn).relative_rank(Rank::Second));
                if ep.rank() != setup.turn.relative_rank(Rank::Sixth)
                    || !(board.pawns() & board.by_color(!setup.turn)).contains(pushed_to)
                    || board.occupied().contains(ep)
                    || board.occupied().contains(pushed_from)
                {
                    return Err(bad("invalid en-passant square"));
                }
                Some(ep)
            }
        };
        Ok(Extinction {
            board: setup.board,
            turn: setup.turn,
            castles,
            king_homes,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        })
    }

    fn push_pawn_moves(&self, out: &mut MoveList) {
        let us = self.turn;
        let ours = self.board.by_color(us);
        let theirs = self.board.by_color(!us);
        let occupied = self.board.occupied();
        let pawns = self.board.pawns() & ours;
        let promo_rank = us.relative_rank(Rank::Eighth);
        for from in pawns {
            let targets = attacks::pawn_attacks(us, from) & theirs;
            for to in targets {
                let capture = self.board.role_at(to);
                push_pawn(out, from, to, capture, to.rank() == promo_rank);
            }
            let step = if us.is_white() { 8 } else { -8 };
            if let Some(to) = from.offset(step)
                && !occupied.contains(to)
            {
                push_pawn(out, from, to, None, to.rank() == promo_rank);
                if from.rank() == us.relative_rank(Rank::Second)
                    && let Some(to2) = to.offset(step)
                    && !occupied.contains(to2)
                {
                    push(
                        out,
                        Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture: None,
                            to: to2,
                            promotion: None,
                        },
                    );
                }
            }
        }
        if let Some(ep) = self.ep_square {
            for from in attacks::pawn_attacks(!us, ep) & pawns {
                push(out, Move::EnPassant { from, to: ep });
            }
        }
    }

    fn push_piece_moves(&self, out: &mut MoveList, target: Bitboard) {
        let us = self.turn;
        let ours = self.board.by_color(us);
        let occupied = self.board.occupied();
        for from in ours & !self.board.pawns() {
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            let att = match role {
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                Role::Queen => attacks::queen_attacks(from, occupied),
                Role::King => attacks::king_attacks(from),
                Role::Pawn => Bitboard::EMPTY,
            };
            for to in att & target & !ours {
                push(
                    out,
                    Move::Normal {
                        role,
                        from,
                        capture: self.board.role_at(to),
                        to,
                        promotion: None,
                    },
                );
            }
        }
    }

    fn push_castling(&self, out: &mut MoveList) {
        let us = self.turn;
        let king = self.king_homes[us];
        if !(self.board.kings() & self.board.by_color(us)).contains(king) {
            return;
        }
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = self.castles.rook(us, side)
                && (self.castles.path(us, side) & self.board.occupied()).is_empty()
                && (self.board.rooks() & self.board.by_color(us)).contains(rook)
            {
                push(out, Move::Castle { king, rook });
            }
        }
    }
}

/// The castling rights of `setup` under `mode` (`Err` with the valid
/// ones when some of them are not), and each side's castling king.
///
/// The castling king is the king on the home square (the e-file) in
/// standard chess, the one king on the back rank in Chess960 (a side with
/// several kings there keeps the one on the e-file, if any); any further
/// (promoted) kings are ignored for castling.
fn detect_castles(
    setup: &Setup,
    mode: CastlingMode,
) -> (Result<Castles, Castles>, ByColor<Square>) {
    let board = &setup.board;
    let mut homes = STANDARD_HOMES;
    let mut castle_setup = setup.clone();
    for color in Color::ALL {
        let kings = board.kings() & board.by_color(color);
        let on_rank = kings & color.backrank();
        if mode.is_chess960()
            && let Some(only) = on_rank.single_square()
        {
            homes[color] = only;
        }
        let home = homes[color];
        if kings.more_than_one() && kings.contains(home) {
            for sq in kings.without(home) {
                castle_setup.board.discard_piece_at(sq);
            }
        }
    }
    (Castles::from_setup(&castle_setup, mode), homes)
}

#[inline]
fn push(out: &mut MoveList, m: Move) {
    // Validated positions cannot exceed the list; never panic if one does.
    let _ = out.try_push(m);
}

#[inline]
fn push_pawn(out: &mut MoveList, from: Square, to: Square, capture: Option<Role>, promotes: bool) {
    if promotes {
        for p in PROMOTIONS {
            push(
                out,
                Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(p),
                },
            );
        }
    } else {
        push(
            out,
            Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            },
        );
    }
}

impl Extinction {
    /// The castling rights in X-FEN: `K` and `Q` (`k`, `q` for Black) for
    /// the outermost rook on each side of the castling king's home, the
    /// rook's file letter for any other; White first, each side from the
    /// h-file down; `-` for none.
    fn castling_text(&self) -> String {
        let rights = self.castles.castling_rights();
        let mut text = String::new();
        for color in Color::ALL {
            let back = Bitboard::from_rank(color.backrank());
            let home = self.king_homes[color].file();
            let rooks = self.board.by_color(color) & self.board.rooks() & back;
            for sq in (rights & back).into_iter().rev() {
                let kingside = sq.file() > home;
                let outer = !rooks.into_iter().any(|r| {
                    if kingside {
                        r.file() > sq.file()
                    } else {
                        r.file() < sq.file()
                    }
                });
                let letter = match (outer, kingside) {
                    (true, true) => 'k',
                    (true, false) => 'q',
                    (false, _) => sq.file().char(),
                };
                text.push(if color.is_white() {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        text
    }
}

impl FromSetup for Extinction {
    /// Builds the position without validation; shakmaty's error type cannot
    /// be built outside shakmaty, so [`Pos::from_setup_checked`] is the
    /// validating constructor.
    fn from_setup(
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<Extinction, PositionError<Extinction>> {
        let (castles, king_homes) = detect_castles(&setup, mode);
        Ok(Extinction {
            board: setup.board,
            turn: setup.turn,
            castles: castles.unwrap_or_else(|c| c),
            king_homes,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        })
    }
}

impl Position for Extinction {
    fn board(&self) -> &Board {
        &self.board
    }

    fn promoted(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        None
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn castles(&self) -> &Castles {
        &self.castles
    }

    fn maybe_ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        None
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    fn fullmoves(&self) -> NonZeroU32 {
        self.fullmoves
    }

    fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.push_pawn_moves(&mut out);
        self.push_piece_moves(&mut out, Bitboard::FULL);
        self.push_castling(&mut out);
        out
    }

    fn capture_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.push_pawn_moves(&mut out);
        out.retain(|m| m.is_capture());
        self.push_piece_moves(&mut out, self.board.by_color(!self.turn));
        out
    }

    fn king_attackers(&self, _square: Square, _attacker: Color, _occupied: Bitboard) -> Bitboard {
        Bitboard::EMPTY
    }

    fn is_variant_end(&self) -> bool {
        self.extinct(Color::White) || self.extinct(Color::Black)
    }

    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }

    fn variant_outcome(&self) -> Outcome {
        match self.extinction_winner() {
            Some(winner) => Outcome::Known(KnownOutcome::Decisive { winner }),
            None => Outcome::Unknown,
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        self.ep_square = None;
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role == Role::Pawn
                    && from.rank() == us.relative_rank(Rank::Second)
                    && to.rank() == us.relative_rank(Rank::Fourth)
                {
                    self.ep_square = Some(Square::from_coords(
                        from.file(),
                        us.relative_rank(Rank::Third),
                    ));
                }
                if role == Role::King && from == self.king_homes[us] {
                    self.castles.discard_color(us);
                } else if role == Role::Rook {
                    self.castles.discard_rook(from);
                }
                match capture {
                    Some(Role::Rook) => self.castles.discard_rook(to),
                    Some(Role::King) if to == self.king_homes[!us] => {
                        self.castles.discard_color(!us);
                    }
                    _ => {}
                }
                self.board.discard_piece_at(from);
                self.board
                    .set_piece_at(to, promotion.unwrap_or(role).of(us));
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                self.board.discard_piece_at(king);
                self.board.discard_piece_at(rook);
                self.board.set_piece_at(
                    Square::from_coords(side.rook_to_file(), rook.rank()),
                    us.rook(),
                );
                self.board.set_piece_at(
                    Square::from_coords(side.king_to_file(), king.rank()),
                    us.king(),
                );
                self.castles.discard_color(us);
            }
            Move::EnPassant { from, to } => {
                self.board
                    .discard_piece_at(Square::from_coords(to.file(), from.rank()));
                self.board.discard_piece_at(from);
                self.board.set_piece_at(to, us.pawn());
            }
            Move::Put { role, to } => {
                self.board.set_piece_at(to, role.of(us));
            }
        }
        if us.is_black() {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
    }
}

impl Pos for Extinction {
    const KINGS_CAPTURABLE: bool = true;

    fn from_setup_in(
        setup: Setup,
        mode: CastlingMode,
        fen: &str,
    ) -> Result<Extinction, RulesError> {
        Extinction::from_setup_in(setup, mode, fen)
    }

    /// Extinction's own reading: a side's castling king is the one at home
    /// even beside a second, promoted king.
    fn castling_rights_kept(setup: &Setup, mode: CastlingMode) -> Bitboard {
        match detect_castles(setup, mode).0 {
            Ok(c) | Err(c) => c.castling_rights(),
        }
    }

    #[inline]
    fn checkers_bb(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    /// The FEN, its castling rights in X-FEN from the castling king's home
    /// (shakmaty's writer looks for a side's one king, and writes file
    /// letters for a side with a second, promoted king).
    fn fen(&self) -> String {
        let fen = Fen::from_position(self, EnPassantMode::Legal).to_string();
        let castling = self.castling_text();
        fen.split(' ')
            .enumerate()
            .map(|(i, field)| if i == 2 { castling.as_str() } else { field })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[inline]
    fn extinct(&self, color: Color) -> bool {
        Extinction::extinct(self, color)
    }

    fn threatened(&self) -> bool {
        let us = self.turn;
        let ours = self.board.by_color(us);
        let occupied = self.board.occupied();
        Role::ALL.iter().any(|&r| {
            let pieces = self.board.by_role(r) & ours;
            pieces.count() == 1
                && pieces
                    .first()
                    .is_some_and(|sq| self.board.attacks_to(sq, !us, occupied).any())
        })
    }

    /// Pawn moves filtered, then only the pieces' captures: no quiet piece
    /// move is generated. Same order as `legal_moves` filtered.
    fn fill_noisy_moves(&self, out: &mut MoveList) {
        out.clear();
        self.push_pawn_moves(out);
        out.retain(|m| m.is_capture() || m.is_promotion());
        self.push_piece_moves(out, self.board.by_color(!self.turn));
    }

    #[inline]
    fn key_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let pawns = self.board.pawns() & self.board.by_color(self.turn);
        (attacks::pawn_attacks(!self.turn, ep) & pawns)
            .any()
            .then_some(ep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::pos::{extinction, noisy_moves_agree};

    #[test]
    fn start_position() {
        let pos = Extinction::default();
        assert_eq!(pos.legal_moves().len(), 20);
        assert!(!pos.extinct(Color::White));
        assert_eq!(pos.extinction_winner(), None);
    }

    #[test]
    fn king_moves_into_attack_and_is_captured() {
        let pos = extinction("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
        // All five king moves are legal, d2 included (a capture).
        assert_eq!(pos.legal_moves().len(), 5);
        let black = extinction("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1");
        let kxe1 = black
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E1)
            .unwrap();
        let mut after = black.clone();
        after.play_unchecked(kxe1);
        assert!(after.extinct(Color::White));
        assert_eq!(after.extinction_winner(), Some(Color::Black));
    }

    #[test]
    fn castling_through_attack() {
        // The rook on f8 attacks f1: castling king side is still legal.
        let pos = extinction("r3kr2/pppppppp/8/8/8/8/8/R3K2R w KQq - 0 1");
        let castles: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        assert_eq!(castles.len(), 2);
    }

    #[test]
    fn promotion_to_king_and_two_kings() {
        let pos = extinction("8/P3k3/8/8/8/8/8/4K3 w - - 0 1");
        let promos = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_promotion())
            .count();
        assert_eq!(promos, 5);
        let two_kings = extinction("8/4k3/8/8/8/8/8/K3K3 w - - 0 1");
        assert_eq!(two_kings.legal_moves().len(), 3 + 5);
    }

    #[test]
    fn castling_rights_are_written_as_x_fen_beside_a_second_king() {
        let fen = |text: &str, mode| {
            Extinction::from_fen_noting_in(text, mode)
                .expect("a legal position")
                .0
                .fen()
        };
        let two_kings = "rnbqk2r/pppppppp/8/8/3K4/8/1PPPPPPP/RNBQK2R w KQkq - 0 1";
        assert_eq!(fen(two_kings, CastlingMode::Standard), two_kings);
        // Chess960: an inner rook by its file, an outer one as K (Q).
        let inner = "1k3r1r/pppppppp/8/8/8/8/PPPPPPPP/1K3R1R w Ff - 0 1";
        assert_eq!(fen(inner, CastlingMode::Chess960), inner);
        let queenside = "r2k4/pppppppp/8/8/8/8/PPPPPPPP/R2K4 w Aa - 0 1";
        assert_eq!(
            fen(queenside, CastlingMode::Chess960),
            "r2k4/pppppppp/8/8/8/8/PPPPPPPP/R2K4 w Qq - 0 1"
        );
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(fen(start, CastlingMode::Standard), start);
        let none = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(fen(none, CastlingMode::Standard), none);
        // A FEN repaired for another fault (an en-passant square no pawn
        // passed) keeps the rights of a side with a second king.
        let (pos, notes) = Extinction::from_fen_noting_in(
            "rnbqk2r/pppppppp/8/8/3K4/8/1PPPPPPP/RNBQK2R w KQkq e6 0 1",
            CastlingMode::Standard,
        )
        .expect("repaired");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(pos.fen(), two_kings);
    }

    #[test]
    fn threats_to_a_last_piece() {
        use crate::rules::Pos;
        // Black's only queen is attacked by two pawns: Black to move is
        // threatened; White to move is not (the queen hits only pawns).
        let black = extinction("rnb1kbnr/pppppppp/8/8/8/3q4/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(black.threatened());
        let white = extinction("rnb1kbnr/pppppppp/8/8/8/3q4/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(!white.threatened());
        let quiet = Extinction::default();
        assert!(!quiet.threatened());
    }

    #[test]
    fn noisy_moves_are_the_legal_captures_and_promotions_in_order() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/1P6/2p5/3n4/8/8/6p1/3QK2R w K - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let checked = noisy_moves_agree(fens.map(extinction));
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn validation() {
        assert!(Extinction::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(Extinction::from_fen("P7/8/8/8/8/8/8/k6K w - - 0 1").is_err());
        assert!(Extinction::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").is_err());
        // Two kings with the home king castling.
        assert!(Extinction::from_fen("4k3/8/8/8/8/8/8/K3K2R w K - 0 1").is_ok());
        // A side "in check" while not to move is fine.
        assert!(Extinction::from_fen("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1").is_ok());
    }
}
