//! The self-play data format: a file header, then whole games, each a
//! fixed game header, its start position and one fixed 64-byte record per
//! searched position. The byte layout is documented in `docs/datagen.md`;
//! this module is its only reader and writer.
//!
//! What lives here: [`Record`] (one position with everything the rules and
//! the scorer need to re-create it, plus the search's score, the game's
//! result and the point margin still to come), [`DataGame`], the file
//! header, encoding and decoding, and [`scan`] (what a file holds, where a
//! torn tail begins). What does not: playing games (`play`), statistics
//! (`stats`).
//!
//! The marlinformat-shaped crates (`viriformat`, `bulletformat`) were not
//! used: their records assume one king a side (king squares, unmoved rooks
//! found from the king) and have no room for the variant state, the scoring
//! memo or a point margin.

use std::fmt;
use std::io::{Read, Write};
use std::num::NonZeroU32;
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, Color, EnPassantMode, Piece, Role, Setup, Square, fen::LossyFenError,
};

use crate::rules::{
    Bare, Disk, Extra, Node, Pos, Rules, RulesError, Variant, disk_key, position_key,
};
use crate::scoring::{Memo, Points};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"TALLYDAT";
/// The format version this module reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the fixed part of the file header (the settings text follows).
pub const FILE_HEADER_LEN: usize = 16;
/// Bytes of a game header.
pub const GAME_HEADER_LEN: usize = 40;
/// Bytes of a position record.
pub const RECORD_LEN: usize = 64;
/// The two bytes that open every game.
pub const GAME_TAG: [u8; 2] = *b"TG";

/// Scores beyond this magnitude are decided games (a proven checkmate or
/// extinction): `DECIDED_SCORE - |score|` plies to the end.
pub const DECIDED_LIMIT: i16 = 31_000;
/// The score of a game decided on the spot.
pub const DECIDED_SCORE: i16 = 32_000;

/// Flag: the side to move is in check.
pub const FLAG_IN_CHECK: u8 = 1;
/// Flag: the position had one legal action only.
pub const FLAG_FORCED: u8 = 2;
/// Flag: the score is a decided game (see [`DECIDED_LIMIT`]).
pub const FLAG_DECIDED: u8 = 4;
/// Flag: the best action is a capture or a promotion.
pub const FLAG_TACTICAL: u8 = 8;
/// Flag: the best action is a special action (`disk`, `swap`, `restore`,
/// `claim`).
pub const FLAG_SPECIAL: u8 = 16;
/// Flag: the game's start record (not searched: score and best action are
/// 0).
pub const FLAG_START: u8 = 32;

/// A game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// Black won (White's total was lower).
    Loss = 0,
    /// Equal totals.
    Draw = 1,
    /// White won.
    Win = 2,
}

impl Wdl {
    /// The result of a game whose total margin (White minus Black) is
    /// `margin`.
    pub fn of_margin(margin: Points) -> Wdl {
        match margin.milli().signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub fn white_score(self) -> f64 {
        f64::from(self as u8) / 2.0
    }

    fn decode(b: u8) -> Result<Wdl, FormatError> {
        match b {
            0 => Ok(Wdl::Loss),
            1 => Ok(Wdl::Draw),
            2 => Ok(Wdl::Win),
            _ => Err(FormatError::Corrupt(format!("result byte {b}"))),
        }
    }
}

/// How a game of the data ended: a board ending, or an adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndKind {
    /// Checkmate.
    Checkmate = 1,
    /// Stalemate.
    Stalemate = 2,
    /// Extinction.
    Extinction = 3,
    /// Sets: mutual bare kings.
    MutualBare = 4,
    /// Threefold repetition without perpetual check.
    Repetition = 5,
    /// Perpetual check.
    PerpetualCheck = 6,
    /// Mutual perpetual check.
    MutualPerpetualCheck = 7,
    /// The move-count rule.
    MoveRule = 8,
    /// Insufficient material.
    InsufficientMaterial = 9,
    /// Sets: a bare-king claim.
    Claim = 10,
    /// Adjudicated as a win (scored as the loser's resignation).
    AdjudicatedWin = 11,
    /// Adjudicated as a draw (scored as a move-count draw).
    AdjudicatedDraw = 12,
}

impl EndKind {
    const ALL: [EndKind; 12] = [
        EndKind::Checkmate,
        EndKind::Stalemate,
        EndKind::Extinction,
        EndKind::MutualBare,
        EndKind::Repetition,
        EndKind::PerpetualCheck,
        EndKind::MutualPerpetualCheck,
        EndKind::MoveRule,
        EndKind::InsufficientMaterial,
        EndKind::Claim,
        EndKind::AdjudicatedWin,
        EndKind::AdjudicatedDraw,
    ];

    /// The name used in statistics (the board endings' names are those of
    /// `tally score --json`).
    pub const fn name(self) -> &'static str {
        match self {
            EndKind::Checkmate => "checkmate",
            EndKind::Stalemate => "stalemate",
            EndKind::Extinction => "extinction",
            EndKind::MutualBare => "bare_king",
            EndKind::Repetition => "repetition",
            EndKind::PerpetualCheck => "perpetual_check",
            EndKind::MutualPerpetualCheck => "mutual_perpetual_check",
            EndKind::MoveRule => "move_rule",
            EndKind::InsufficientMaterial => "insufficient_material",
            EndKind::Claim => "claim",
            EndKind::AdjudicatedWin => "adjudicated_win",
            EndKind::AdjudicatedDraw => "adjudicated_draw",
        }
    }

    /// The kind of a board ending and the side it names (the winner, the
    /// stalemated side, the first barer, the checking side, the side that
    /// made the third occurrence, the claimer), if any.
    pub fn of_ending(e: &crate::rules::Ending) -> (EndKind, Option<Color>) {
        use crate::rules::{Ending, RepetitionKind};
        match *e {
            Ending::Checkmate { winner } => (EndKind::Checkmate, Some(winner)),
            Ending::Stalemate { stalemated } => (EndKind::Stalemate, Some(stalemated)),
            Ending::Extinction { winner } => (EndKind::Extinction, Some(winner)),
            Ending::MutualBare { first } => (EndKind::MutualBare, Some(first)),
            Ending::Repetition(r) => match r.kind {
                RepetitionKind::Plain => (EndKind::Repetition, Some(r.third_by)),
                RepetitionKind::Perpetual { by } => (EndKind::PerpetualCheck, Some(by)),
                RepetitionKind::Mutual { first_check } => {
                    (EndKind::MutualPerpetualCheck, Some(first_check))
                }
            },
            Ending::MoveRule => (EndKind::MoveRule, None),
            Ending::InsufficientMaterial => (EndKind::InsufficientMaterial, None),
            Ending::Claim { claimer } => (EndKind::Claim, Some(claimer)),
            Ending::Resignation { winner } => (EndKind::AdjudicatedWin, Some(winner)),
        }
    }

    fn decode(b: u8) -> Result<EndKind, FormatError> {
        EndKind::ALL
            .into_iter()
            .find(|k| *k as u8 == b)
            .ok_or_else(|| FormatError::Corrupt(format!("ending byte {b}")))
    }
}

/// Why a file or a record could not be read.
#[derive(Debug)]
pub enum FormatError {
    /// Not a data file of this format (magic or version).
    NotData(String),
    /// The bytes contradict the format.
    Corrupt(String),
    /// The position in a record is not legal under its variant.
    Rules(RulesError),
    /// Reading failed.
    Io(std::io::Error),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NotData(s) => write!(f, "not a Tally data file: {s}"),
            FormatError::Corrupt(s) => write!(f, "corrupt data: {s}"),
            FormatError::Rules(e) => write!(f, "a record holds an invalid position: {e}"),
            FormatError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FormatError {}

impl From<std::io::Error> for FormatError {
    fn from(e: std::io::Error) -> FormatError {
        FormatError::Io(e)
    }
}

/// One position of a game with its labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The board, side to move, castling rights (rooks on the corners),
    /// en-passant square (whenever a double step was just played),
    /// halfmove clock and move number.
    pub setup: Setup,
    /// The variant state (tiebraker disk, sets bare king).
    pub extra: Extra,
    /// The scoring memo after the game's actions so far.
    pub memo: Memo,
    /// The search's score from White's view, in internal units (100 per
    /// pawn of the variant's scale); decided games beyond
    /// [`DECIDED_LIMIT`]. 0 in the start record.
    pub score: i16,
    /// The game's result from White's view.
    pub result: Wdl,
    /// The points still to come from this position to the game's end,
    /// White's minus Black's: the awards of this and every later action
    /// and the ending's award.
    pub margin: Points,
    /// The best action's [`Action::code`](crate::rules::Action::code); 0
    /// in the start record.
    pub best: u16,
    /// Plies since the game's start position.
    pub ply: u16,
    /// `FLAG_*` bits.
    pub flags: u8,
}

impl Record {
    /// The game's result (1 won, 0.5 drawn, 0 lost) and the search's
    /// score, both from the side to move's view: what the tuner and the
    /// trainer fit.
    pub fn mover_view(&self) -> (f64, f64) {
        let white = match self.result {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        };
        let score = f64::from(self.score);
        if self.setup.turn.is_white() {
            (white, score)
        } else {
            (1.0 - white, -score)
        }
    }

    /// A record of `node` with `memo` and the given labels.
    ///
    /// # Errors
    ///
    /// [`FormatError::Corrupt`] for a position the format cannot hold:
    /// more than 32 pieces, castling rights off the back ranks.
    pub fn of<P: Pos>(node: &Node<P>, memo: &Memo) -> Result<Record, FormatError> {
        let setup = node.pos.to_setup(EnPassantMode::Always);
        if setup.board.occupied().count() > 32 {
            return Err(FormatError::Corrupt("more than 32 pieces".to_owned()));
        }
        if !(setup.castling_rights & !BACK_RANKS).is_empty() {
            return Err(FormatError::Corrupt(
                "castling rights off the back ranks".to_owned(),
            ));
        }
        Ok(Record {
            setup,
            extra: node.extra,
            memo: *memo,
            score: 0,
            result: Wdl::Draw,
            margin: Points::ZERO,
            best: 0,
            ply: 0,
            flags: if node.check { FLAG_IN_CHECK } else { 0 },
        })
    }

    /// The record's 64 bytes.
    pub fn encode(&self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        let board = &self.setup.board;
        b[0..8].copy_from_slice(&board.occupied().0.to_le_bytes());
        for (i, sq) in board.occupied().into_iter().take(32).enumerate() {
            let code = board.piece_at(sq).map_or(0, piece_code);
            b[8 + i / 2] |= code << ((i % 2) * 4);
        }
        let ep = self.setup.ep_square.map_or(64, u8::from);
        b[24] = (u8::from(self.setup.turn.is_black()) << 7) | ep;
        b[25] = u8::try_from(self.setup.halfmoves).unwrap_or(u8::MAX);
        let fullmoves = u16::try_from(self.setup.fullmoves.get()).unwrap_or(u16::MAX);
        b[26..28].copy_from_slice(&fullmoves.to_le_bytes());
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30] = self.result as u8;
        b[31] = castling_bits(self.setup.castling_rights);
        let [first, last] = chess960_castling_bytes(self.setup.castling_rights);
        b[59] = first;
        b[60] = last;
        b[32..40].copy_from_slice(&self.margin.milli().to_le_bytes());
        b[40..42].copy_from_slice(&self.best.to_le_bytes());
        b[42..44].copy_from_slice(&self.ply.to_le_bytes());
        let (disk, disk_plies) = disk_bytes(self.extra.disk);
        b[44] = disk;
        b[45] = disk_plies;
        b[46] = bare_byte(self.extra.bare);
        b[47] = self.flags;
        let m = &self.memo;
        b[48] = colour_byte(m.last_capturer);
        b[49] = m.last_capture_to.map_or(64, u8::from);
        b[50..52].copy_from_slice(&m.captures.to_le_bytes());
        b[52..54].copy_from_slice(&m.moves_of(Color::White).to_le_bytes());
        b[54..56].copy_from_slice(&m.moves_of(Color::Black).to_le_bytes());
        b[56] = m.counter;
        b[57] = m.run_of(Color::White);
        b[58] = m.run_of(Color::Black);
        b
    }

    /// Reads a record's 64 bytes.
    ///
    /// # Errors
    ///
    /// [`FormatError::Corrupt`] for a byte no record holds.
    pub fn decode(b: &[u8; RECORD_LEN]) -> Result<Record, FormatError> {
        let bad = |what: &str| FormatError::Corrupt(what.to_owned());
        let occupied = Bitboard(u64::from_le_bytes(take(b, 0)));
        if occupied.count() > 32 {
            return Err(bad("more than 32 pieces"));
        }
        let mut board = Board::empty();
        for (i, sq) in occupied.into_iter().enumerate() {
            let code = (b[8 + i / 2] >> ((i % 2) * 4)) & 0xf;
            let piece = piece_of(code).ok_or_else(|| bad("unknown piece code"))?;
            board.set_piece_at(sq, piece);
        }
        let turn = if b[24] >> 7 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let ep_square = match b[24] & 0x7f {
            64 => None,
            s => Some(Square::try_from(s).map_err(|_| bad("en-passant square"))?),
        };
        let fullmoves = NonZeroU32::new(u32::from(u16::from_le_bytes(take(b, 26))))
            .ok_or_else(|| bad("move number 0"))?;
        if b[31] > 0xf {
            return Err(bad("castling byte"));
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = turn;
        setup.castling_rights = castling_rights(b[31]) | chess960_castling_rights([b[59], b[60]]);
        setup.ep_square = ep_square;
        setup.halfmoves = u32::from(b[25]);
        setup.fullmoves = fullmoves;
        let extra = Extra {
            disk: disk_of(b[44], b[45]).ok_or_else(|| bad("disk state"))?,
            bare: bare_of(b[46]).ok_or_else(|| bad("bare-king state"))?,
        };
        let last_capture_to = match b[49] {
            64 => None,
            s => Some(Square::try_from(s).map_err(|_| bad("last capture square"))?),
        };
        let mut moves = [0u16; 2];
        moves[Color::White as usize] = u16::from_le_bytes(take(b, 52));
        moves[Color::Black as usize] = u16::from_le_bytes(take(b, 54));
        let mut run = [0u8; 2];
        run[Color::White as usize] = b[57];
        run[Color::Black as usize] = b[58];
        let memo = Memo {
            last_capturer: colour_of(b[48]).ok_or_else(|| bad("last capturer"))?,
            captures: u16::from_le_bytes(take(b, 50)),
            moves,
            last_capture_to,
            counter: b[56],
            run,
        };
        Ok(Record {
            setup,
            extra,
            memo,
            score: i16::from_le_bytes(take(b, 28)),
            result: Wdl::decode(b[30])?,
            margin: Points::from_milli(i64::from_le_bytes(take(b, 32))),
            best: u16::from_le_bytes(take(b, 40)),
            ply: u16::from_le_bytes(take(b, 42)),
            flags: b[47],
        })
    }

    /// The node the record describes, under `rules` (its keys computed
    /// afresh; the game's history is not part of a record).
    ///
    /// # Errors
    ///
    /// [`FormatError::Rules`] when the position is not legal under the
    /// rules.
    pub fn node<P: Pos>(&self, rules: &Rules<P>) -> Result<Node<P>, FormatError> {
        let fen = self.board_fen();
        // Castling rights standard chess cannot have are Chess960's.
        let pos = P::from_setup_checked(self.setup.clone(), &fen)
            .or_else(|e| {
                if self.setup.castling_rights.is_empty() {
                    Err(e)
                } else {
                    P::from_setup_in(self.setup.clone(), shakmaty::CastlingMode::Chess960, &fen)
                }
            })
            .map_err(FormatError::Rules)?;
        let mut node = rules.root(pos);
        node.extra = self.extra;
        node.key = position_key(&node.pos) ^ disk_key(node.extra.disk);
        Ok(node)
    }

    /// The FEN of the record's setup as stored (the en-passant square
    /// whenever a double step was just played).
    pub fn board_fen(&self) -> String {
        Fen::try_from_setup(self.setup.clone())
            .unwrap_or_else(LossyFenError::ignore)
            .to_string()
    }

    /// The FEN as Tally writes it for `variant` (en passant only when a
    /// capture is possible), or the stored form when the position is not
    /// legal under the variant.
    pub fn fen(&self, variant: Variant) -> String {
        crate::with_game!(crate::rules::AnyRules::of(variant), |rules| self
            .node(&rules)
            .map_or_else(|_| self.board_fen(), |n| n.fen()))
    }

    /// Whether the score is a decided game.
    pub fn is_decided(&self) -> bool {
        self.score.unsigned_abs() > DECIDED_LIMIT.unsigned_abs()
    }
}

fn take<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&b[at..at + N]);
    out
}

/// Pawn 0 ... king 5, plus 8 for Black.
fn piece_code(p: Piece) -> u8 {
    (p.role as u8 - 1) | (u8::from(p.color.is_black()) << 3)
}

fn piece_of(code: u8) -> Option<Piece> {
    let role = Role::try_from(u32::from(code & 7) + 1).ok()?;
    let color = if code & 8 != 0 {
        Color::Black
    } else {
        Color::White
    };
    Some(Piece { color, role })
}

const CORNERS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

fn castling_bits(rights: Bitboard) -> u8 {
    CORNERS
        .iter()
        .enumerate()
        .filter(|(_, sq)| rights.contains(**sq))
        .fold(0, |acc, (i, _)| acc | (1 << i))
}

fn castling_rights(bits: u8) -> Bitboard {
    CORNERS
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .fold(Bitboard::EMPTY, |acc, (_, sq)| acc.with(*sq))
}

/// The first and last ranks, where castling rooks stand.
const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

/// The castling rights off the corners (Chess960's), as bytes 59 and 60
/// hold them: the files of rank 1's rooks (bit 0 the a-file), then rank
/// 8's.
fn chess960_castling_bytes(rights: Bitboard) -> [u8; 2] {
    let off = rights & !Bitboard::CORNERS;
    [(off.0 & 0xff) as u8, (off.0 >> 56) as u8]
}

/// The castling rights of bytes 59 and 60 ([`chess960_castling_bytes`]).
fn chess960_castling_rights(bytes: [u8; 2]) -> Bitboard {
    Bitboard((u64::from(bytes[0]) | u64::from(bytes[1]) << 56) & !Bitboard::CORNERS.0)
}

/// 0 none, 1 White, 2 Black.
fn colour_byte(c: Option<Color>) -> u8 {
    match c {
        None => 0,
        Some(Color::White) => 1,
        Some(Color::Black) => 2,
    }
}

fn colour_of(b: u8) -> Option<Option<Color>> {
    match b {
        0 => Some(None),
        1 => Some(Some(Color::White)),
        2 => Some(Some(Color::Black)),
        _ => None,
    }
}

/// The kind in the low nibble, the side (1 White, 2 Black) in the high.
fn disk_bytes(d: Disk) -> (u8, u8) {
    let with = |kind: u8, c: Color| kind | (colour_byte(Some(c)) << 4);
    match d {
        Disk::None => (0, 0),
        Disk::Offered { by } => (with(1, by), 0),
        Disk::Accepted { disk } => (with(2, disk), 0),
        Disk::Swapped { disk, plies } => (with(3, disk), plies),
        Disk::Restored { first } => (with(4, first), 0),
    }
}

fn disk_of(b: u8, plies: u8) -> Option<Disk> {
    let side = colour_of(b >> 4)?;
    match (b & 0xf, side) {
        (0, None) => Some(Disk::None),
        (1, Some(by)) => Some(Disk::Offered { by }),
        (2, Some(disk)) => Some(Disk::Accepted { disk }),
        (3, Some(disk)) => Some(Disk::Swapped { disk, plies }),
        (4, Some(first)) => Some(Disk::Restored { first }),
        _ => None,
    }
}

fn bare_byte(b: Bare) -> u8 {
    let with = |kind: u8, c: Color| kind | (colour_byte(Some(c)) << 4);
    match b {
        Bare::None => 0,
        Bare::Reply { barer } => with(1, barer),
        Bare::Claim { barer } => with(2, barer),
        Bare::Done => 3,
        Bare::Mutual { first } => with(4, first),
        Bare::Claimed { barer } => with(5, barer),
    }
}

fn bare_of(b: u8) -> Option<Bare> {
    match (b & 0xf, colour_of(b >> 4)?) {
        (0, None) => Some(Bare::None),
        (1, Some(barer)) => Some(Bare::Reply { barer }),
        (2, Some(barer)) => Some(Bare::Claim { barer }),
        (3, None) => Some(Bare::Done),
        (4, Some(first)) => Some(Bare::Mutual { first }),
        (5, Some(barer)) => Some(Bare::Claimed { barer }),
        _ => None,
    }
}

/// The score of a search value (internal units, from the side to move)
/// from White's view: undecided values clamped to [`DECIDED_LIMIT`],
/// decided games as [`DECIDED_SCORE`] minus the plies to their end; a
/// tablebase result (the endgame tables are not used in data generation)
/// as the largest undecided value.
pub fn score_of(value: i32, turn: Color) -> i16 {
    let white = if turn.is_white() { value } else { -value };
    match crate::search::Score::of(white) {
        crate::search::Score::End { won, plies, .. } => {
            let s = i32::from(DECIDED_SCORE) - plies.clamp(0, 999);
            (if won { s } else { -s }) as i16
        }
        crate::search::Score::Tablebase { won, .. } => {
            if won {
                DECIDED_LIMIT
            } else {
                -DECIDED_LIMIT
            }
        }
        crate::search::Score::Margin(m) => {
            let limit = i32::from(DECIDED_LIMIT);
            m.clamp(-limit, limit) as i16
        }
    }
}

/// One game of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataGame {
    /// The variant.
    pub variant: Variant,
    /// How the game ended.
    pub end: EndKind,
    /// The side the ending names (see [`EndKind::of_ending`]), if any.
    pub end_side: Option<Color>,
    /// The result from White's view.
    pub result: Wdl,
    /// The game's index in its run (all shards together).
    pub index: u64,
    /// White's points minus Black's over the whole game.
    pub total: Points,
    /// Thousandths of a point per 100 units of score (the variant's
    /// internal units, for turning a score into points).
    pub units_milli: i64,
    /// The game's start position (flag [`FLAG_START`]).
    pub start: Record,
    /// The searched positions, in the order played.
    pub positions: Vec<Record>,
}

/// FNV-1a (32 bits): the game checksum.
fn fnv32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// FNV-1a (64 bits): digests of settings inputs (openings, rules files).
pub fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn variant_code(v: Variant) -> u8 {
    Variant::ALL.iter().position(|x| *x == v).unwrap_or(0) as u8
}

impl DataGame {
    /// The game's bytes: header, start record, position records.
    ///
    /// # Errors
    ///
    /// [`FormatError::Corrupt`] for a game of more than 65535 positions.
    pub fn encode(&self) -> Result<Vec<u8>, FormatError> {
        let n = u16::try_from(self.positions.len())
            .map_err(|_| FormatError::Corrupt("more than 65535 positions in a game".to_owned()))?;
        let mut out = Vec::with_capacity(GAME_HEADER_LEN + RECORD_LEN * (1 + usize::from(n)));
        out.extend_from_slice(&GAME_TAG);
        out.push(variant_code(self.variant));
        out.push(self.end as u8);
        out.push(colour_byte(self.end_side));
        out.push(self.result as u8);
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&[0u8; 8]);
        out.extend_from_slice(&self.total.milli().to_le_bytes());
        out.extend_from_slice(&self.units_milli.to_le_bytes());
        out.extend_from_slice(&self.start.encode());
        for r in &self.positions {
            out.extend_from_slice(&r.encode());
        }
        let sum = fnv32(&out);
        out[16..20].copy_from_slice(&sum.to_le_bytes());
        Ok(out)
    }

    /// The length of the game block that `header` opens.
    fn block_len(header: &[u8; GAME_HEADER_LEN]) -> usize {
        let n = usize::from(u16::from_le_bytes(take(header, 6)));
        GAME_HEADER_LEN + RECORD_LEN * (1 + n)
    }

    /// Reads a whole game block (as [`DataGame::encode`] writes it).
    ///
    /// # Errors
    ///
    /// [`FormatError::Corrupt`] for a bad tag, checksum or field.
    pub fn decode(block: &[u8]) -> Result<DataGame, FormatError> {
        let bad = |what: String| FormatError::Corrupt(what);
        if block.len() < GAME_HEADER_LEN + RECORD_LEN || block[0..2] != GAME_TAG {
            return Err(bad("no game starts here".to_owned()));
        }
        let header: [u8; GAME_HEADER_LEN] = take(block, 0);
        if block.len() != DataGame::block_len(&header) {
            return Err(bad("game length".to_owned()));
        }
        let mut copy = block.to_vec();
        copy[16..20].fill(0);
        if fnv32(&copy) != u32::from_le_bytes(take(block, 16)) {
            return Err(bad("checksum mismatch".to_owned()));
        }
        let variant = *Variant::ALL
            .get(usize::from(block[2]))
            .ok_or_else(|| bad(format!("variant byte {}", block[2])))?;
        let records = block[GAME_HEADER_LEN..]
            .chunks_exact(RECORD_LEN)
            .map(|c| Record::decode(&take(c, 0)))
            .collect::<Result<Vec<Record>, FormatError>>()?;
        let mut records = records.into_iter();
        let start = records
            .next()
            .ok_or_else(|| bad("no start record".to_owned()))?;
        Ok(DataGame {
            variant,
            end: EndKind::decode(block[3])?,
            end_side: colour_of(block[4]).ok_or_else(|| bad("ending side".to_owned()))?,
            result: Wdl::decode(block[5])?,
            index: u64::from_le_bytes(take(block, 8)),
            total: Points::from_milli(i64::from_le_bytes(take(block, 24))),
            units_milli: i64::from_le_bytes(take(block, 32)),
            start,
            positions: records.collect(),
        })
    }
}

/// The file header's bytes: magic, version, and the run's settings text
/// (what identifies the run for resuming; also shown by `stats`).
pub fn encode_file_header(settings: &str) -> Vec<u8> {
    let text = settings.as_bytes();
    let len = u16::try_from(text.len()).unwrap_or(u16::MAX);
    let mut out = Vec::with_capacity(FILE_HEADER_LEN + text.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&text[..usize::from(len)]);
    out
}

/// Reads a file header: the settings text and the header's length.
///
/// # Errors
///
/// [`FormatError::NotData`] for another kind of file or version.
pub fn read_file_header(r: &mut impl Read) -> Result<(String, usize), FormatError> {
    let mut fixed = [0u8; FILE_HEADER_LEN];
    r.read_exact(&mut fixed)
        .map_err(|_| FormatError::NotData("too short".to_owned()))?;
    if fixed[0..8] != MAGIC {
        return Err(FormatError::NotData("wrong magic".to_owned()));
    }
    let version = u16::from_le_bytes(take(&fixed, 8));
    if version != VERSION {
        return Err(FormatError::NotData(format!(
            "format version {version} (this Tally reads version {VERSION})"
        )));
    }
    let len = usize::from(u16::from_le_bytes(take(&fixed, 10)));
    let mut text = vec![0u8; len];
    r.read_exact(&mut text)
        .map_err(|_| FormatError::NotData("header cut short".to_owned()))?;
    let settings =
        String::from_utf8(text).map_err(|_| FormatError::NotData("header text".to_owned()))?;
    if let Some(id) = settings
        .split_whitespace()
        .find_map(|w| w.strip_prefix("variant="))
        && Variant::from_id(id).is_err()
    {
        let id: String = id.chars().take(40).collect();
        return Err(FormatError::NotData(format!(
            "the header names variant '{id}', which this Tally does not have"
        )));
    }
    Ok((settings, FILE_HEADER_LEN + len))
}

/// Reads a data stream game by game.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    settings: String,
    done: bool,
    /// Bytes read so far: where the next game starts.
    offset: u64,
    /// Games read so far.
    games: u64,
    /// A byte read ahead to tell the last game from one in the middle.
    ahead: Option<u8>,
}

/// Why a game block cannot be read, worded for the reader that finds it:
/// where it is, what is wrong, and whether running the generator again
/// repairs it (a torn last game, which resuming cuts off) or not (damage
/// before the end, which resuming refuses too).
fn damaged(number: u64, at: u64, what: &str, last: bool) -> FormatError {
    let cure = if last {
        "an interrupted run: running it again repairs it"
    } else {
        "the file is damaged: resuming refuses it too"
    };
    FormatError::Corrupt(format!("game {number} (at byte {at}): {what} ({cure})"))
}

impl<R: Read> Reader<R> {
    /// Opens a stream: reads its file header.
    ///
    /// # Errors
    ///
    /// As [`read_file_header`].
    pub fn new(mut inner: R) -> Result<Reader<R>, FormatError> {
        let (settings, len) = read_file_header(&mut inner)?;
        Ok(Reader {
            inner,
            settings,
            done: false,
            offset: len as u64,
            games: 0,
            ahead: None,
        })
    }

    /// The run's settings text.
    pub fn settings(&self) -> &str {
        &self.settings
    }

    /// Fills `buf` from the byte read ahead and the stream; returns the
    /// bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut got = 0;
        if let (Some(b), Some(first)) = (self.ahead, buf.first_mut()) {
            *first = b;
            self.ahead = None;
            got = 1;
        }
        Ok(got + read_full(&mut self.inner, &mut buf[got..])?)
    }

    /// Whether the stream ends here (a byte is read ahead otherwise).
    fn at_end(&mut self) -> std::io::Result<bool> {
        if self.ahead.is_some() {
            return Ok(false);
        }
        let mut b = [0u8; 1];
        let got = read_full(&mut self.inner, &mut b)?;
        self.ahead = (got == 1).then_some(b[0]);
        Ok(got == 0)
    }

    /// The next game, `None` at the end.
    ///
    /// # Errors
    ///
    /// [`FormatError::Corrupt`] naming the game's number and byte offset,
    /// for a game cut short (a torn tail: the generator cuts it off when it
    /// resumes) or damaged (a flipped byte, a second file's header, bytes
    /// that are no game); it says which.
    pub fn next_game(&mut self) -> Result<Option<DataGame>, FormatError> {
        if self.done {
            return Ok(None);
        }
        let (number, at) = (self.games + 1, self.offset);
        let mut header = [0u8; GAME_HEADER_LEN];
        let got = self.fill(&mut header)?;
        if got == 0 {
            self.done = true;
            return Ok(None);
        }
        // Whatever follows, the reading stops here.
        self.done = true;
        if got >= 2 && header[0..2] != GAME_TAG {
            let what = if got >= MAGIC.len() && header[..MAGIC.len()] == MAGIC {
                "a second file header (two files joined?)"
            } else {
                "no game starts here"
            };
            return Err(damaged(number, at, what, false));
        }
        if got < GAME_HEADER_LEN {
            return Err(damaged(number, at, "cut short", true));
        }
        let len = DataGame::block_len(&header);
        let mut block = header.to_vec();
        block.resize(len, 0);
        let got = self.fill(&mut block[GAME_HEADER_LEN..])?;
        if got < len - GAME_HEADER_LEN {
            return Err(damaged(number, at, "cut short", true));
        }
        match DataGame::decode(&block) {
            Ok(game) => {
                self.done = false;
                self.games += 1;
                self.offset += len as u64;
                Ok(Some(game))
            }
            Err(e) => {
                let what = match e {
                    FormatError::Corrupt(s) => s,
                    e => e.to_string(),
                };
                let last = self.at_end()?;
                Err(damaged(number, at, &what, last))
            }
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<DataGame, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Opens a data file to read: a regular file (a FIFO, a device or a
/// directory is refused unopened, as the net loader does, so that no
/// reader waits for ever on a pipe without a writer).
///
/// # Errors
///
/// A one-line message naming the file.
pub fn open_data(path: &Path) -> Result<std::fs::File, String> {
    let name = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {name}: not a regular file"));
    }
    std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))
}

/// What a data file holds, as [`scan`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The run's settings text.
    pub settings: String,
    /// Complete games.
    pub games: u64,
    /// Positions in the complete games (start records not counted).
    pub positions: u64,
    /// The index of the last complete game.
    pub last_index: Option<u64>,
    /// Bytes of the header and the complete games: where a torn tail
    /// begins.
    pub valid_len: u64,
    /// Bytes after `valid_len` (a game cut short by an interrupted run).
    pub torn: u64,
}

/// Scans a data file: its complete games, and the torn tail an
/// interrupted run may have left (a last game cut short, or one whose
/// checksum fails).
///
/// # Errors
///
/// A one-line message for a file that cannot be read, is not a data file,
/// or is damaged before its last game.
pub fn scan(path: &Path) -> Result<Scan, String> {
    let file = open_data(path)?;
    let total = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    let mut r = std::io::BufReader::new(file);
    let (settings, header_len) =
        read_file_header(&mut r).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut s = Scan {
        settings,
        games: 0,
        positions: 0,
        last_index: None,
        valid_len: header_len as u64,
        torn: 0,
    };
    loop {
        let mut header = [0u8; GAME_HEADER_LEN];
        let got = read_full(&mut r, &mut header).map_err(|e| format!("{}: {e}", path.display()))?;
        if got == 0 {
            break;
        }
        let rest = total - s.valid_len;
        if got >= 2 && header[0..2] != GAME_TAG {
            return Err(format!(
                "{}: no game starts at byte {} (the file is damaged)",
                path.display(),
                s.valid_len
            ));
        }
        let len = if got == GAME_HEADER_LEN {
            DataGame::block_len(&header) as u64
        } else {
            u64::MAX
        };
        if len > rest {
            // Cut short: only the last game of the file may be.
            s.torn = rest;
            break;
        }
        let mut block = header.to_vec();
        block.resize(len as usize, 0);
        r.read_exact(&mut block[GAME_HEADER_LEN..])
            .map_err(|e| format!("{}: {e}", path.display()))?;
        match DataGame::decode(&block) {
            Ok(g) => {
                s.games += 1;
                s.positions += g.positions.len() as u64;
                s.last_index = Some(g.index);
                s.valid_len += len;
            }
            Err(_) if s.valid_len + len == total => {
                s.torn = len;
                break;
            }
            Err(e) => {
                return Err(format!(
                    "{}: game {} (at byte {}): {e}",
                    path.display(),
                    s.games + 1,
                    s.valid_len
                ));
            }
        }
    }
    Ok(s)
}

/// Appends whole games to a data file.
#[derive(Debug)]
pub struct Writer {
    file: std::fs::File,
}

impl Writer {
    /// Creates `path` with the header for `settings` (an existing file is
    /// replaced).
    ///
    /// # Errors
    ///
    /// A one-line message when the file cannot be written.
    pub fn create(path: &Path, settings: &str) -> Result<Writer, String> {
        let mut file = std::fs::File::create(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        file.write_all(&encode_file_header(settings))
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Writer { file })
    }

    /// Opens `path` to append after its first `valid_len` bytes (a torn
    /// tail beyond them is cut off).
    ///
    /// # Errors
    ///
    /// A one-line message when the file cannot be opened or cut.
    pub fn resume(path: &Path, valid_len: u64) -> Result<Writer, String> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .and_then(|f| f.set_len(valid_len).map(|()| f))
            .map_err(|e| format!("cannot append to {}: {e}", path.display()))?;
        Ok(Writer { file })
    }

    /// Appends one game's bytes in a single write.
    ///
    /// # Errors
    ///
    /// A one-line message when the write fails.
    pub fn game(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the data file: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece { color, role };
                assert_eq!(piece_of(piece_code(p)), Some(p));
            }
        }
        assert_eq!(piece_of(6), None);
        assert_eq!(piece_of(15), None);
    }

    #[test]
    fn state_bytes_round_trip() {
        let disks = [
            Disk::None,
            Disk::Offered { by: Color::Black },
            Disk::Accepted { disk: Color::White },
            Disk::Swapped {
                disk: Color::Black,
                plies: 17,
            },
            Disk::Restored {
                first: Color::White,
            },
        ];
        for d in disks {
            let (b, p) = disk_bytes(d);
            assert_eq!(disk_of(b, p), Some(d));
        }
        let bares = [
            Bare::None,
            Bare::Reply {
                barer: Color::White,
            },
            Bare::Claim {
                barer: Color::Black,
            },
            Bare::Done,
            Bare::Mutual {
                first: Color::Black,
            },
            Bare::Claimed {
                barer: Color::White,
            },
        ];
        for b in bares {
            assert_eq!(bare_of(bare_byte(b)), Some(b));
        }
        for bits in 0..16 {
            assert_eq!(castling_bits(castling_rights(bits)), bits);
        }
    }

    #[test]
    fn scores_from_whites_view() {
        use crate::search::{MATE, MATE_STEP};
        assert_eq!(score_of(120, Color::White), 120);
        assert_eq!(score_of(120, Color::Black), -120);
        assert_eq!(score_of(1 << 25, Color::White), DECIDED_LIMIT);
        // Mate in 3 plies for the side to move (Black): White is lost.
        let mate3 = MATE - 3 * MATE_STEP + 500;
        assert_eq!(score_of(mate3, Color::Black), -(DECIDED_SCORE - 3));
        assert_eq!(score_of(-mate3, Color::Black), DECIDED_SCORE - 3);
    }
}
