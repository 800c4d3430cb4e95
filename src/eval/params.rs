//! Every weight of the base evaluation, in centipawns (middlegame, endgame).

use super::score::Score;

const fn s(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

/// Phase weight of a knight or bishop.
pub const PHASE_MINOR: i32 = 1;
/// Phase weight of a rook.
pub const PHASE_ROOK: i32 = 2;
/// Phase weight of a queen.
pub const PHASE_QUEEN: i32 = 4;
/// The phase of the full starting material.
pub const MAX_PHASE: i32 = 24;

/// Bonus for having the move.
pub const TEMPO: i32 = 12;

/// Material by role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Score; 6] = [
    s(90, 115),
    s(330, 300),
    s(345, 320),
    s(470, 530),
    s(980, 980),
    s(0, 0),
];

/// Mobility per role (knight, bishop, rook, queen, king): the number of
/// reachable squares counted as neutral, and the weight per square.
pub const MOBILITY: [(i32, Score); 5] = [
    (4, s(5, 4)),
    (6, s(5, 5)),
    (6, s(2, 5)),
    (12, s(1, 3)),
    (0, s(0, 0)),
];

/// King-attack weight per attacked king-zone square, per role (knight,
/// bishop, rook, queen, king).
pub const KING_ATTACK_WEIGHT: [i32; 5] = [2, 2, 3, 5, 0];

/// Middlegame bonus for the attacker by attack units on the king zone.
pub const KING_DANGER: [i32; 24] = [
    0, 0, 4, 9, 16, 25, 36, 49, 64, 81, 100, 120, 140, 160, 180, 200, 220, 240, 255, 270, 285, 300,
    310, 320,
];

/// Per own pawn in front of a king on its first two ranks (up to three).
pub const PAWN_SHIELD: Score = s(15, 0);
/// Two bishops.
pub const BISHOP_PAIR: Score = s(30, 50);
/// A rook on a file with no pawns.
pub const ROOK_OPEN_FILE: Score = s(25, 10);
/// A rook on a file with only enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: Score = s(12, 6);
/// A pawn with no own pawn on the adjacent files.
pub const ISOLATED: Score = s(-10, -14);
/// A pawn with an own pawn ahead of it on its file.
pub const DOUBLED: Score = s(-8, -20);
/// A passed pawn by its rank from its own side (index 1 = second rank).
pub const PASSED: [Score; 8] = [
    s(0, 0),
    s(2, 8),
    s(5, 12),
    s(10, 22),
    s(22, 42),
    s(40, 70),
    s(65, 110),
    s(0, 0),
];

const fn center_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr { df } else { dr }
}

const fn build_pst() -> [[Score; 64]; 6] {
    let mut t = [[s(0, 0); 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let c = center_distance(sq); // 0 in the centre .. 3 on the rim
        let central_file = f == 3 || f == 4;
        // Pawns: advance, and hold the centre.
        let pawn_mg = [0, 0, 4, 8, 16, 30, 50, 0][r as usize]
            + if central_file && (r == 3 || r == 4) {
                12
            } else {
                0
            };
        let pawn_eg = [0, 0, 6, 14, 26, 45, 75, 0][r as usize];
        t[0][sq] = s(pawn_mg, pawn_eg);
        t[1][sq] = s(18 - 12 * c, 12 - 9 * c);
        t[2][sq] = s(10 - 6 * c, 8 - 5 * c);
        t[3][sq] = s(
            if r == 6 { 18 } else { 0 } + if central_file { 4 } else { 0 },
            0,
        );
        t[4][sq] = s(4 - 3 * c, 8 - 5 * c);
        // A king belongs behind its pawns on a wing while queens are on.
        let king_mg = match r {
            0 => [12, 24, 10, -20, -25, -15, 26, 14][f as usize],
            1 => [-5, -5, -15, -35, -35, -30, -5, -5][f as usize],
            2 => -45,
            _ => -65,
        };
        t[5][sq] = s(king_mg, 20 - 14 * c);
        sq += 1;
    }
    t
}

/// Piece-square tables by role, from White's side (a1 = 0).
pub const PST: [[Score; 64]; 6] = build_pst();

/// Extinction: a side's lone knight, bishop or rook (one capture from
/// losing the game).
pub const EXT_LAST_PIECE: Score = s(-45, -55);
/// Extinction: one, two or three pawns left.
pub const EXT_LAST_PAWNS: [Score; 3] = [s(-160, -200), s(-60, -80), s(-20, -30)];
/// Extinction: a second queen.
pub const EXT_SPARE_QUEEN: Score = s(120, 120);
/// Extinction: a second king.
pub const EXT_SPARE_KING: Score = s(300, 300);
/// Extinction: a last piece of its type where an enemy pawn push would
/// attack it.
pub const EXT_LAST_PIECE_PAWN_THREAT: Score = s(-40, -40);

/// Extinction: the side to move can take a last piece (the game; the
/// search confirms it).
pub const EXT_TAKE_LAST: i32 = 900;
/// Extinction: one of the side to move's last pieces is attacked (it must
/// spend its move on it).
pub const EXT_LAST_ATTACKED: i32 = -40;
/// Extinction: two or more of the side to move's last pieces are attacked.
pub const EXT_LAST_ATTACKED_TWICE: i32 = -450;
/// Extinction: the side to move has a fork of two last pieces from a safe
/// square.
pub const EXT_FORK: i32 = 250;
/// Extinction: the opponent has such a fork next move.
pub const EXT_FORK_THREAT: i32 = 80;

/// Sets, dynamic, tiebraker: the chance (per mille) of a perpetual check
/// per checking move a side with a queen has against the enemy king.
pub const PERPETUAL_PER_CHECK: i32 = 40;
/// Checking moves counted for [`PERPETUAL_PER_CHECK`].
pub const PERPETUAL_CHECKS: i32 = 4;

/// Stylish: what a side with a queen is expected to mate for, in
/// thousandths of a pawn of the variant's scale (120 points at the default
/// 5 per pawn: the mean award of Tally's mates in self-play, captures and
/// bonuses on the mating move included, was 123 over 103 mates).
pub const STY_MATE_WITH_QUEEN: i64 = 24_000;
/// Stylish: the same for a side whose strongest piece is a rook (125
/// points; 127 over 55 mates).
pub const STY_MATE_WITH_ROOK: i64 = 25_000;
/// Stylish: the same for a side with minor pieces and pawns only (160
/// points; 162 over 23 mates).
pub const STY_MATE_WITH_MINORS: i64 = 32_000;

/// Tiebraker: a frozen king on the wing / in the centre.
pub const TB_FROZEN_KING: Score = s(-80, -40);
/// See [`TB_FROZEN_KING`].
pub const TB_FROZEN_CENTRAL_KING: Score = s(-160, -60);
/// Tiebraker: per checking move the enemy has against a frozen king (a
/// check it cannot step out of), up to [`TB_CHECKS_COUNTED`].
pub const TB_FROZEN_CHECK: Score = s(-45, -35);
/// Tiebraker: checking moves counted against a frozen king.
pub const TB_CHECKS_COUNTED: i32 = 6;
/// Tiebraker: per square around a frozen king the enemy attacks.
pub const TB_FROZEN_ZONE: Score = s(-20, -15);

/// Wacky: future points of a won position (the saturation of the
/// material term) in the middlegame and in a bare endgame. Fitted to the
/// future point margins of self-play games (`examples/eval_data.rs`).
/// This and the other wacky weights below are in thousandths of a pawn of
/// the variant's scale: points at the default 1000 points per pawn.
pub const WACKY_MATERIAL_MG: i64 = 105_000;
/// See [`WACKY_MATERIAL_MG`].
pub const WACKY_MATERIAL_EG: i64 = 270_000;
/// Wacky: the base evaluation (centipawns) at which the material term
/// reaches three quarters of its saturation (tanh 1).
pub const WACKY_CP_SCALE: i32 = 300;
/// Wacky: the value per checking move the side to move has now.
pub const WACKY_OUR_CHECK: i64 = 13_800;
/// Wacky: the value per checking move the opponent has (against us).
pub const WACKY_THEIR_CHECK: i64 = 2_800;
/// Wacky: checking moves counted, per side.
pub const WACKY_CHECKS_COUNTED: i64 = 6;
/// Wacky: the side to move's initiative (it moves, checks and captures
/// first).
pub const WACKY_TEMPO: i64 = 14_000;
/// Wacky: the share (per mille) of the expected mate awards and bonuses
/// added to the variant evaluation.
pub const WACKY_MATE_SHARE: i64 = 500;
/// Wacky: the moves a side is expected to need before it mates (for the
/// moves bonus of a mate to come).
pub const WACKY_MOVES_TO_MATE: i64 = 10;
/// Wacky: what a dominant queen collects per move (a check, less the
/// moves the king walks away for).
pub const WACKY_SPAM_PER_MOVE: i64 = 4_000;
/// Wacky: the most moves of domination counted.
pub const WACKY_SPAM_MOVES: i64 = 250;
/// Plies before the move-count rule over which the expected result drifts
/// to the draw's points.
pub const MOVE_RULE_DRIFT: i32 = 20;

/// An enemy piece (not pawn or king) attacked by one of our pawns.
pub const THREAT_BY_PAWN: Score = s(45, 35);
/// An enemy piece or pawn we attack that nothing defends.
pub const HANGING: Score = s(20, 20);
/// Passed pawns in the endgame: per square of the enemy king's and our
/// king's distance to the square in front, times (rank - 2).
pub const PASSED_KING_THEIRS: i32 = 5;
/// See [`PASSED_KING_THEIRS`].
pub const PASSED_KING_OURS: i32 = 2;

/// A file with none of our pawns next to or under our king, middlegame.
pub const KING_OPEN_FILE: Score = s(-22, 0);
