//! [`Pos`]: what the rules need of a board position, for standard chess
//! (shakmaty's [`Chess`]) and extinction ([`Extinction`]).

use std::fmt::Debug;

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, MoveList, Position,
    PositionErrorKinds, Role, Setup, Square,
};

use super::RulesError;

/// A board position under one of the two board rule sets.
///
/// Implemented by [`Chess`] (standard rules) and [`Extinction`](super::Extinction). Everything
/// the rules layer needs beyond shakmaty's [`Position`] lives here, so the
/// rest of Tally is generic over this one trait.
pub trait Pos: Position + FromSetup + Clone + Debug + Send + Sync + 'static {
    /// Whether kings are ordinary capturable pieces and check does not exist.
    const KINGS_CAPTURABLE: bool;

    /// Builds a validated position from a setup, castling as in standard
    /// chess.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidPosition`] when the setup is not a legal position
    /// of this rule set (`fen` is used in the message).
    fn from_setup_checked(setup: Setup, fen: &str) -> Result<Self, RulesError> {
        Self::from_setup_in(setup, CastlingMode::Standard, fen)
    }

    /// [`Pos::from_setup_checked`] with castling under `mode`
    /// ([`CastlingMode::Chess960`]: the king and its rooks anywhere on the
    /// back rank).
    ///
    /// # Errors
    ///
    /// As [`Pos::from_setup_checked`].
    fn from_setup_in(setup: Setup, mode: CastlingMode, fen: &str) -> Result<Self, RulesError>;

    /// The castling rights of `setup` that these rules keep under `mode`
    /// (those whose king and rook stand where castling needs them).
    fn castling_rights_kept(setup: &Setup, mode: CastlingMode) -> Bitboard {
        match shakmaty::Castles::from_setup(setup, mode) {
            Ok(c) | Err(c) => c.castling_rights(),
        }
    }

    /// Pieces giving check to the side to move (always empty in extinction).
    fn checkers_bb(&self) -> Bitboard;

    /// Whether the side to move is in check (never in extinction).
    fn in_check(&self) -> bool {
        self.checkers_bb().any()
    }

    /// Whether the side to move must answer a threat at once: in check
    /// (standard rules), or with a piece attacked whose capture would end
    /// the game (extinction: the last piece of its type). The search treats
    /// it like check: no standing pat, no null move, an extension.
    fn threatened(&self) -> bool {
        self.in_check()
    }

    /// Whether `color` has lost every piece of some type (extinction only).
    fn extinct(&self, color: Color) -> bool;

    /// The en-passant square as it counts for repetition and hashing: only
    /// when an en-passant capture is legal (standard), or possible at all
    /// (extinction).
    fn key_ep_square(&self) -> Option<Square>;

    /// The legal captures and promotions, in the order
    /// [`Position::legal_moves`] lists them (what quiescence searches).
    ///
    /// By default every legal move is generated and the rest dropped:
    /// shakmaty's standard chess offers no capture-only generator (its
    /// `capture_moves` filters the same way).
    #[inline]
    fn noisy_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.fill_noisy_moves(&mut moves);
        moves
    }

    /// [`Pos::noisy_moves`] written into `moves` (cleared first): the
    /// search's form, since a move list returned by value is copied whole
    /// (more than a kilobyte) where the compiler cannot build it in place.
    #[inline]
    fn fill_noisy_moves(&self, moves: &mut MoveList) {
        *moves = legal_noisy_moves(self);
    }

    /// Plays a move known to be legal, in place.
    fn play_move(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    /// Whether `m` (legal here) gives check.
    fn gives_check(&self, m: Move) -> bool {
        if Self::KINGS_CAPTURABLE {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        after.in_check()
    }

    /// What [`Pos::gives_check_by`] needs to know of this position, found
    /// once for the many moves a search node asks about.
    fn check_squares(&self) -> CheckSquares {
        CheckSquares::NONE
    }

    /// [`Pos::gives_check`], with this position's [`Pos::check_squares`].
    fn gives_check_by(&self, squares: &CheckSquares, m: Move) -> bool {
        let _ = squares;
        self.gives_check(m)
    }

    /// Parses a FEN into a validated position, strictly (games use
    /// [`Pos::from_fen_noting`]).
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`].
    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        Self::from_fen_in(fen, CastlingMode::Standard)
    }

    /// [`Pos::from_fen`] with castling under `mode`; castling rights may
    /// be given as in X-FEN (`KQkq`: the outermost rooks) or Shredder-FEN
    /// (the rooks' files, `HAha`).
    ///
    /// # Errors
    ///
    /// As [`Pos::from_fen`].
    fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Self, RulesError> {
        Self::from_setup_in(parse_fen(fen.trim())?, mode, fen.trim())
    }

    /// Parses a FEN into a validated position, with a note for each part of
    /// it that was ignored. Only what cannot be played is refused: an
    /// en-passant square that no double push can have left, and castling
    /// rights without their king and rook at home, are dropped (as GUIs
    /// and other engines do).
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`] (the
    /// latter naming every problem of the FEN as given).
    fn from_fen_noting(fen: &str) -> Result<(Self, Vec<String>), RulesError> {
        Self::from_fen_noting_in(fen, CastlingMode::Standard)
    }

    /// [`Pos::from_fen_noting`] with castling under `mode` (see
    /// [`Pos::from_fen_in`]).
    ///
    /// # Errors
    ///
    /// As [`Pos::from_fen_noting`].
    fn from_fen_noting_in(
        fen: &str,
        mode: CastlingMode,
    ) -> Result<(Self, Vec<String>), RulesError> {
        let fen = fen.trim();
        let setup = parse_fen(fen)?;
        let refused = match Self::from_setup_in(setup.clone(), mode, fen) {
            Ok(pos) => return Ok((pos, Vec::new())),
            Err(e) => e,
        };
        let mut fixed = setup;
        let mut notes = Vec::new();
        if let Some(ep) = fixed.ep_square
            && !ep_square_possible(&fixed, ep)
        {
            fixed.ep_square = None;
            notes.push(format!(
                "en-passant square {ep} ignored: no pawn can have just passed it"
            ));
        }
        let kept = Self::castling_rights_kept(&fixed, mode);
        if kept != fixed.castling_rights {
            fixed.castling_rights = kept;
            notes.push("castling rights without their king and rook at home ignored".to_owned());
        }
        if notes.is_empty() {
            return Err(refused);
        }
        Self::from_setup_in(fixed, mode, fen)
            .map(|pos| (pos, notes))
            .map_err(|_| refused)
    }

    /// The position as a FEN string.
    fn fen(&self) -> String {
        Fen::from_position(self, EnPassantMode::Legal).to_string()
    }
}

/// The legal captures and promotions of `pos`, by filtering every legal
/// move: [`Pos::noisy_moves`] where nothing faster is known.
#[inline]
fn legal_noisy_moves<P: Position>(pos: &P) -> MoveList {
    let mut moves = pos.legal_moves();
    moves.retain(|m| m.is_capture() || m.is_promotion());
    moves
}

impl Pos for Chess {
    const KINGS_CAPTURABLE: bool = false;

    fn from_setup_in(setup: Setup, mode: CastlingMode, fen: &str) -> Result<Chess, RulesError> {
        Chess::from_setup(setup, mode).map_err(|e| RulesError::InvalidPosition {
            fen: fen.to_owned(),
            reason: describe_position_errors(e.kinds()),
        })
    }

    #[inline]
    fn checkers_bb(&self) -> Bitboard {
        self.checkers()
    }

    #[inline]
    fn extinct(&self, _color: Color) -> bool {
        false
    }

    #[inline]
    fn key_ep_square(&self) -> Option<Square> {
        let ep = self.maybe_ep_square()?;
        // Most double pushes have no pawn beside them: skip the legality
        // test then.
        let ours = self.board().pawns() & self.board().by_color(self.turn());
        if (shakmaty::attacks::pawn_attacks(!self.turn(), ep) & ours).is_empty() {
            return None;
        }
        self.legal_ep_square()
    }

    /// Out of check, the captures and promotions alone, in the order
    /// shakmaty's `legal_moves` lists them (filtered): en passant, pawn
    /// captures towards the a-file then the h-file (plain, then
    /// promotions, each by target square), promotions by a push, the
    /// knights', bishops', rooks', queens' and king's captures (by origin,
    /// then target); then the moves of pinned pieces that leave their line
    /// are dropped. In check, every legal move filtered, as the default.
    fn fill_noisy_moves(&self, moves: &mut MoveList) {
        use shakmaty::attacks;
        let board = self.board();
        let us = self.turn();
        let king = match board.king_of(us) {
            Some(k) if self.checkers().is_empty() => k,
            _ => {
                *moves = legal_noisy_moves(self);
                return;
            }
        };
        let ours = board.by_color(us);
        let them = board.by_color(!us);
        let occupied = board.occupied();
        let pawns = board.pawns() & ours;
        moves.clear();
        let promote = |moves: &mut MoveList, from, to, capture| {
            for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(p),
                });
            }
        };
        let mut en_passant = false;
        if let Some(to) = self.maybe_ep_square() {
            for from in pawns & attacks::pawn_attacks(!us, to) {
                moves.push(Move::EnPassant { from, to });
                en_passant = true;
            }
        }
        let [west, east] = pawn_captures(pawns, us);
        let push = match us {
            Color::White => 8,
            Color::Black => -8,
        };
        for (targets, offset) in [(west & them, push - 1), (east & them, push + 1)] {
            for to in targets & !Bitboard::BACKRANKS {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from: to.offset(-offset).unwrap_or(to),
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
            for to in targets & Bitboard::BACKRANKS {
                promote(
                    moves,
                    to.offset(-offset).unwrap_or(to),
                    to,
                    board.role_at(to),
                );
            }
        }
        for to in pawns.shift(push) & !occupied & Bitboard::BACKRANKS {
            promote(moves, to.offset(-push).unwrap_or(to), to, None);
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & ours {
                for to in attacks::attacks(from, role.of(us), occupied) & them {
                    moves.push(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
        }
        for to in attacks::king_attacks(king) & them {
            if board.attacks_to(to, !us, occupied).is_empty() {
                moves.push(Move::Normal {
                    role: Role::King,
                    from: king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
        // Pieces pinned to the king: alone between it and an enemy slider.
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if !between.more_than_one() {
                pinned |= between;
            }
        }
        if pinned.any() || en_passant {
            moves.retain(|m| match *m {
                Move::Normal { from, to, .. } => {
                    !pinned.contains(from) || attacks::aligned(from, to, king)
                }
                Move::EnPassant { from, to } => {
                    let taken = Square::from_coords(to.file(), from.rank());
                    let after = occupied.without(from).without(taken).with(to);
                    board.attacks_to(king, !us, after).without(taken).is_empty()
                }
                _ => true,
            });
        }
    }

    fn check_squares(&self) -> CheckSquares {
        CheckSquares::of(self.board(), self.turn())
    }

    /// A plain move by the check squares (a direct check lands on one, a
    /// discovered one moves a blocker off its line); promotions, castling
    /// and en passant as [`Pos::gives_check`] finds them.
    #[inline]
    fn gives_check_by(&self, squares: &CheckSquares, m: Move) -> bool {
        if let Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        } = m
            && let Some(checks) = squares.plain_move_checks(role, from, to)
        {
            return checks;
        }
        Pos::gives_check(self, m)
    }

    /// Direct and discovered checks from attack tables, without playing
    /// the move.
    fn gives_check(&self, m: Move) -> bool {
        let board = self.board();
        let us = self.turn();
        let Some(king) = board.king_of(!us) else {
            return false;
        };
        let ours = board.by_color(us);
        let occupied = board.occupied();
        // The squares that empty and fill, and the piece that lands where.
        let (vacated, filled, landing) = match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => (
                Bitboard::from_square(from),
                Bitboard::from_square(to),
                Some((to, promotion.unwrap_or(role))),
            ),
            Move::EnPassant { from, to } => (
                Bitboard::from_square(from)
                    | Bitboard::from_square(Square::from_coords(to.file(), from.rank())),
                Bitboard::from_square(to),
                Some((to, Role::Pawn)),
            ),
            Move::Castle { king: k, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < k);
                let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                let king_to = Square::from_coords(side.king_to_file(), k.rank());
                (
                    Bitboard::from_square(k) | Bitboard::from_square(rook),
                    Bitboard::from_square(rook_to) | Bitboard::from_square(king_to),
                    Some((rook_to, Role::Rook)),
                )
            }
            Move::Put { .. } => return false,
        };
        let after = (occupied & !vacated) | filled;
        if let Some((sq, role)) = landing
            && shakmaty::attacks::attacks(sq, role.of(us), after).contains(king)
        {
            return true;
        }
        // Discovered: one of our other sliders now sees the king.
        let movers = vacated | filled;
        let rooks = (board.rooks() | board.queens()) & ours & !movers;
        let bishops = (board.bishops() | board.queens()) & ours & !movers;
        (shakmaty::attacks::rook_attacks(king, after) & rooks).any()
            || (shakmaty::attacks::bishop_attacks(king, after) & bishops).any()
    }
}

/// The squares from which each of the side to move's roles would check the
/// opponent's king, and the pieces of the side to move whose leaving a
/// line uncovers a check ([`Pos::check_squares`]).
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// The opponent's king (`None`: no check can be given).
    king: Option<Square>,
    /// By role (pawn .. king): where a piece of that role checks.
    by_role: [Bitboard; 6],
    /// Our pieces alone between one of our sliders and the king.
    blockers: Bitboard,
}

impl CheckSquares {
    /// No king to check.
    pub const NONE: CheckSquares = CheckSquares {
        king: None,
        by_role: [Bitboard::EMPTY; 6],
        blockers: Bitboard::EMPTY,
    };

    /// The check squares of `board` for `us` to move.
    fn of(board: &shakmaty::Board, us: Color) -> CheckSquares {
        use shakmaty::attacks;
        let Some(king) = board.king_of(!us) else {
            return CheckSquares::NONE;
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        let snipers = (attacks::bishop_attacks(king, Bitboard::EMPTY)
            & (board.bishops() | board.queens())
            | attacks::rook_attacks(king, Bitboard::EMPTY) & (board.rooks() | board.queens()))
            & ours;
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if between.count() == 1 {
                blockers |= between & ours;
            }
        }
        CheckSquares {
            king: Some(king),
            by_role: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            blockers,
        }
    }

    /// Whether a plain move (no promotion, castling or en passant) of
    /// `role` from `from` to `to` gives check; `None` for a king of none.
    #[inline]
    fn plain_move_checks(&self, role: Role, from: Square, to: Square) -> Option<bool> {
        let king = self.king?;
        Some(
            self.by_role[role as usize - 1].contains(to)
                || (self.blockers.contains(from) && !shakmaty::attacks::aligned(from, to, king)),
        )
    }
}

/// A FEN's setup, refusing the fields of variants Tally does not play
/// (crazyhouse pockets, three-check counters), which shakmaty reads.
fn parse_fen(fen: &str) -> Result<Setup, RulesError> {
    let refuse = |reason: String| RulesError::InvalidFen {
        fen: fen.to_owned(),
        reason,
    };
    let setup = fen
        .parse::<Fen>()
        .map_err(|e| refuse(e.to_string()))?
        .into_setup();
    if setup.pockets.is_some() {
        return Err(refuse(
            "it has crazyhouse pockets, which no variant of Tally has".to_owned(),
        ));
    }
    if setup.remaining_checks.is_some() {
        return Err(refuse(
            "it has three-check counters, which no variant of Tally has".to_owned(),
        ));
    }
    Ok(setup)
}

/// A readable list of what shakmaty found wrong with a setup.
/// Whether a pawn of the side not to move can have just passed `ep` by a
/// double push: `ep` on the mover's sixth rank and empty, the pawn beyond
/// it, the square it came from empty.
fn ep_square_possible(setup: &Setup, ep: Square) -> bool {
    let board = &setup.board;
    let them = !setup.turn;
    let pushed_to = Square::from_coords(ep.file(), them.relative_rank(shakmaty::Rank::Fourth));
    let pushed_from = Square::from_coords(ep.file(), them.relative_rank(shakmaty::Rank::Second));
    ep.rank() == setup.turn.relative_rank(shakmaty::Rank::Sixth)
        && (board.pawns() & board.by_color(them)).contains(pushed_to)
        && !board.occupied().contains(ep)
        && !board.occupied().contains(pushed_from)
}

pub(crate) fn describe_position_errors(kinds: PositionErrorKinds) -> String {
    let names = [
        (PositionErrorKinds::EMPTY_BOARD, "empty board"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (PositionErrorKinds::TOO_MANY_KINGS, "too many kings"),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns on a back rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "invalid castling rights",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "invalid en-passant square",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "impossible check"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "too much material"),
        (
            PositionErrorKinds::VARIANT,
            "not a position of this variant",
        ),
    ];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, n)| *n)
        .collect();
    if parts.is_empty() {
        "invalid position".to_owned()
    } else {
        parts.join(", ")
    }
}

// The test-only position helper lives here so every module's tests share it.
/// The squares `color`'s `pawns` capture on: towards the a-file (west)
/// and towards the h-file (east), as seen from White.
pub fn pawn_captures(pawns: Bitboard, color: Color) -> [Bitboard; 2] {
    let not_a = !Bitboard::from(shakmaty::File::A);
    let not_h = !Bitboard::from(shakmaty::File::H);
    match color {
        Color::White => [(pawns & not_a).shift(7), (pawns & not_h).shift(9)],
        Color::Black => [(pawns & not_a).shift(-9), (pawns & not_h).shift(-7)],
    }
}

#[cfg(test)]
pub(crate) fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).expect("test FEN")
}

#[cfg(test)]
pub(crate) fn extinction(fen: &str) -> super::Extinction {
    super::Extinction::from_fen(fen).expect("test FEN")
}

/// Checks [`Pos::noisy_moves`] against the legal moves filtered, order
/// included, in every position of the depth-2 trees below `roots`;
/// returns how many positions it checked.
#[cfg(test)]
pub(crate) fn noisy_moves_agree<P: Pos>(roots: impl IntoIterator<Item = P>) -> usize {
    let mut checked = 0;
    let mut stack: Vec<(P, u32)> = roots.into_iter().map(|p| (p, 2)).collect();
    while let Some((p, d)) = stack.pop() {
        let mut expected = p.legal_moves();
        expected.retain(|m| m.is_capture() || m.is_promotion());
        assert_eq!(Pos::noisy_moves(&p), expected, "{}", p.board());
        checked += 1;
        if d > 0 {
            for m in p.legal_moves() {
                let mut after = p.clone();
                after.play_unchecked(m);
                stack.push((after, d - 1));
            }
        }
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_noisy_moves_are_the_legal_captures_and_promotions_in_order() {
        // Castling, pins, en passant (one that would uncover a rank
        // check), promotions by push and capture, checks.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let checked = noisy_moves_agree(fens.map(chess));
        assert!(checked > 4000, "{checked}");
    }
    #[test]
    fn gives_check_agrees_with_playing() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
            // Discovered checks: the knight on the rook's file, the pawn
            // on the bishop's diagonal; the black rook pins nothing.
            "4k3/8/2P5/1B2N3/8/8/8/r3R1K1 w - - 0 1",
            "6k1/5p2/8/3Q4/8/1q6/5P2/2R1K3 b - - 0 1",
        ];
        for fen in fens {
            let pos = chess(fen);
            let mut stack = vec![(pos, 3)];
            while let Some((p, d)) = stack.pop() {
                for m in p.legal_moves() {
                    let mut after = p.clone();
                    after.play_unchecked(m);
                    assert_eq!(
                        Pos::gives_check(&p, m),
                        after.is_check(),
                        "{} {m:?}",
                        p.fen()
                    );
                    assert_eq!(
                        p.gives_check_by(&p.check_squares(), m),
                        after.is_check(),
                        "{} {m:?} by check squares",
                        p.fen()
                    );
                    if d > 1 {
                        stack.push((after, d - 1));
                    }
                }
            }
        }
    }
}
