//! [`OnBoard`]: a value of either board kind's type (standard chess or
//! extinction), chosen at run time: a game ([`AnyGame`]) or rules
//! ([`AnyRules`]); and [`with_game!`](crate::with_game), the one place
//! that dispatches on it.
//!
//! The generic rules, scorer and search are monomorphised per position
//! type; code that holds a runtime [`Variant`] keeps its game here (or
//! takes its rules from [`AnyRules::of`]) and reaches the generic code
//! through the macro, the way shakmaty's `VariantPosition` wraps its
//! position types.

use shakmaty::{Chess, Position};

use super::{Action, ActionList, Ending, Extinction, Game, Pos, Rules, RulesError, Variant};

/// The board kinds a variant can play on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Standard chess (every variant but extinction).
    Standard,
    /// Extinction chess.
    Extinction,
}

impl BoardKind {
    /// Every board kind.
    pub const ALL: [BoardKind; 2] = [BoardKind::Standard, BoardKind::Extinction];

    /// The board kind `variant` plays on.
    pub fn of(variant: Variant) -> BoardKind {
        if variant.is_extinction() {
            BoardKind::Extinction
        } else {
            BoardKind::Standard
        }
    }

    /// The rules' name, as `d` shows it.
    pub fn name(self) -> &'static str {
        match self {
            BoardKind::Standard => "standard",
            BoardKind::Extinction => "extinction",
        }
    }
}

/// A value of the standard board's type `S` or of extinction's `E`.
#[derive(Clone, Debug)]
pub enum OnBoard<S, E> {
    /// Standard rules (every variant but extinction).
    Standard(S),
    /// Extinction rules.
    Extinction(E),
}

/// A game on either board kind.
pub type AnyGame = OnBoard<Game<Chess>, Game<Extinction>>;

/// The rules of either board kind.
pub type AnyRules = OnBoard<Rules<Chess>, Rules<Extinction>>;

/// Runs `$body` with `$g` bound to the value inside an [`OnBoard`] (the
/// [`Game`] of an [`AnyGame`], the [`Rules`] of an [`AnyRules`]), by value,
/// reference or mutable reference, as `$any` is.
///
/// This is how code that holds a runtime [`Variant`] reaches the generic,
/// monomorphised rules, scorer and search:
/// `with_game!(AnyRules::of(variant), |rules| ...)`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, |$g:ident| $body:expr) => {
        match $any {
            $crate::rules::OnBoard::Standard($g) => $body,
            $crate::rules::OnBoard::Extinction($g) => $body,
        }
    };
}

impl<S, E> OnBoard<S, E> {
    /// The board kind.
    pub fn kind(&self) -> BoardKind {
        match self {
            OnBoard::Standard(_) => BoardKind::Standard,
            OnBoard::Extinction(_) => BoardKind::Extinction,
        }
    }
}

impl AnyRules {
    /// The rules of the board `variant` plays on ([`BoardKind::of`]).
    pub fn of(variant: Variant) -> AnyRules {
        match BoardKind::of(variant) {
            BoardKind::Standard => OnBoard::Standard(Rules::new(variant)),
            BoardKind::Extinction => OnBoard::Extinction(Rules::new(variant)),
        }
    }
}

impl From<Game<Chess>> for AnyGame {
    fn from(g: Game<Chess>) -> AnyGame {
        AnyGame::Standard(g)
    }
}

impl From<Game<Extinction>> for AnyGame {
    fn from(g: Game<Extinction>) -> AnyGame {
        AnyGame::Extinction(g)
    }
}

impl AnyGame {
    /// A new game of `variant` from the standard position, or from `fen`,
    /// special actions allowed or not.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`].
    pub fn new(variant: Variant, specials: bool, fen: Option<&str>) -> Result<AnyGame, RulesError> {
        AnyGame::new_in(variant, specials, false, fen)
    }

    /// [`AnyGame::new`], under Chess960 castling or not
    /// ([`Rules::with_chess960`]).
    ///
    /// # Errors
    ///
    /// As [`AnyGame::new`].
    pub fn new_in(
        variant: Variant,
        specials: bool,
        chess960: bool,
        fen: Option<&str>,
    ) -> Result<AnyGame, RulesError> {
        with_game!(AnyRules::of(variant), |rules| Game::new(
            rules.with_specials(specials).with_chess960(chess960),
            fen
        )
        .map(Into::into))
    }

    /// A new game of `variant` from the standard position.
    pub fn start(variant: Variant, specials: bool) -> AnyGame {
        AnyGame::start_in(variant, specials, false)
    }

    /// [`AnyGame::start`], under Chess960 castling or not.
    pub fn start_in(variant: Variant, specials: bool, chess960: bool) -> AnyGame {
        with_game!(AnyRules::of(variant), |rules| {
            let rules = rules.with_specials(specials).with_chess960(chess960);
            Game::from_node(rules, rules.start()).into()
        })
    }

    /// What reading `fen` under `variant`'s board kind ignores (see
    /// [`Pos::from_fen_noting`]).
    ///
    /// # Errors
    ///
    /// As [`Pos::from_fen_noting`].
    pub fn fen_notes(variant: Variant, fen: &str) -> Result<Vec<String>, RulesError> {
        AnyGame::fen_notes_in(variant, false, fen)
    }

    /// [`AnyGame::fen_notes`], under Chess960 castling or not.
    ///
    /// # Errors
    ///
    /// As [`Pos::from_fen_noting`].
    pub fn fen_notes_in(
        variant: Variant,
        chess960: bool,
        fen: &str,
    ) -> Result<Vec<String>, RulesError> {
        let mode = shakmaty::CastlingMode::from_chess960(chess960);
        match BoardKind::of(variant) {
            BoardKind::Standard => Chess::from_fen_noting_in(fen, mode).map(|(_, n)| n),
            BoardKind::Extinction => Extinction::from_fen_noting_in(fen, mode).map(|(_, n)| n),
        }
    }

    /// Whether the game reads and writes Chess960 ([`Rules::with_chess960`]).
    pub fn chess960(&self) -> bool {
        with_game!(self, |g| g.rules().chess960())
    }

    /// The UCI text of `action` under the game's rules ([`Rules::text`]).
    pub fn text(&self, action: Action) -> String {
        with_game!(self, |g| g.rules().text(action).to_string())
    }

    /// The actions played.
    pub fn actions(&self) -> &[Action] {
        with_game!(self, |g| g.actions())
    }

    /// Plays an action given as text.
    ///
    /// # Errors
    ///
    /// A [`RulesError`] if it is unparsable or not legal (nothing changes).
    pub fn play_text(&mut self, text: &str) -> Result<Action, RulesError> {
        with_game!(self, |g| g.play_text(text))
    }

    /// Plays an action given as text past an ending that leaves moves
    /// ([`Game::play_text_past_end`]).
    ///
    /// # Errors
    ///
    /// A [`RulesError`] if it is unparsable or not on the board, or after
    /// checkmate, stalemate or extinction (nothing changes).
    pub fn play_text_past_end(&mut self, text: &str) -> Result<Action, RulesError> {
        with_game!(self, |g| g.play_text_past_end(text))
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        with_game!(self, |g| g.current().fen())
    }

    /// The FEN of the start position.
    pub fn start_fen(&self) -> String {
        with_game!(self, |g| g.start().fen())
    }

    /// The side to move.
    pub fn turn(&self) -> shakmaty::Color {
        with_game!(self, |g| g.current().turn())
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        with_game!(self, |g| g.current().check)
    }

    /// The shakmaty board of the current position.
    pub fn board(&self) -> &shakmaty::Board {
        with_game!(self, |g| g.current().pos.board())
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        with_game!(self, |g| g.ending())
    }

    /// The legal actions in the current position.
    pub fn legal_actions(&self) -> ActionList {
        with_game!(self, |g| g.legal_actions())
    }
}
