//! [`Node`] (a position with its variant state and keys) and [`Rules`] (what
//! is legal in a node, what an action leads to, and which endings a node
//! shows by itself).

use std::marker::PhantomData;

use shakmaty::{Bitboard, CastlingMode, Color, EnPassantMode, Move, MoveList, Setup, Square};

use super::action::{Action, ActionList, ParsedAction};
use super::extra::{Bare, Disk, Extra};
use super::key::{disk_key, extra_key, null_move_key, position_key, update_position_key};
use super::pos::Pos;
use super::{Ending, RulesError, Variant};

/// A position with everything that decides its future: the board, the
/// variant state and the keys.
#[derive(Clone, Debug)]
pub struct Node<P> {
    /// The board position.
    pub pos: P,
    /// The variant state (disk, bare king).
    pub extra: Extra,
    /// The repetition key: position (with [`Pos::key_ep_square`]) and whose
    /// king is a disk.
    pub key: u64,
    /// The en-passant square held in `key`.
    pub key_ep: Option<Square>,
    /// Whether the side to move is in check (the action that led here gave
    /// check).
    pub check: bool,
}

impl<P: Pos> Node<P> {
    /// The key for hashing search results: the repetition key plus the
    /// variant state that changes legality or awards.
    #[inline]
    pub fn search_key(&self) -> u64 {
        self.key ^ extra_key(&self.extra)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The FEN of the board (variant state is not part of FEN).
    pub fn fen(&self) -> String {
        self.pos.fen()
    }
}

/// The rules of one variant on position type `P`.
///
/// `Rules<Chess>` plays every variant on standard rules, `Rules<Extinction>`
/// plays extinction; [`AnyRules::of`](super::AnyRules::of) picks the right one
/// for a runtime [`Variant`].
///
/// # Which method to use when
///
/// Outside the crate there is one way to do each thing; the fast paths
/// that only the search and perft need are crate-private (`pub(crate)`),
/// listed here so that they are found, not reinvented.
///
/// | To | Use | Who |
/// |---|---|---|
/// | list the legal actions (moves, then specials) | [`Rules::legal_actions`] | everyone |
/// | list the chess moves alone (variant restrictions applied) | [`Rules::legal_moves`] | everyone |
/// | resolve an action's text against the legal ones | [`Rules::parse_action`] | everyone |
/// | play a legal action | [`Rules::play`] | everyone |
/// | parse, check and play an action's text | [`Rules::play_text`] | everyone |
/// | the ending a node shows by itself | [`Rules::position_ending`] | everyone |
/// | whether insufficient material ends the game | [`Rules::insufficient_material`] | everyone |
/// | list the actions and get the position ending at once | `generate` | search |
/// | the captures and promotions (quiescence) | `noisy_actions` | search |
/// | the special actions alone | `special_actions` | search, serve |
/// | a cheap "surely has a move" test | `surely_has_move` | search |
/// | the position ending, the moves' emptiness known | `position_ending_given` | search |
/// | play into a node slot the caller owns | `play_into` | search |
/// | pass the turn (null move) | `play_null` | search |
/// | count the legal actions | `count_actions` | perft |
/// | play in place, **keys left stale** | `play_perft_in_place` | perft only |
///
/// A game with its history (repetition, the move rules, the record) is a
/// [`Game`](super::Game): [`Game::play`](super::Game::play) and
/// [`Game::ending`](super::Game::ending) check everything above for you.
#[derive(Debug)]
pub struct Rules<P> {
    variant: Variant,
    specials: bool,
    chess960: bool,
    _pos: PhantomData<fn() -> P>,
}

impl<P> Clone for Rules<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for Rules<P> {}

/// Whether `color` has nothing but kings (a bare king).
#[inline]
fn is_bare(board: &shakmaty::Board, color: Color) -> bool {
    (board.by_color(color) & !board.kings()).is_empty()
}

/// The bare-king state before a move, with what of the old position the
/// state after it depends on (so the move can be played in place).
#[derive(Clone, Copy)]
struct BareBefore {
    bare: Bare,
    mover: Color,
    capture: bool,
    opponent_was_bare: bool,
}

impl BareBefore {
    /// The bare-king state once the move has left `after` on the board.
    #[inline]
    fn after(self, after: &shakmaty::Board) -> Bare {
        match self.bare {
            Bare::Reply { barer } => {
                if is_bare(after, barer) {
                    Bare::Mutual { first: barer }
                } else {
                    Bare::Claim { barer }
                }
            }
            Bare::Claim { .. } => Bare::Done,
            Bare::None
                if self.capture
                    && is_bare(after, !self.mover)
                    && !self.opponent_was_bare
                    && !is_bare(after, self.mover) =>
            {
                Bare::Reply { barer: self.mover }
            }
            other => other,
        }
    }
}

impl<P: Pos> Rules<P> {
    /// Rules for `variant`. The position type must be the variant's:
    /// [`Extinction`](super::Extinction) for `extinction`, shakmaty's `Chess`
    /// for the others (see [`AnyRules::of`](super::AnyRules::of)).
    pub fn new(variant: Variant) -> Rules<P> {
        debug_assert_eq!(variant.is_extinction(), P::KINGS_CAPTURABLE);
        Rules {
            variant,
            specials: true,
            chess960: false,
            _pos: PhantomData,
        }
    }

    /// The same rules with the special actions (`disk`, `swap`, `restore`,
    /// `claim`) allowed or not. Without them a variant plays only chess
    /// moves (docs/rules.md, "Special actions over UCI"); they are allowed by default.
    pub fn with_specials(self, specials: bool) -> Rules<P> {
        Rules { specials, ..self }
    }

    /// Whether special actions are allowed.
    pub fn specials(&self) -> bool {
        self.specials
    }

    /// The same rules with Chess960 (Fischer random) castling or not: FENs
    /// are read with X-FEN or Shredder-FEN castling rights (the king and
    /// its rooks anywhere on the back rank), and actions are written with
    /// castling as king takes rook ([`Rules::text`]). Off by default. The
    /// moves of a position follow from its castling rights either way.
    pub fn with_chess960(self, chess960: bool) -> Rules<P> {
        Rules { chess960, ..self }
    }

    /// Whether FENs and actions are read and written as Chess960.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The castling mode FENs are read in: [`CastlingMode::Chess960`] under
    /// [`Rules::with_chess960`], else standard.
    pub fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    /// The UCI text of `action` under these rules: in Chess960, castling
    /// as king takes rook (`e1h1`); else as [`Action`]'s `Display`.
    pub fn text(&self, action: Action) -> super::UciText {
        action.uci(self.castling_mode())
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// A root node for a position, with no variant state.
    pub fn root(&self, pos: P) -> Node<P> {
        let key_ep = pos.key_ep_square();
        let extra = Extra::default();
        Node {
            key: position_key(&pos) ^ disk_key(extra.disk),
            check: pos.in_check(),
            key_ep,
            extra,
            pos,
        }
    }

    /// The root node of the standard starting position.
    pub fn start(&self) -> Node<P> {
        let pos = P::from_setup(Setup::initial(), CastlingMode::Standard)
            .unwrap_or_else(|_| unreachable!("the initial position is valid under both rule sets"));
        self.root(pos)
    }

    /// The root node of a FEN (`startpos` is accepted too), read leniently
    /// ([`Pos::from_fen_noting`]: an impossible en-passant square or
    /// castling right is dropped).
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`].
    pub fn from_fen(&self, fen: &str) -> Result<Node<P>, RulesError> {
        if fen.trim() == "startpos" {
            return Ok(self.start());
        }
        P::from_fen_noting_in(fen, self.castling_mode()).map(|(p, _)| self.root(p))
    }

    /// The legal chess moves in `node`, with the variant's restrictions: a
    /// frozen (disk) king does not move or castle; compulsory
    /// capture-or-check in tiebraker.
    #[inline]
    pub fn legal_moves(&self, node: &Node<P>) -> MoveList {
        // Returned straight from the generator outside tiebraker: the list
        // (kilobytes) is then built in the caller's place, not copied there.
        if !self.variant.has_disk() {
            return node.pos.legal_moves();
        }
        let mut moves = node.pos.legal_moves();
        self.restrict_disk(node, &mut moves);
        moves
    }

    /// Appends the legal captures and promotions in `node` (for
    /// quiescence) to `out`, in the order of [`Rules::legal_moves`], with
    /// the frozen-king restriction. Capture-or-check never removes a
    /// capture, so it needs no filter here. See [`Pos::noisy_moves`] for
    /// how they are generated. The moves are read in place: a move list is
    /// kilobytes, and every move of it would be copied.
    #[inline]
    pub(crate) fn noisy_actions(&self, node: &Node<P>, out: &mut ActionList) {
        let frozen =
            self.variant.has_disk() && node.extra.disk.disk_holder() == Some(node.pos.turn());
        let mut moves = MoveList::new();
        node.pos.fill_noisy_moves(&mut moves);
        for &m in &moves {
            if !(frozen && m.role() == shakmaty::Role::King) {
                let _ = out.try_push(Action::Move(m));
            }
        }
    }

    fn restrict_disk(&self, node: &Node<P>, moves: &mut MoveList) {
        let turn = node.pos.turn();
        if node.extra.disk.disk_holder() == Some(turn) {
            moves.retain(|m| m.role() != shakmaty::Role::King);
        }
        if node.extra.disk.compulsory() && !node.check && moves.iter().any(|m| m.is_capture()) {
            moves.retain(|m| m.is_capture() || node.pos.gives_check(*m));
        }
    }

    /// The special actions legal in `node`, assuming the game is not over.
    pub(crate) fn special_actions(&self, node: &Node<P>) -> arrayvec::ArrayVec<Action, 2> {
        let mut out = arrayvec::ArrayVec::new();
        if !self.specials {
            return out;
        }
        let turn = node.pos.turn();
        if self.variant.has_disk() {
            match node.extra.disk {
                Disk::None if !node.check => out.push(Action::Disk),
                Disk::Offered { by } if by != turn => {
                    out.push(Action::Swap);
                    out.push(Action::Restore);
                }
                _ => {}
            }
        }
        if self.variant.has_claim()
            && let Bare::Claim { barer } = node.extra.bare
            && barer == turn
        {
            out.push(Action::Claim);
        }
        out
    }

    /// Generates the legal actions of `node` into `out` (moves, then special
    /// actions) and returns the node's position ending, if it has one (then
    /// `out` is empty): checkmate, stalemate, extinction, a claim, mutual bare
    /// kings. Endings that need the history (repetition, move rules,
    /// insufficient material) are the caller's to check.
    pub(crate) fn generate(&self, node: &Node<P>, out: &mut ActionList) -> Option<Ending> {
        out.clear();
        let moves = self.legal_moves(node);
        if let Some(e) = self.position_ending_given(node, !moves.is_empty()) {
            return Some(e);
        }
        // By reference: consuming the list would move its kilobyte first.
        for &m in &moves {
            let _ = out.try_push(Action::Move(m));
        }
        for a in self.special_actions(node) {
            let _ = out.try_push(a);
        }
        None
    }

    /// All legal actions: moves, then special actions; empty when the node
    /// is finished by a position ending (see [`Rules::position_ending`]).
    /// Written into `out` (cleared first).
    pub fn legal_actions(&self, node: &Node<P>, out: &mut ActionList) {
        let _ = self.generate(node, out);
    }

    /// Whether the side to move in `node` surely has a legal move, by a
    /// test much cheaper than generating the moves (`false`: not known).
    /// Out of check, a knight, bishop, rook or queen with a square to go to
    /// has a legal move if taking it off the board leaves its king
    /// unattacked (where kings can be captured, always). The variants'
    /// restrictions never empty such a list: a frozen king is a king, and
    /// capture-or-check keeps the captures.
    pub(crate) fn surely_has_move(&self, node: &Node<P>) -> bool {
        if node.check {
            return false;
        }
        let board = node.pos.board();
        let us = node.pos.turn();
        let ours = board.by_color(us);
        let king = board.king_of(us);
        let pieces = ours & !board.kings() & !board.pawns();
        pieces.into_iter().any(|sq| {
            (board.attacks_from(sq) & !ours).any()
                && (P::KINGS_CAPTURABLE
                    || king.is_some_and(|k| {
                        board
                            .attacks_to(k, !us, board.occupied().without(sq))
                            .is_empty()
                    }))
        })
    }

    /// The number of legal actions, as [`Rules::legal_actions`] would list.
    #[inline]
    pub(crate) fn count_actions(&self, node: &Node<P>) -> usize {
        let n = self.legal_moves(node).len();
        if self.position_ending_given(node, n > 0).is_some() {
            return 0;
        }
        n + self.special_actions(node).len()
    }

    /// The node with the other side to move and nothing else changed (a
    /// null move, for the search), or `None` when the side to move is in
    /// check.
    pub(crate) fn play_null(&self, node: &Node<P>) -> Option<Node<P>> {
        if node.check {
            return None;
        }
        let pos = pass_turn(&node.pos);
        if pos.turn() == node.pos.turn() {
            return None;
        }
        let key_ep = pos.key_ep_square();
        Some(Node {
            key: null_move_key(node.key, node.key_ep, key_ep),
            check: false,
            pos,
            extra: node.extra,
            key_ep,
        })
    }

    #[inline]
    fn extinction_winner(&self, node: &Node<P>) -> Option<Color> {
        let turn = node.pos.turn();
        if node.pos.extinct(turn) {
            Some(!turn)
        } else if node.pos.extinct(!turn) {
            Some(turn)
        } else {
            None
        }
    }

    /// Plays a legal action.
    ///
    /// The action must be legal in `node` (as listed by
    /// [`Rules::legal_actions`]); use [`Rules::play_text`] or [`Game::play`](super::Game::play) otherwise.
    pub fn play(&self, node: &Node<P>, action: Action) -> Node<P> {
        match action {
            Action::Move(m) => self.play_move(node, m),
            special => self.play_special(node, special),
        }
    }

    /// [`Rules::play`] written into `child` (whatever it held before): the
    /// search's form, since a node returned by value is built aside and
    /// then copied into its place.
    #[inline]
    pub(crate) fn play_into(&self, node: &Node<P>, action: Action, child: &mut Node<P>) {
        match action {
            Action::Move(m) => self.play_move_into(node, m, child),
            special => *child = self.play_special(node, special),
        }
    }

    /// Plays a legal chess move.
    #[inline]
    fn play_move(&self, node: &Node<P>, m: Move) -> Node<P> {
        let mut child = node.clone();
        self.play_move_into(node, m, &mut child);
        child
    }

    /// [`Rules::play_move`] written into `child`.
    #[inline]
    fn play_move_into(&self, node: &Node<P>, m: Move, child: &mut Node<P>) {
        let mover = node.pos.turn();
        child.pos.clone_from(&node.pos);
        child.pos.play_move(m);
        let (mut key, key_ep) =
            update_position_key(node.key, &node.pos, node.key_ep, m, &child.pos);
        let mut extra = node.extra;
        if self.variant.has_disk() {
            let disk = extra.disk.after_move(mover);
            key ^= disk_key(extra.disk) ^ disk_key(disk);
            extra.disk = disk;
        }
        if self.variant.has_claim() {
            extra.bare = self.bare_after(node, m, &child.pos);
        }
        child.check = child.pos.in_check();
        child.extra = extra;
        child.key = key;
        child.key_ep = key_ep;
    }

    /// Plays a legal action on `node` itself (the caller copies the parent
    /// once, as a plain perft copies its position), without maintaining
    /// what only the search and game records need: **the keys are left
    /// stale**, and outside tiebraker (where legality depends on it) the
    /// check flag is not computed. For perft, which only counts; anything
    /// that hashes, searches or records the child uses [`Rules::play`].
    #[inline]
    pub(crate) fn play_perft_in_place(&self, node: &mut Node<P>, action: Action) {
        let Action::Move(m) = action else {
            *node = self.play_special(node, action);
            return;
        };
        let mover = node.pos.turn();
        let bare = if self.variant.has_claim() {
            Some(self.bare_before(node, m))
        } else {
            None
        };
        node.pos.play_move(m);
        node.key_ep = None;
        node.check = false;
        if self.variant.has_disk() {
            node.extra.disk = node.extra.disk.after_move(mover);
            node.check = node.pos.in_check();
        }
        if let Some(bare) = bare {
            node.extra.bare = bare.after(node.pos.board());
        }
    }

    fn bare_after(&self, before: &Node<P>, m: Move, after: &P) -> Bare {
        self.bare_before(before, m).after(after.board())
    }

    /// What the bare-king state after `m` depends on in the position before
    /// it.
    #[inline]
    fn bare_before(&self, before: &Node<P>, m: Move) -> BareBefore {
        let mover = before.pos.turn();
        BareBefore {
            bare: before.extra.bare,
            mover,
            capture: m.is_capture(),
            opponent_was_bare: is_bare(before.pos.board(), !mover),
        }
    }

    fn play_special(&self, node: &Node<P>, action: Action) -> Node<P> {
        let turn = node.pos.turn();
        let mut extra = node.extra;
        match action {
            Action::Disk => extra.disk = Disk::Offered { by: turn },
            Action::Swap => {
                extra.disk = Disk::Swapped {
                    disk: turn,
                    plies: 0,
                }
            }
            Action::Restore => extra.disk = Disk::Restored { first: !turn },
            Action::Claim => extra.bare = Bare::Claimed { barer: turn },
            Action::Move(_) => {}
        }
        let pos = pass_turn(&node.pos);
        let key_ep = pos.key_ep_square();
        Node {
            key: position_key(&pos) ^ disk_key(extra.disk),
            check: false,
            pos,
            extra,
            key_ep,
        }
    }

    /// Parses and plays an action text, checking legality.
    ///
    /// # Errors
    ///
    /// [`RulesError::UnparsableAction`], [`RulesError::IllegalAction`].
    pub fn play_text(&self, node: &Node<P>, text: &str) -> Result<(Action, Node<P>), RulesError> {
        let action = self.parse_action(node, text)?;
        Ok((action, self.play(node, action)))
    }

    /// Resolves an action text against the legal actions of `node`.
    ///
    /// # Errors
    ///
    /// [`RulesError::UnparsableAction`] when the text is no action,
    /// [`RulesError::IllegalAction`] when it is not legal here (with the
    /// reason where one is known).
    pub fn parse_action(&self, node: &Node<P>, text: &str) -> Result<Action, RulesError> {
        let parsed: ParsedAction = text
            .parse()
            .map_err(|_| RulesError::UnparsableAction(text.trim().to_owned()))?;
        let mut legal = ActionList::new();
        self.legal_actions(node, &mut legal);
        parsed
            .resolve(&legal)
            .ok_or_else(|| RulesError::IllegalAction {
                action: text.trim().to_owned(),
                reason: self.why_illegal(node, parsed),
            })
    }

    fn why_illegal(&self, node: &Node<P>, parsed: ParsedAction) -> String {
        match parsed {
            ParsedAction::Special(a) => {
                let ok_variant = match a {
                    Action::Claim => self.variant.has_claim(),
                    _ => self.variant.has_disk(),
                };
                if !ok_variant {
                    format!("'{a}' does not exist in {}", self.variant)
                } else {
                    format!("'{a}' is not allowed in this position")
                }
            }
            ParsedAction::Uci(_) => {
                if self.position_ending(node).is_some() {
                    "the game is over".to_owned()
                } else if self.variant.has_disk() && node.extra.disk.compulsory() && !node.check {
                    "not a legal move here (a frozen king, or capture-or-check is compulsory)"
                        .to_owned()
                } else {
                    String::new()
                }
            }
        }
    }

    /// The endings a node shows by itself, in the specification's order of
    /// precedence: checkmate, stalemate, extinction, mutual bare kings (and
    /// an accepted claim, which ends the game at once). `has_moves` says
    /// whether [`Rules::legal_moves`] is non-empty: the search's form, which
    /// has the moves already; [`Rules::position_ending`] generates them.
    ///
    /// The specification puts "no legal move" before extinction; that order
    /// is kept literally.
    #[inline]
    pub(crate) fn position_ending_given(&self, node: &Node<P>, has_moves: bool) -> Option<Ending> {
        let turn = node.pos.turn();
        if let Bare::Claimed { barer } = node.extra.bare {
            return Some(Ending::Claim { claimer: barer });
        }
        if !has_moves {
            return Some(if node.check {
                Ending::Checkmate { winner: !turn }
            } else {
                Ending::Stalemate { stalemated: turn }
            });
        }
        if P::KINGS_CAPTURABLE
            && let Some(winner) = self.extinction_winner(node)
        {
            return Some(Ending::Extinction { winner });
        }
        if let Bare::Mutual { first } = node.extra.bare {
            return Some(Ending::MutualBare { first });
        }
        None
    }

    /// The endings a node shows by itself, in the specification's order of
    /// precedence: checkmate, stalemate, extinction, mutual bare kings (and
    /// an accepted claim, which ends the game at once). Endings that need
    /// the history (repetition, move rules) are [`Game`](super::Game)'s.
    pub fn position_ending(&self, node: &Node<P>) -> Option<Ending> {
        let has_moves = !self.legal_moves(node).is_empty();
        self.position_ending_given(node, has_moves)
    }

    /// Whether the insufficient-material rule ends the game in `node`.
    pub fn insufficient_material(&self, node: &Node<P>) -> bool {
        self.variant.has_insufficient_material()
            && !node.extra.bare.pending()
            && material_cannot_mate(node.pos.board())
    }
}

/// The specification's insufficient material: king against king; king and
/// one bishop or knight against a lone king; kings and bishops only, all
/// bishops on squares of one colour.
fn material_cannot_mate(board: &shakmaty::Board) -> bool {
    let non_kings = board.occupied() & !board.kings();
    if non_kings.is_empty() {
        return true;
    }
    let minors = board.bishops() | board.knights();
    if non_kings.count() == 1 && (non_kings & minors).any() {
        return true;
    }
    if non_kings == board.bishops() {
        let b = board.bishops();
        return (b & Bitboard::LIGHT_SQUARES).is_empty() || (b & Bitboard::DARK_SQUARES).is_empty();
    }
    false
}

/// The same board with the other side to move: en passant cleared, the
/// halfmove clock kept, the move number advanced after Black.
fn pass_turn<P: Pos>(pos: &P) -> P {
    let mut setup = pos.to_setup(EnPassantMode::Always);
    setup.ep_square = None;
    if setup.turn.is_black() {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.swap_turn();
    match P::from_setup(setup, pos.castles().mode()) {
        Ok(p) => p,
        // Only reachable from a position whose side not to move is in
        // check, which the rules never produce; keep the board as it was.
        Err(_) => pos.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::Extinction;
    use shakmaty::{Chess, Position};

    /// Random games of `variant` (specials on): wherever the quick test
    /// says the side to move has a move, generation finds one; and it says
    /// so in most positions out of check. Returns (sure, out of check).
    fn quick_test_holds<P: Pos>(variant: Variant, seed: u64) -> (usize, usize) {
        let rules = Rules::<P>::new(variant).with_specials(true);
        let (mut sure, mut free) = (0, 0);
        let mut out = ActionList::new();
        for game in 0..40 {
            let mut rng = Rng::for_game(seed, game);
            let mut node = rules.start();
            for _ in 0..200 {
                let ending = rules.generate(&node, &mut out);
                if rules.surely_has_move(&node) {
                    sure += 1;
                    assert!(
                        !rules.legal_moves(&node).is_empty(),
                        "{variant:?}: {}",
                        node.fen()
                    );
                }
                free += usize::from(!node.check);
                if ending.is_some() || out.is_empty() {
                    break;
                }
                node = rules.play(&node, out[rng.below(out.len())]);
            }
        }
        (sure, free)
    }

    /// Random games of `variant`: at every node out of check, the null
    /// move's key (made from the node's) is the key from scratch.
    fn null_keys_hold<P: Pos>(variant: Variant, start: Option<&str>) -> usize {
        let rules = Rules::<P>::new(variant).with_specials(true);
        let mut out = ActionList::new();
        let mut checked = 0;
        for game in 0..20 {
            let mut rng = Rng::for_game(11, game);
            let mut node = start.map_or_else(|| rules.start(), |f| rules.from_fen(f).unwrap());
            for _ in 0..120 {
                if let Some(null) = rules.play_null(&node) {
                    let scratch = position_key(&null.pos) ^ disk_key(null.extra.disk);
                    assert_eq!(null.key, scratch, "{variant:?}: {}", node.fen());
                    assert_eq!(null.key_ep, null.pos.key_ep_square());
                    checked += 1;
                }
                if rules.generate(&node, &mut out).is_some() || out.is_empty() {
                    break;
                }
                node = rules.play(&node, out[rng.below(out.len())]);
            }
        }
        checked
    }

    #[test]
    fn null_move_keys_equal_keys_from_scratch() {
        // An en-passant capture on the board at the start.
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert!(null_keys_hold::<Chess>(Variant::Chess, Some(ep)) > 500);
        assert!(null_keys_hold::<Chess>(Variant::Tiebraker, None) > 500);
        assert!(null_keys_hold::<Extinction>(Variant::Extinction, None) > 500);
    }

    #[test]
    fn the_quick_move_test_never_claims_a_move_that_is_not_there() {
        for variant in [Variant::Chess, Variant::Sets, Variant::Tiebraker] {
            let (sure, free) = quick_test_holds::<Chess>(variant, 7);
            assert!(sure * 10 > free * 8, "{variant:?}: {sure} of {free}");
        }
        let (sure, free) = quick_test_holds::<Extinction>(Variant::Extinction, 7);
        assert!(sure * 10 > free * 8, "extinction: {sure} of {free}");
    }

    #[test]
    fn the_quick_move_test_on_set_positions() {
        let rules = Rules::<Chess>::new(Variant::Dynamic);
        let at = |fen: &str| rules.surely_has_move(&rules.from_fen(fen).unwrap());
        // Stalemated, a knight's every square taken by its own pieces, or
        // in check: not known.
        assert!(!at("k7/8/1K6/4B3/8/8/8/8 b - - 0 1"));
        assert!(!at("k7/8/8/8/8/1P6/2P5/N3K3 w - - 0 1"));
        assert!(!at("4k3/8/8/8/8/3n4/8/R3K3 w - - 0 1"));
        // The only piece pinned to its king: not known, though it may move
        // along the pin.
        assert!(!at("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"));
        // A free rook: a move.
        assert!(at("4k3/8/8/8/8/8/R7/4K3 w - - 0 1"));
        let start = rules.start();
        assert!(rules.surely_has_move(&start) && start.pos.legal_moves().len() == 20);
    }

    #[test]
    fn chess960_fens_castling_and_text() {
        let rules = Rules::<Chess>::new(Variant::Chess).with_chess960(true);
        // X-FEN (outermost rooks) and Shredder-FEN read the same rights.
        let xfen = rules
            .from_fen("rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w KQkq - 0 1")
            .unwrap();
        let shredder = rules
            .from_fen("rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w EAea - 0 1")
            .unwrap();
        assert_eq!(xfen.key, shredder.key);
        assert_eq!(
            xfen.fen(),
            "rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w KQkq - 0 1"
        );
        let mut out = ActionList::new();
        rules.legal_actions(&xfen, &mut out);
        let castles: Vec<String> = out
            .iter()
            .filter(|a| a.as_move().is_some_and(|m| m.is_castle()))
            .map(|&a| rules.text(a).to_string())
            .collect();
        assert_eq!(castles, ["b1e1", "b1a1"]);
        // King takes rook plays the castling; the king's step b1c1 is the
        // plain king move.
        let (a, after) = rules.play_text(&xfen, "b1a1").unwrap();
        assert!(a.as_move().is_some_and(|m| m.is_castle()));
        assert_eq!(
            after.fen(),
            "rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/2KRR3 b kq - 1 1"
        );
        let (step, _) = rules.play_text(&xfen, "b1c1").unwrap();
        assert!(step.as_move().is_some_and(|m| !m.is_castle()));
        // The standard castling reads and writes as king takes rook too.
        let start = rules.start();
        let kiwi = rules
            .from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
        let (oo, _) = rules.play_text(&kiwi, "e1g1").unwrap();
        assert_eq!(rules.text(oo).to_string(), "e1h1");
        assert_eq!(oo.to_string(), "e1g1");
        assert_eq!(start.pos.legal_moves().len(), 20);
        // Without Chess960 the rights are dropped, as rights without their
        // king and rook at home.
        let standard = Rules::<Chess>::new(Variant::Chess)
            .from_fen("rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w EAea - 0 1")
            .unwrap();
        assert!(standard.pos.castles().is_empty());
    }

    #[test]
    fn chess960_castling_in_extinction_and_after_the_disk() {
        // Extinction: the king on f1 castles through the attacked g1.
        let rules = Rules::<Extinction>::new(Variant::Extinction).with_chess960(true);
        let node = rules
            .from_fen("r4kr1/ppp1bppp/2nq1n2/3p4/3P4/2NQ1N1b/PPP1BP1P/R4K1R w AHag - 0 1")
            .unwrap();
        let mut out = ActionList::new();
        rules.legal_actions(&node, &mut out);
        let castles: Vec<String> = out
            .iter()
            .filter(|a| a.as_move().is_some_and(|m| m.is_castle()))
            .map(|&a| rules.text(a).to_string())
            .collect();
        assert_eq!(castles, ["f1h1", "f1a1"]);
        let (_, after) = rules.play_text(&node, "f1h1").unwrap();
        assert_eq!(
            after.fen(),
            "r4kr1/ppp1bppp/2nq1n2/3p4/3P4/2NQ1N1b/PPP1BP1P/R4RK1 b kq - 1 1"
        );
        // Tiebraker: the disk king (wherever it stands) does not castle.
        let rules = Rules::<Chess>::new(Variant::Tiebraker).with_chess960(true);
        let node = rules
            .from_fen("rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w EAea - 0 1")
            .unwrap();
        let (_, offered) = rules.play_text(&node, "disk").unwrap();
        let mut out = ActionList::new();
        rules.legal_actions(&offered, &mut out);
        let accept = out.iter().copied().find(|a| a.as_move().is_some()).unwrap();
        let accepted = rules.play(&offered, accept);
        let mut out = ActionList::new();
        rules.legal_actions(&accepted, &mut out);
        assert!(
            out.iter()
                .all(|a| a.as_move().is_none_or(|m| m.role() != shakmaty::Role::King))
        );
    }
}
