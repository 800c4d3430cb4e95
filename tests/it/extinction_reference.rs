//! A slow, plainly written reference move generator for extinction chess
//! (docs/rules.md, `extinction`), and its agreement with Tally's
//! `Extinction` position: perft on every position of `positions/extinction.perft`, and the exact
//! move sets, boards and endings at every node of a few hundred random
//! playouts.
//!
//! The reference is a 64-square mailbox with direction loops: no bitboards,
//! no attack tables. shakmaty is used only to parse a FEN into a board and to
//! compare with Tally's positions.

use std::path::PathBuf;

use shakmaty::fen::Fen;
use shakmaty::{CastlingSide, Color, Piece, Position, Role, Square};
use tally::rules::{ActionList, Ending, Extinction, Node, Rules, Variant, perft};

// ---------------------------------------------------------------------------
// The reference generator.

/// Square index: `rank * 8 + file`, a1 = 0, h8 = 63.
type Sq = usize;

fn sq_at(file: i32, rank: i32) -> Option<Sq> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as Sq)
}

fn file_of(s: Sq) -> i32 {
    (s % 8) as i32
}

fn rank_of(s: Sq) -> i32 {
    (s / 8) as i32
}

fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const PROMOTIONS: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::King,
];
const ALL_ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    DoublePush,
    EnPassant,
    Castle,
}

#[derive(Clone, Copy, Debug)]
struct RefMove {
    from: Sq,
    to: Sq,
    promotion: Option<Role>,
    kind: Kind,
}

impl RefMove {
    /// UCI text; castling as king to its destination (`e1g1`).
    fn uci(&self) -> String {
        let mut s = name(self.from) + &name(self.to);
        if let Some(p) = self.promotion {
            s.push(p.char());
        }
        s
    }
}

/// Index of a colour in `castling`.
fn ci(c: Color) -> usize {
    if c.is_white() { 0 } else { 1 }
}

#[derive(Clone, Debug)]
struct RefPos {
    squares: [Option<(Color, Role)>; 64],
    turn: Color,
    /// `[colour][0 = king side, 1 = queen side]`.
    castling: [[bool; 2]; 2],
    ep: Option<Sq>,
}

impl RefPos {
    fn from_fen(fen: &str) -> RefPos {
        let setup = fen.parse::<Fen>().expect("FEN").into_setup();
        let mut squares = [None; 64];
        for (i, cell) in squares.iter_mut().enumerate() {
            *cell = setup
                .board
                .piece_at(Square::new(i as u32))
                .map(|p| (p.color, p.role));
        }
        let rights = setup.castling_rights;
        RefPos {
            squares,
            turn: setup.turn,
            castling: [
                [rights.contains(Square::H1), rights.contains(Square::A1)],
                [rights.contains(Square::H8), rights.contains(Square::A8)],
            ],
            ep: setup.ep_square.map(|s| s as Sq),
        }
    }

    fn extinct(&self, color: Color) -> bool {
        ALL_ROLES
            .iter()
            .any(|&r| !self.squares.contains(&Some((color, r))))
    }

    fn over(&self) -> bool {
        self.extinct(Color::White) || self.extinct(Color::Black)
    }

    /// The legal moves; none once the game is over.
    fn moves(&self) -> Vec<RefMove> {
        if self.over() {
            Vec::new()
        } else {
            self.generate()
        }
    }

    /// Every move by the piece-movement rules, game over or not.
    fn generate(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        for from in 0..64 {
            let Some((color, role)) = self.squares[from] else {
                continue;
            };
            if color != us {
                continue;
            }
            match role {
                Role::Pawn => self.pawn_moves(from, &mut out),
                Role::Knight => self.step_moves(from, &KNIGHT_JUMPS, &mut out),
                Role::King => {
                    self.step_moves(from, &ROOK_DIRS, &mut out);
                    self.step_moves(from, &BISHOP_DIRS, &mut out);
                }
                Role::Bishop => self.slide_moves(from, &BISHOP_DIRS, &mut out),
                Role::Rook => self.slide_moves(from, &ROOK_DIRS, &mut out),
                Role::Queen => {
                    self.slide_moves(from, &ROOK_DIRS, &mut out);
                    self.slide_moves(from, &BISHOP_DIRS, &mut out);
                }
            }
        }
        self.castling_moves(&mut out);
        out
    }

    fn own(&self, s: Sq) -> bool {
        matches!(self.squares[s], Some((c, _)) if c == self.turn)
    }

    fn enemy(&self, s: Sq) -> bool {
        matches!(self.squares[s], Some((c, _)) if c != self.turn)
    }

    fn plain(from: Sq, to: Sq) -> RefMove {
        RefMove {
            from,
            to,
            promotion: None,
            kind: Kind::Plain,
        }
    }

    fn step_moves(&self, from: Sq, steps: &[(i32, i32)], out: &mut Vec<RefMove>) {
        for &(df, dr) in steps {
            if let Some(to) = sq_at(file_of(from) + df, rank_of(from) + dr)
                && !self.own(to)
            {
                out.push(RefPos::plain(from, to));
            }
        }
    }

    fn slide_moves(&self, from: Sq, dirs: &[(i32, i32)], out: &mut Vec<RefMove>) {
        for &(df, dr) in dirs {
            let (mut f, mut r) = (file_of(from), rank_of(from));
            loop {
                f += df;
                r += dr;
                let Some(to) = sq_at(f, r) else { break };
                if self.own(to) {
                    break;
                }
                out.push(RefPos::plain(from, to));
                if self.enemy(to) {
                    break;
                }
            }
        }
    }

    fn pawn_moves(&self, from: Sq, out: &mut Vec<RefMove>) {
        let (forward, start_rank, last_rank) = if self.turn.is_white() {
            (1, 1, 7)
        } else {
            (-1, 6, 0)
        };
        let (f, r) = (file_of(from), rank_of(from));
        let mut push = |to: Sq, kind: Kind| {
            if rank_of(to) == last_rank {
                for p in PROMOTIONS {
                    out.push(RefMove {
                        from,
                        to,
                        promotion: Some(p),
                        kind,
                    });
                }
            } else {
                out.push(RefMove {
                    from,
                    to,
                    promotion: None,
                    kind,
                });
            }
        };
        if let Some(one) = sq_at(f, r + forward)
            && self.squares[one].is_none()
        {
            push(one, Kind::Plain);
            if r == start_rank
                && let Some(two) = sq_at(f, r + 2 * forward)
                && self.squares[two].is_none()
            {
                push(two, Kind::DoublePush);
            }
        }
        for df in [-1, 1] {
            let Some(to) = sq_at(f + df, r + forward) else {
                continue;
            };
            if self.enemy(to) {
                push(to, Kind::Plain);
            } else if self.ep == Some(to) {
                push(to, Kind::EnPassant);
            }
        }
    }

    /// Castling: the right, the king on e1/e8, the rook in its corner and
    /// empty squares between them. Attacks do not matter.
    fn castling_moves(&self, out: &mut Vec<RefMove>) {
        let us = self.turn;
        let home = if us.is_white() { 0 } else { 56 };
        if self.squares[home + 4] != Some((us, Role::King)) {
            return;
        }
        // (side index, rook square, squares between, king destination)
        let sides: [(usize, Sq, &[Sq], Sq); 2] = [
            (0, home + 7, &[home + 5, home + 6], home + 6),
            (1, home, &[home + 1, home + 2, home + 3], home + 2),
        ];
        for (side, rook, between, king_to) in sides {
            if self.castling[ci(us)][side]
                && self.squares[rook] == Some((us, Role::Rook))
                && between.iter().all(|&s| self.squares[s].is_none())
            {
                out.push(RefMove {
                    from: home + 4,
                    to: king_to,
                    promotion: None,
                    kind: Kind::Castle,
                });
            }
        }
    }

    fn play(&self, m: RefMove) -> RefPos {
        let mut next = self.clone();
        let us = self.turn;
        let piece = next.squares[m.from].take();
        // A move from or to a corner or a king's home square ends the
        // castling rights tied to it.
        for s in [m.from, m.to] {
            match s {
                0 => next.castling[0][1] = false,
                4 => next.castling[0] = [false, false],
                7 => next.castling[0][0] = false,
                56 => next.castling[1][1] = false,
                60 => next.castling[1] = [false, false],
                63 => next.castling[1][0] = false,
                _ => {}
            }
        }
        next.ep = None;
        match m.kind {
            Kind::Plain => {
                next.squares[m.to] = m.promotion.map(|p| (us, p)).or(piece);
            }
            Kind::DoublePush => {
                next.squares[m.to] = piece;
                next.ep = Some((m.from + m.to) / 2);
            }
            Kind::EnPassant => {
                next.squares[m.to] = piece;
                let captured = rank_of(m.from) as Sq * 8 + file_of(m.to) as Sq;
                next.squares[captured] = None;
            }
            Kind::Castle => {
                next.squares[m.to] = piece;
                let (rook_from, rook_to) = if m.to > m.from {
                    (m.from + 3, m.from + 1)
                } else {
                    (m.from - 4, m.from - 1)
                };
                next.squares[rook_to] = next.squares[rook_from].take();
            }
        }
        next.turn = !us;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }

    /// The ending on arrival, in the spec's order: no legal move (a draw),
    /// then extinction (the side to move loses if it is extinct, else wins
    /// if the other side is).
    fn ending(&self) -> Option<Ending> {
        if self.generate().is_empty() {
            Some(Ending::Stalemate {
                stalemated: self.turn,
            })
        } else if self.extinct(self.turn) {
            Some(Ending::Extinction { winner: !self.turn })
        } else if self.extinct(!self.turn) {
            Some(Ending::Extinction { winner: self.turn })
        } else {
            None
        }
    }
}

// ---------------------------------------------------------------------------
// Comparison with Tally.

fn rules() -> Rules<Extinction> {
    Rules::new(Variant::Extinction)
}

fn tally_moves(rules: &Rules<Extinction>, node: &Node<Extinction>) -> Vec<String> {
    let mut list = ActionList::new();
    rules.legal_actions(node, &mut list);
    let mut out: Vec<String> = list.iter().map(|a| a.to_string()).collect();
    out.sort();
    out
}

fn ref_moves(pos: &RefPos) -> Vec<String> {
    let mut out: Vec<String> = pos.moves().iter().map(RefMove::uci).collect();
    out.sort();
    out
}

/// Asserts that Tally's node and the reference position hold the same
/// board, side to move, castling rights and en-passant square.
fn assert_same_state(node: &Node<Extinction>, pos: &RefPos, context: &str) {
    let board = node.pos.board();
    for (i, cell) in pos.squares.iter().enumerate() {
        let want = cell.map(|(color, role)| Piece { color, role });
        assert_eq!(
            board.piece_at(Square::new(i as u32)),
            want,
            "{context}: square {}",
            name(i)
        );
    }
    assert_eq!(node.pos.turn(), pos.turn, "{context}: turn");
    let castles = node.pos.castles();
    for color in Color::ALL {
        for (side, idx) in [(CastlingSide::KingSide, 0), (CastlingSide::QueenSide, 1)] {
            assert_eq!(
                castles.has(color, side),
                pos.castling[ci(color)][idx],
                "{context}: castling {color:?} {side:?}"
            );
        }
    }
    assert_eq!(
        node.pos.maybe_ep_square().map(|s| s as Sq),
        pos.ep,
        "{context}: en passant"
    );
}

/// `(id, epd, depth, nodes)` of every perft line in `extinction.perft`.
fn perft_cases() -> Vec<(String, String, u32, u64)> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "positions", "extinction.perft"]
        .iter()
        .collect();
    let text = std::fs::read_to_string(&path).expect("extinction.perft");
    let mut out = Vec::new();
    let (mut id, mut epd) = (String::new(), String::new());
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.trim().to_owned();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            epd = rest.trim().to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.trim().split_once(' ').expect("perft DEPTH NODES");
            out.push((
                id.clone(),
                epd.clone(),
                d.parse().expect("depth"),
                n.trim().parse().expect("nodes"),
            ));
        }
    }
    out
}

/// The reference agrees with the data file (and so with Tally, which
/// `tests/it/perft.rs` checks against the same file) at depth 3 and below, and
/// at depth 4 where the count is under a million.
#[test]
fn reference_perft_matches_the_data() {
    let cases = perft_cases();
    let mut checked = 0;
    for (id, epd, depth, nodes) in &cases {
        if *depth <= 3 || (*depth == 4 && *nodes <= 1_000_000) {
            assert_eq!(
                RefPos::from_fen(epd).perft(*depth),
                *nodes,
                "{id} depth {depth}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 37);
}

/// The reference and Tally count the same trees, independently of the file.
#[test]
fn reference_perft_matches_tally() {
    let rules = rules();
    let mut checked = 0;
    for (id, epd, depth, _) in perft_cases() {
        if depth <= 3 {
            let node = rules.from_fen(&epd).expect("FEN");
            assert_eq!(
                Ok(RefPos::from_fen(&epd).perft(depth)),
                perft(&rules, &node, depth),
                "{id} depth {depth}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 32);
}

/// xorshift64*: a fixed, dependency-free sequence for the playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random games from every running position of the data file: at every node
/// the move sets (as UCI text), the board state and the ending must agree.
#[test]
fn random_playouts_agree_move_by_move() {
    const PLAYOUTS_PER_START: usize = 30;
    const MAX_PLIES: usize = 300;
    let rules = rules();
    let mut starts: Vec<String> = perft_cases()
        .into_iter()
        .map(|(_, epd, _, _)| epd)
        .collect();
    starts.dedup();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut nodes, mut endings) = (0, 0u64, [0usize; 3]);
    // How often castling, en passant and promotion to king were compared.
    let mut kinds = [0usize; 3];
    for start in &starts {
        if RefPos::from_fen(start).over() {
            continue;
        }
        for game in 0..PLAYOUTS_PER_START {
            let mut node = rules.from_fen(start).expect("FEN");
            let mut pos = RefPos::from_fen(start);
            let mut played: Vec<String> = Vec::new();
            loop {
                let context = format!("{start} game {game} after [{}]", played.join(" "));
                assert_same_state(&node, &pos, &context);
                let want = ref_moves(&pos);
                assert_eq!(tally_moves(&rules, &node), want, "{context}");
                for m in pos.moves() {
                    match (m.kind, m.promotion) {
                        (Kind::Castle, _) => kinds[0] += 1,
                        (Kind::EnPassant, _) => kinds[1] += 1,
                        (_, Some(Role::King)) => kinds[2] += 1,
                        _ => {}
                    }
                }
                assert_eq!(rules.position_ending(&node), pos.ending(), "{context}");
                nodes += 1;
                if want.is_empty() || played.len() == MAX_PLIES {
                    match pos.ending() {
                        Some(Ending::Extinction { .. }) => endings[0] += 1,
                        Some(_) => endings[1] += 1,
                        None => endings[2] += 1,
                    }
                    break;
                }
                let moves = pos.moves();
                let m = moves[rng.below(moves.len())];
                let text = m.uci();
                let (_, next) = rules.play_text(&node, &text).expect("legal in Tally");
                node = next;
                pos = pos.play(m);
                played.push(text);
            }
            games += 1;
        }
    }
    assert_eq!(games, 10 * PLAYOUTS_PER_START);
    // The playouts reach real extinctions, not only the ply limit.
    assert!(endings[0] > games / 2, "{endings:?} over {nodes} nodes");
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
}

/// Hand-checked reference facts, so the reference itself is tested.
#[test]
fn reference_sanity() {
    let start = RefPos::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(start.moves().len(), 20);
    assert_eq!(start.ending(), None);
    // The king may step into the attacks of the queen on e3.
    let kings = RefPos::from_fen("rnbqkbnr/pppp1ppp/8/8/8/4q3/PPP2PPP/RNBQKBNR w KQkq - 0 1");
    let moves = ref_moves(&kings);
    assert!(moves.contains(&"e1d2".to_owned()) && moves.contains(&"e1e2".to_owned()));
    // Castling through attack; promotion to king.
    let castle = RefPos::from_fen("r3k1r1/ppp1qp1p/2n2n2/8/b1B5/2N2Q2/PP3P1P/R3K2R w KQq - 0 1");
    let moves = ref_moves(&castle);
    assert!(moves.contains(&"e1g1".to_owned()) && moves.contains(&"e1c1".to_owned()));
    let promo = RefPos::from_fen("rnbqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(ref_moves(&promo).contains(&"b7a8k".to_owned()));
    // Mutual extinction: the mover wins.
    let mutual = RefPos::from_fen("r3k3/1P1nbqp1/8/8/8/8/8/RNBQK3 w - - 0 1");
    let bxa8 = mutual
        .moves()
        .into_iter()
        .find(|m| m.uci() == "b7a8q")
        .expect("bxa8=Q");
    assert_eq!(
        mutual.play(bxa8).ending(),
        Some(Ending::Extinction {
            winner: Color::White
        })
    );
}
