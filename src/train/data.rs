//! Training positions: read from `tally datagen` files through
//! [`each_game`] with the tuner's quiet filter, kept compactly (the pieces
//! as 16-bit codes, the labels from the side to move's view), and split
//! into training and validation sets game by game (a game's positions are
//! alike, so a position-wise split would flatter the validation loss).

use std::path::Path;

use shakmaty::{Board, Color, Piece, Role, Square};

use crate::datagen::format::Record;
use crate::datagen::read::each_game;
use crate::nnue::{FEATURES, KingKey, Kings};
use crate::rules::Variant;

/// One position with its labels, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The pieces: White's view, `(colour · 6 + type) · 64 + square`
    /// (colour 0 White, 1 Black; type 0 pawn ..= 5 king).
    pieces: [u16; 32],
    /// How many of `pieces` are used.
    len: u8,
    /// Whether White is to move.
    white: bool,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The search's score for the side to move, internal units.
    pub score: f32,
}

impl Sample {
    /// A sample of `board` with `turn` to move (pieces beyond 32 are
    /// dropped: no data record holds more).
    pub fn new(board: &Board, turn: Color, result: f32, score: f32) -> Sample {
        let mut pieces = [0u16; 32];
        let mut len = 0;
        for (sq, p) in board.iter().take(32) {
            let colour = u16::from(p.color.is_black());
            pieces[len] = ((colour * 6 + (p.role as u16 - 1)) << 6) | u16::from(sq);
            len += 1;
        }
        Sample {
            pieces,
            len: len as u8,
            white: turn.is_white(),
            result,
            score,
        }
    }

    /// The number of pieces on the board (kings included).
    pub fn pieces(&self) -> usize {
        usize::from(self.len)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        Color::from_white(self.white)
    }

    /// The features of the side to move's perspective (`us = true`) or
    /// the other side's, as [`crate::nnue::feature`] numbers them.
    #[inline]
    pub fn features(&self, us: bool) -> impl Iterator<Item = usize> + '_ {
        self.rows(us, Kings::Plain)
    }

    /// The input rows of the side to move's perspective (`us = true`) or
    /// the other side's in a net of the king-bucket layout `kings`, as
    /// [`crate::nnue::feature_row`] numbers them: the perspective's king
    /// picks the block and whether squares are mirrored
    /// ([`Kings::key`]).
    #[inline]
    pub fn rows(&self, us: bool, kings: Kings) -> impl Iterator<Item = usize> + '_ {
        // The perspective is White's when White moves and we look from
        // the side to move, or Black moves and we look from the other.
        let white_view = self.white == us;
        let pieces = &self.pieces[..usize::from(self.len)];
        let flip = if white_view { 0 } else { 56 };
        let key = if kings == Kings::Plain {
            KingKey::PLAIN
        } else {
            // The perspective's kings, seen from its side: the lowest.
            let own_king = if white_view { 5 } else { 11 };
            pieces
                .iter()
                .filter(|&&c| c >> 6 == own_king)
                .map(|&c| (c & 63) ^ flip)
                .min()
                .map_or(KingKey::PLAIN, |sq| {
                    kings.key_of_square(Square::new(u32::from(sq)))
                })
        };
        let block = usize::from(key.bucket) * FEATURES;
        let squares = flip ^ if key.mirror { 7 } else { 0 };
        pieces.iter().map(move |&c| {
            let (piece, sq) = (usize::from(c >> 6), usize::from(c & 63));
            let (black, role) = (piece / 6, piece % 6);
            let side = if white_view { black } else { 1 - black };
            block + (side * 384 + role * 64 + (sq ^ usize::from(squares))) % FEATURES
        })
    }

    /// The same position with the board's files reversed (a ↔ h): what a
    /// net should value alike, since it sees no castling rights.
    #[must_use]
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for c in &mut m.pieces[..usize::from(self.len)] {
            *c ^= 7;
        }
        m
    }

    /// The board the sample holds.
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for &c in &self.pieces[..usize::from(self.len)] {
            let piece = usize::from(c >> 6);
            let color = Color::from_white(piece < 6);
            let role = Role::ALL[piece % 6];
            if let Ok(sq) = Square::try_from(u32::from(c & 63)) {
                b.set_piece_at(sq, Piece { color, role });
            }
        }
        b
    }
}

/// What [`load`] read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// The training positions.
    pub train: Vec<Sample>,
    /// The validation positions (whole games set apart).
    pub validation: Vec<Sample>,
    /// Positions read in games of the variant (before the quiet filter).
    pub positions: u64,
    /// Games of the variant.
    pub games: u64,
    /// Games of other variants, skipped.
    pub other_games: u64,
}

impl Dataset {
    /// Adds the mirror image ([`Sample::mirrored`]) of every training
    /// position after the originals (the validation set is left as read).
    pub fn add_mirrors(&mut self) {
        let mirrors: Vec<Sample> = self.train.iter().map(Sample::mirrored).collect();
        self.train.extend(mirrors);
    }
}

/// splitmix64: one step of the trainer's generator.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether game `ordinal` of file `file` goes to validation: a draw
/// seeded by `(seed, file, ordinal)` below `fraction`.
fn to_validation(seed: u64, file: usize, ordinal: u64, fraction: f64) -> bool {
    let mut s = seed ^ (file as u64).wrapping_mul(0xd6e8_feb8_6659_fd93) ^ ordinal.rotate_left(32);
    let draw = splitmix(&mut s) >> 11;
    (draw as f64 / (1u64 << 53) as f64) < fraction
}

/// `--val`, the share of the games set apart for validation, must lie in
/// `0 ..= 0.5`.
///
/// # Errors
///
/// `"--val must lie between 0 and 0.5"`.
pub fn check_validation(val: f64) -> Result<(), String> {
    if (0.0..=0.5).contains(&val) {
        Ok(())
    } else {
        Err("--val must lie between 0 and 0.5".to_owned())
    }
}

/// Reads the quiet positions of `variant` from data files (not in check,
/// not forced, not decided, a quiet best action, not a start record),
/// setting `validation` (a fraction, 0 ..= 1) of the games apart, drawn
/// with `seed`.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load(
    files: &[impl AsRef<Path>],
    variant: Variant,
    validation: f64,
    seed: u64,
) -> Result<Dataset, String> {
    load_with(files, variant, validation, seed, |r| {
        let (result, score) = r.mover_view();
        (result as f32, score as f32)
    })
}

/// [`load`] with the labels of each position given by `label`: the
/// sample's result and score fields (a margin head keeps its target in
/// the score).
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load_with(
    files: &[impl AsRef<Path>],
    variant: Variant,
    validation: f64,
    seed: u64,
    label: impl Fn(&Record) -> (f32, f32),
) -> Result<Dataset, String> {
    let mut out = Dataset::default();
    let pass = each_game(files, variant, |game, at| {
        let into = if to_validation(seed, at.file, at.ordinal, validation) {
            &mut out.validation
        } else {
            &mut out.train
        };
        for r in game.quiet() {
            let (result, score) = label(r);
            into.push(Sample::new(&r.setup.board, r.setup.turn, result, score));
        }
    })?;
    (out.games, out.positions, out.other_games) = (pass.games, pass.positions, pass.other_games);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::feature;
    use shakmaty::fen::Fen;

    #[test]
    fn a_mirror_reverses_the_files_and_keeps_the_labels() {
        let fen = "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R b KQkq - 0 1";
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        let s = Sample::new(&setup.board, Color::Black, 0.5, -37.0);
        let m = s.mirrored();
        assert_eq!((m.turn(), m.result, m.score), (s.turn(), s.result, s.score));
        let mut flipped = setup.board.clone();
        flipped.flip_horizontal();
        assert_eq!(m.board(), flipped);
        assert_eq!(m.mirrored(), s);
        let mut d = Dataset {
            train: vec![s],
            validation: vec![s],
            ..Dataset::default()
        };
        d.add_mirrors();
        assert_eq!(d.train, [s, m]);
        assert_eq!(d.validation, [s]);
    }

    #[test]
    fn features_are_the_engines() {
        let fen = "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R b KQkq - 0 1";
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        for turn in Color::ALL {
            let s = Sample::new(&setup.board, turn, 1.0, 0.0);
            assert_eq!(s.board(), setup.board);
            assert_eq!(s.turn(), turn);
            for (us, persp) in [(true, turn), (false, !turn)] {
                let mut got: Vec<usize> = s.features(us).collect();
                let mut want: Vec<usize> = setup
                    .board
                    .iter()
                    .map(|(sq, p)| feature(persp, p, sq))
                    .collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn rows_of_king_buckets_are_the_engines() {
        for fen in [
            "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R b KQkq - 0 1",
            "8/1k3k2/8/3K4/8/8/1K6/8 w - - 0 1",
            "8/8/8/3p4/4P3/8/8/6K1 w - - 0 1",
            "5rk1/5ppp/8/8/8/8/PP6/1K1R4 b - - 0 1",
        ] {
            let setup = fen.parse::<Fen>().unwrap().into_setup();
            for kings in Kings::ALL {
                for turn in Color::ALL {
                    let s = Sample::new(&setup.board, turn, 1.0, 0.0);
                    for (us, persp) in [(true, turn), (false, !turn)] {
                        let key = kings.key(persp, &setup.board);
                        let mut got: Vec<usize> = s.rows(us, kings).collect();
                        let mut want: Vec<usize> = setup
                            .board
                            .iter()
                            .map(|(sq, p)| crate::nnue::feature_row(persp, key, p, sq))
                            .collect();
                        got.sort_unstable();
                        want.sort_unstable();
                        assert_eq!(got, want, "{fen} {kings:?}");
                    }
                }
            }
        }
    }
}
