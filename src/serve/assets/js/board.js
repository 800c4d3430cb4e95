// @ts-check
// A board of 64 squares with the project's pieces: pointer input by
// click-click or drag, calling `onMove(from, to)` for a move among the
// legal destinations it is given (a map from square to squares, as
// chessground structures it); a premove for the pieces of one colour when
// it is not their turn; last-move, check, selection and destination marks
// that keep each square's colour; pieces that glide to their squares;
// arrows drawn in SVG over the board; coordinates on the edge squares.
//
// The squares carry `data-square` (the analysis board `data-asquare`);
// the root carries `data-fen`, the position shown.

import { FILES, isDark, movedPieces, placement, premoveDests, squareXY } from "./fen.js";
import { ROLE_NAMES, pieceSvg } from "./pieces.js";

/** @typedef {import("./fen.js").Pieces} Pieces */
/** @typedef {import("./pieces.js").Role} Role */
/** @typedef {import("./pieces.js").Color} Color */

/**
 * An arrow over the board.
 * @typedef {object} Arrow
 * @property {string} from
 * @property {string} to
 * @property {"hint" | "line" | "next"} kind
 */

/**
 * What the board shows.
 * @typedef {object} BoardView
 * @property {string} fen
 * @property {[string, string] | null} [lastMove]
 * @property {string | null} [check] the square of a king in check
 * @property {Map<string, string[]> | null} [dests] the legal moves now; none may move without
 * @property {Color | null} [premoveColor] the colour whose pieces may be premoved now
 * @property {[string, string] | null} [premove] the premove queued
 * @property {string | null} [disk] the square of tiebraker's disk
 * @property {Arrow[]} [arrows]
 * @property {boolean} [animate] glide the pieces that moved (default on)
 */

/**
 * @typedef {object} BoardOptions
 * @property {string} attr the squares' attribute: `data-square` or `data-asquare`
 * @property {(from: string, to: string) => void} [onMove] a move among the destinations
 * @property {(move: [string, string] | null) => void} [onPremove] a premove named, or cancelled
 * @property {(square: string) => boolean} [intercept] a press on the board; true: taken (no move input)
 */

const SVG_NS = "http://www.w3.org/2000/svg";
/** How far a press moves before it is a drag, px. */
const DRAG_START = 4;
/** How long a piece glides, ms. */
const GLIDE_MS = 180;

export class Board {
  /**
   * @param {HTMLElement} root the board's element (a square grid)
   * @param {BoardOptions} options
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    /** @type {"white" | "black"} */
    this.orientation = "white";
    /** @type {Map<string, HTMLElement>} */
    this.squares = new Map();
    /** @type {Map<string, string>} the piece drawn on each square (`wn`) */
    this.drawn = new Map();
    /** @type {BoardView} */
    this.view = { fen: "8/8/8/8/8/8/8/8 w - - 0 1" };
    /** @type {Pieces} */
    this.pieces = new Map();
    /** @type {string | null} */
    this.selected = null;
    /** @type {{ from: string, x: number, y: number, id: number, ghost: HTMLElement | null, was: boolean, over: string | null } | null} */
    this.drag = null;
    /** @type {string | null} a square a piece was just dropped on (it does not glide there) */
    this.dropped = null;
    this.arrows = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
    this.arrows.setAttribute("class", "arrows");
    this.arrows.setAttribute("viewBox", "0 0 800 800");
    this.arrows.setAttribute("aria-hidden", "true");
    /** @type {HTMLElement | null} */
    this.chooser = null;
    this.build();
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("pointermove", (e) => this.move(e));
    root.addEventListener("pointerup", (e) => this.up(e, true));
    root.addEventListener("pointercancel", (e) => this.up(e, false));
    root.addEventListener("contextmenu", (e) => {
      // A right click clears a premove and a selection, as on other boards.
      e.preventDefault();
      this.select(null);
      if (this.view.premove && this.options.onPremove) this.options.onPremove(null);
    });
  }

  /** Builds the 64 squares for the orientation. */
  build() {
    this.root.replaceChildren();
    this.squares.clear();
    this.drawn.clear();
    const flipped = this.orientation === "black";
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = flipped ? 7 - col : col;
        const rank = flipped ? row : 7 - row;
        const name = FILES[file] + String(rank + 1);
        const sq = document.createElement("div");
        sq.className = "sq " + (isDark(name) ? "dark" : "light");
        sq.setAttribute(this.options.attr, name);
        if (row === 7) sq.appendChild(coord("file", FILES[file]));
        if (col === 0) sq.appendChild(coord("rank", String(rank + 1)));
        this.root.appendChild(sq);
        this.squares.set(name, sq);
      }
    }
    this.root.appendChild(this.arrows);
    this.root.classList.toggle("flipped", flipped);
  }

  /** @param {"white" | "black"} side the side at the bottom */
  setOrientation(side) {
    if (side === this.orientation) return;
    this.orientation = side;
    this.closeChooser();
    this.build();
    this.set({ ...this.view, animate: false });
  }

  /**
   * Shows `view`.
   * @param {BoardView} view
   */
  set(view) {
    const before = this.pieces;
    const pieces = placement(view.fen);
    const changed = view.fen !== this.view.fen;
    this.view = view;
    this.pieces = pieces;
    this.root.setAttribute("data-fen", view.fen);
    for (const [name, sq] of this.squares) {
      const p = pieces.get(name);
      const key = p ? p.color + p.role : "";
      if (this.drawn.get(name) === key && !(p && p.role === "k")) continue;
      sq.querySelectorAll(".piece").forEach((e) => e.remove());
      if (p) sq.appendChild(pieceElement(p.color, p.role, p.role === "k" && view.disk === name));
      this.drawn.set(name, key);
    }
    if (changed) {
      if (view.animate !== false) this.glide(movedPieces(before, pieces));
      this.dropped = null;
      this.selected = null;
    }
    if (this.selected && this.destsFrom(this.selected).length === 0) this.selected = null;
    this.marks();
    this.drawArrows(view.arrows || []);
  }

  /** Redraws the marks: last move, check, selection, destinations, premove. */
  marks() {
    const v = this.view;
    const targets = this.selected ? this.destsFrom(this.selected) : [];
    const pre = v.premove || null;
    for (const [name, sq] of this.squares) {
      const last = Boolean(v.lastMove && v.lastMove.includes(name));
      if (last) sq.setAttribute("data-lastmove", "");
      else sq.removeAttribute("data-lastmove");
      sq.classList.toggle("last", last);
      sq.classList.toggle("check", v.check === name);
      sq.classList.toggle("selected", this.selected === name);
      sq.classList.toggle("dest", targets.includes(name));
      sq.classList.toggle("occupied", this.pieces.has(name));
      const premove = Boolean(pre && pre.includes(name));
      sq.classList.toggle("premove", premove);
      if (premove) sq.setAttribute("data-premove", pre && pre[0] === name ? "from" : "to");
      else sq.removeAttribute("data-premove");
    }
  }

  /** Whether a press names a premove now (not the side to move's turn). */
  premoving() {
    return !this.view.dests && Boolean(this.view.premoveColor);
  }

  /**
   * The squares the piece on `from` may go to now: legal destinations, or
   * a premove's.
   * @param {string} from
   * @returns {string[]}
   */
  destsFrom(from) {
    const d = this.view.dests;
    if (d) return d.get(from) || [];
    const p = this.pieces.get(from);
    if (this.view.premoveColor && p && p.color === this.view.premoveColor) return premoveDests(this.pieces, from);
    return [];
  }

  /** @param {string | null} square */
  select(square) {
    this.selected = square;
    this.marks();
  }

  /**
   * A move or premove from `from` to `to`, once it is one.
   * @param {string} from @param {string} to @param {boolean} [dragged]
   */
  finish(from, to, dragged = false) {
    this.select(null);
    if (this.premoving()) {
      if (this.options.onPremove) this.options.onPremove([from, to]);
    } else if (this.options.onMove) {
      this.shift(from, to, !dragged);
      this.options.onMove(from, to);
    }
  }

  /**
   * Puts the piece on its new square at once, before the server's answer
   * (which redraws the position as it is: castling's rook, a promotion,
   * or the old position when the move is refused).
   * @param {string} from @param {string} to @param {boolean} glide
   */
  shift(from, to, glide) {
    const a = this.squares.get(from);
    const b = this.squares.get(to);
    const piece = a && a.querySelector(".piece");
    const mover = this.pieces.get(from);
    const there = this.pieces.get(to);
    // Castling onto an own rook (Chess960) waits for the answer.
    if (!a || !b || !piece || !mover || (there && there.color === mover.color)) return;
    const ra = a.getBoundingClientRect();
    const rb = b.getBoundingClientRect();
    b.querySelectorAll(".piece").forEach((e) => e.remove());
    b.appendChild(piece);
    this.drawn.set(from, "?");
    this.drawn.set(to, "?");
    this.dropped = to;
    if (glide && typeof piece.animate === "function") {
      piece.animate([{ transform: `translate(${ra.left - rb.left}px, ${ra.top - rb.top}px)` }, { transform: "translate(0, 0)" }], {
        duration: GLIDE_MS,
        easing: "cubic-bezier(0.3, 0.7, 0.4, 1)",
      });
    }
  }

  /** Draws every piece again, as the position is (a refused move's piece goes back). */
  redraw() {
    this.drawn.clear();
    this.dropped = null;
    this.set({ ...this.view, animate: false });
  }

  /**
   * The square under a point of the screen.
   * @param {number} x @param {number} y
   * @returns {string | null}
   */
  squareAt(x, y) {
    const r = this.root.getBoundingClientRect();
    if (x < r.left || y < r.top || x >= r.right || y >= r.bottom) return null;
    const col = Math.floor(((x - r.left) / r.width) * 8);
    const row = Math.floor(((y - r.top) / r.height) * 8);
    const flipped = this.orientation === "black";
    const file = flipped ? 7 - col : col;
    const rank = flipped ? row : 7 - row;
    if (file < 0 || file > 7 || rank < 0 || rank > 7) return null;
    return FILES[file] + String(rank + 1);
  }

  /** @param {PointerEvent} e */
  down(e) {
    if (e.button !== 0 || this.chooser) return;
    const square = this.squareAt(e.clientX, e.clientY);
    if (!square) return;
    if (this.options.intercept && this.options.intercept(square)) return;
    const sel = this.selected;
    if (sel && sel !== square && this.destsFrom(sel).includes(square)) {
      this.finish(sel, square);
      return;
    }
    if (this.destsFrom(square).length > 0) {
      const was = sel === square;
      this.select(square);
      this.drag = { from: square, x: e.clientX, y: e.clientY, id: e.pointerId, ghost: null, was, over: null };
      try {
        this.root.setPointerCapture(e.pointerId);
      } catch (err) {
        // A synthetic press has no pointer to capture.
      }
      e.preventDefault();
      return;
    }
    this.select(null);
    if (this.view.premove && this.options.onPremove) this.options.onPremove(null);
  }

  /** @param {PointerEvent} e */
  move(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > DRAG_START) {
      const sq = this.squares.get(d.from);
      const piece = sq && sq.querySelector(".piece");
      if (!sq || !piece) return;
      const size = sq.getBoundingClientRect().width;
      const ghost = /** @type {HTMLElement} */ (piece.cloneNode(true));
      ghost.classList.add("ghost");
      ghost.style.width = size + "px";
      ghost.style.height = size + "px";
      document.body.appendChild(ghost);
      piece.classList.add("lifted");
      d.ghost = ghost;
    }
    if (d.ghost) {
      d.ghost.style.left = e.clientX + "px";
      d.ghost.style.top = e.clientY + "px";
      const over = this.squareAt(e.clientX, e.clientY);
      if (over !== d.over) {
        if (d.over) this.squares.get(d.over)?.classList.remove("hover");
        if (over && this.destsFrom(d.from).includes(over)) this.squares.get(over)?.classList.add("hover");
        d.over = over;
      }
    }
  }

  /** @param {PointerEvent} e @param {boolean} drop */
  up(e, drop) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (d.over) this.squares.get(d.over)?.classList.remove("hover");
    if (d.ghost) {
      d.ghost.remove();
      this.root.querySelectorAll(".piece.lifted").forEach((p) => p.classList.remove("lifted"));
      const to = drop ? this.squareAt(e.clientX, e.clientY) : null;
      if (to && to !== d.from && this.destsFrom(d.from).includes(to)) {
        this.finish(d.from, to, true);
        return;
      }
      // Dropped back or off the board: the piece stays selected.
      return;
    }
    // A click on the piece already selected puts it down.
    if (d.was) this.select(null);
  }

  /**
   * Glides the pieces that moved from their old squares.
   * @param {[string, string][]} pairs
   */
  glide(pairs) {
    for (const [from, to] of pairs) {
      if (to === this.dropped) continue;
      const a = this.squares.get(from);
      const b = this.squares.get(to);
      const piece = b && b.querySelector(".piece");
      if (!a || !b || !piece || typeof piece.animate !== "function") continue;
      const ra = a.getBoundingClientRect();
      const rb = b.getBoundingClientRect();
      const dx = ra.left - rb.left;
      const dy = ra.top - rb.top;
      piece.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], {
        duration: GLIDE_MS,
        easing: "cubic-bezier(0.3, 0.7, 0.4, 1)",
      });
    }
  }

  /**
   * The centre of a square in the arrows' 800 × 800 box.
   * @param {string} square
   * @returns {[number, number] | null}
   */
  centre(square) {
    const xy = squareXY(square);
    if (!xy) return null;
    const flipped = this.orientation === "black";
    const col = flipped ? 7 - xy[0] : xy[0];
    const row = flipped ? xy[1] : 7 - xy[1];
    return [col * 100 + 50, row * 100 + 50];
  }

  /** @param {Arrow[]} arrows */
  drawArrows(arrows) {
    this.arrows.replaceChildren();
    for (const a of arrows) {
      const p = this.centre(a.from);
      const q = this.centre(a.to);
      if (!p || !q || a.from === a.to) continue;
      const [x1, y1] = p;
      const [x2, y2] = q;
      const len = Math.hypot(x2 - x1, y2 - y1);
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      const head = 34;
      const half = 22;
      const width = a.kind === "next" ? 12 : 16;
      // The shaft stops where the head begins; the head's tip short of the
      // centre, so the arrow points into the square.
      const tipX = x2 - ux * 12;
      const tipY = y2 - uy * 12;
      const baseX = tipX - ux * head;
      const baseY = tipY - uy * head;
      const g = document.createElementNS(SVG_NS, "g");
      g.setAttribute("class", "arrow " + a.kind);
      g.setAttribute("data-arrow", a.from + a.to);
      const shaft = document.createElementNS(SVG_NS, "line");
      shaft.setAttribute("x1", String(x1 + ux * 18));
      shaft.setAttribute("y1", String(y1 + uy * 18));
      shaft.setAttribute("x2", String(baseX + ux * 2));
      shaft.setAttribute("y2", String(baseY + uy * 2));
      shaft.setAttribute("stroke-width", String(width));
      shaft.setAttribute("stroke-linecap", "round");
      const tip = document.createElementNS(SVG_NS, "polygon");
      const pts = [
        [tipX, tipY],
        [baseX - uy * half, baseY + ux * half],
        [baseX + uy * half, baseY - ux * half],
      ];
      tip.setAttribute("points", pts.map((pt) => pt[0].toFixed(1) + "," + pt[1].toFixed(1)).join(" "));
      g.appendChild(shaft);
      g.appendChild(tip);
      this.arrows.appendChild(g);
    }
  }

  /**
   * Asks which piece a pawn promotes to, in a column of buttons over the
   * promotion square's file (`data-promotion`); null when put aside.
   * @param {string} square @param {Color} color @param {string[]} roles
   * @returns {Promise<string | null>}
   */
  choose(square, color, roles) {
    this.closeChooser();
    return new Promise((resolve) => {
      const xy = squareXY(square);
      if (!xy) {
        resolve(null);
        return;
      }
      const flipped = this.orientation === "black";
      const col = flipped ? 7 - xy[0] : xy[0];
      const row = flipped ? xy[1] : 7 - xy[1];
      const fromTop = row < 4;
      const shade = document.createElement("div");
      shade.className = "chooser";
      shade.setAttribute("role", "dialog");
      shade.setAttribute("aria-label", "promote to");
      const column = document.createElement("div");
      column.className = "chooser-column " + (fromTop ? "from-top" : "from-bottom");
      column.style.left = col * 12.5 + "%";
      const order = ["q", "n", "r", "b", "k"].filter((r) => roles.includes(r));
      /** @param {string | null} role */
      const done = (role) => {
        this.cancelChoice = null;
        this.closeChooser();
        resolve(role);
      };
      for (const role of order) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "choice";
        b.setAttribute("data-promotion", role);
        const name = ROLE_NAMES[/** @type {Role} */ (role)];
        b.setAttribute("aria-label", "promote to " + name);
        b.title = name;
        b.appendChild(pieceSvg(document, color, /** @type {Role} */ (role)));
        b.addEventListener("click", (ev) => {
          ev.stopPropagation();
          done(role);
        });
        column.appendChild(b);
      }
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "choice cancel";
      cancel.textContent = "\u2715";
      cancel.title = "cancel";
      cancel.setAttribute("aria-label", "cancel the promotion");
      cancel.addEventListener("click", (ev) => {
        ev.stopPropagation();
        done(null);
      });
      column.appendChild(cancel);
      shade.appendChild(column);
      shade.addEventListener("pointerdown", (ev) => ev.stopPropagation());
      shade.addEventListener("click", () => done(null));
      this.root.appendChild(shade);
      this.chooser = shade;
      this.cancelChoice = () => resolve(null);
    });
  }

  /** Closes the promotion chooser, if open. */
  closeChooser() {
    if (this.chooser) {
      this.chooser.remove();
      this.chooser = null;
      const cancel = this.cancelChoice;
      this.cancelChoice = null;
      if (cancel) cancel();
    }
  }
}

/** @type {(() => void) | null} */
Board.prototype.cancelChoice = null;

/**
 * A coordinate label.
 * @param {"file" | "rank"} kind @param {string} text
 */
function coord(kind, text) {
  const s = document.createElement("span");
  s.className = "coord " + kind;
  s.textContent = text;
  return s;
}

/**
 * A piece's element.
 * @param {Color} color @param {Role} role @param {boolean} disk
 * @returns {HTMLElement}
 */
export function pieceElement(color, role, disk) {
  const e = document.createElement("div");
  e.className = "piece " + color + role + (disk ? " disk" : "");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", (color === "w" ? "white " : "black ") + ROLE_NAMES[role] + (disk ? " (the disk)" : ""));
  e.appendChild(pieceSvg(document, color, role));
  return e;
}
