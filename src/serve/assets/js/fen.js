// @ts-check
// Pure board helpers: a FEN's pieces, squares, the legal moves as a map of
// destinations, the geometry of a premove, and which pieces moved between
// two positions (for the animation). No DOM here: the unit tests import it.

/** @typedef {import("./pieces.js").Role} Role */
/** @typedef {import("./pieces.js").Color} Color */
/** @typedef {import("./types.js").LegalMove} LegalMove */
/** @typedef {{ color: Color, role: Role }} Piece */
/** @typedef {Map<string, Piece>} Pieces */

export const FILES = "abcdefgh";

/** @param {number} file 0-7 @param {number} rank 0-7 */
export function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

/**
 * A square's file and rank, 0-7 each; null for no square.
 * @param {string} square
 * @returns {[number, number] | null}
 */
export function squareXY(square) {
  if (typeof square !== "string" || square.length !== 2) return null;
  const f = FILES.indexOf(square[0]);
  const r = Number(square[1]) - 1;
  if (f < 0 || !(r >= 0 && r <= 7)) return null;
  return [f, r];
}

/** @param {string} square */
export function isDark(square) {
  const xy = squareXY(square);
  return xy !== null && (xy[0] + xy[1]) % 2 === 0;
}

/**
 * The pieces of a FEN's placement field.
 * @param {string} fen
 * @returns {Pieces}
 */
export function placement(fen) {
  /** @type {Pieces} */
  const out = new Map();
  const rows = String(fen || "").trim().split(/\s+/)[0].split("/");
  for (let r = 0; r < 8 && r < rows.length; r++) {
    let f = 0;
    for (const ch of rows[r]) {
      if (ch >= "1" && ch <= "8") {
        f += Number(ch);
        continue;
      }
      if (f > 7) break;
      const lower = ch.toLowerCase();
      if ("kqrbnp".includes(lower)) {
        out.set(squareName(f, 7 - r), { color: ch === lower ? "b" : "w", role: /** @type {Role} */ (lower) });
      }
      f++;
    }
  }
  return out;
}

/**
 * The side to move of a FEN.
 * @param {string} fen
 * @returns {Color}
 */
export function fenTurn(fen) {
  return String(fen || "").trim().split(/\s+/)[1] === "b" ? "b" : "w";
}

/**
 * The square of `color`'s king, if one.
 * @param {Pieces} pieces @param {Color} color
 * @returns {string | null}
 */
export function kingSquare(pieces, color) {
  for (const [sq, p] of pieces) if (p.role === "k" && p.color === color) return sq;
  return null;
}

/**
 * The king in check after a ply, from its SAN's `+` or `#`: the square of
 * the side to move's king in `fen`.
 * @param {string} fen @param {string} san
 * @returns {string | null}
 */
export function checkedKing(fen, san) {
  if (!/[+#]$/.test(String(san || ""))) return null;
  return kingSquare(placement(fen), fenTurn(fen));
}

/**
 * The legal moves as a map from each square a move leaves to the squares
 * it may reach.
 * @param {LegalMove[]} moves
 * @returns {Map<string, string[]>}
 */
export function destsOf(moves) {
  /** @type {Map<string, string[]>} */
  const dests = new Map();
  for (const m of moves || []) {
    const list = dests.get(m.from) || [];
    if (!list.includes(m.to)) list.push(m.to);
    dests.set(m.from, list);
  }
  return dests;
}

/**
 * The legal moves from UCI texts (the analyse view's ranked actions);
 * special words are left out.
 * @param {string[]} ucis
 * @returns {LegalMove[]}
 */
export function movesOfUci(ucis) {
  /** @type {LegalMove[]} */
  const out = [];
  for (const u of ucis || []) {
    if (!/^[a-h][1-8][a-h][1-8][qrbnk]?$/.test(u)) continue;
    out.push({ uci: u, from: u.slice(0, 2), to: u.slice(2, 4), promotion: u.length > 4 ? u[4] : null });
  }
  return out;
}

/**
 * The legal moves from `from` to `to` (several: a promotion's choices).
 * @param {LegalMove[]} moves @param {string} from @param {string} to
 * @returns {LegalMove[]}
 */
export function movesBetween(moves, from, to) {
  return (moves || []).filter((m) => m.from === from && m.to === to);
}

/**
 * The move a premove stands for once it is the person's turn: the legal
 * move between its squares, a queen when it promotes (else the first
 * promotion offered); null when it is not legal now.
 * @param {LegalMove[]} moves @param {string} from @param {string} to
 * @returns {LegalMove | null}
 */
export function premoveMove(moves, from, to) {
  const found = movesBetween(moves, from, to);
  if (found.length === 0) return null;
  return found.find((m) => m.promotion === "q") || found.find((m) => !m.promotion) || found[0];
}

/**
 * Where the piece on `from` might go at its next turn, by how it moves
 * and ignoring what stands in the way (what a premove may name): the
 * rules decide when the turn comes.
 * @param {Pieces} pieces @param {string} from
 * @returns {string[]}
 */
export function premoveDests(pieces, from) {
  const p = pieces.get(from);
  const xy = squareXY(from);
  if (!p || !xy) return [];
  const [f, r] = xy;
  /** @type {string[]} */
  const out = [];
  const add = (/** @type {number} */ x, /** @type {number} */ y) => {
    if (x >= 0 && x < 8 && y >= 0 && y < 8 && !(x === f && y === r)) {
      const s = squareName(x, y);
      if (!out.includes(s)) out.push(s);
    }
  };
  /** @param {number[][]} dirs */
  const rays = (dirs) => {
    for (const [dx, dy] of dirs) for (let i = 1; i < 8; i++) add(f + dx * i, r + dy * i);
  };
  const straight = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const diagonal = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  switch (p.role) {
    case "p": {
      const dir = p.color === "w" ? 1 : -1;
      add(f, r + dir);
      if ((p.color === "w" && r === 1) || (p.color === "b" && r === 6)) add(f, r + 2 * dir);
      add(f - 1, r + dir);
      add(f + 1, r + dir);
      break;
    }
    case "n":
      for (const [dx, dy] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) add(f + dx, r + dy);
      break;
    case "b":
      rays(diagonal);
      break;
    case "r":
      rays(straight);
      break;
    case "q":
      rays(straight.concat(diagonal));
      break;
    case "k": {
      for (const [dx, dy] of straight.concat(diagonal)) add(f + dx, r + dy);
      const home = p.color === "w" ? 0 : 7;
      if (r === home) {
        // Castling: two squares aside, or onto an own rook of the back
        // rank (Chess960 names castling so).
        add(2, home);
        add(6, home);
        for (const [sq, q] of pieces) {
          const at = squareXY(sq);
          if (at && q.role === "r" && q.color === p.color && at[1] === home) add(at[0], home);
        }
      }
      break;
    }
  }
  return out;
}

/**
 * The pieces that moved from one position to the next: each piece that
 * appeared is paired with the nearest piece of its kind that left
 * (castling moves two; a promotion or a capture's victim moves none).
 * @param {Pieces} before @param {Pieces} after
 * @returns {[string, string][]} [from, to] pairs
 */
export function movedPieces(before, after) {
  /** @type {string[]} */
  const gone = [];
  /** @type {string[]} */
  const came = [];
  for (const [sq, p] of before) {
    const q = after.get(sq);
    if (!q || q.color !== p.color || q.role !== p.role) gone.push(sq);
  }
  for (const [sq, p] of after) {
    const q = before.get(sq);
    if (!q || q.color !== p.color || q.role !== p.role) came.push(sq);
  }
  /** @type {[string, string][]} */
  const pairs = [];
  for (const to of came) {
    const piece = after.get(to);
    let best = -1;
    let bestDistance = Infinity;
    gone.forEach((from, i) => {
      const p = before.get(from);
      if (!p || !piece || p.color !== piece.color || p.role !== piece.role) return;
      const a = /** @type {[number, number]} */ (squareXY(from));
      const b = /** @type {[number, number]} */ (squareXY(to));
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    });
    if (best >= 0) {
      pairs.push([gone[best], to]);
      gone.splice(best, 1);
    }
  }
  return pairs;
}
