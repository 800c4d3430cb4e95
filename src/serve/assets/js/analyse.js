// @ts-check
// The analyse view: a position from a FEN and moves, a PGN (its Variant
// tag names the variant unless one is chosen) or the open game; every
// legal action ranked by expected points, deepening until stopped, with
// its immediate award event by event and its line in SAN. The board takes
// moves (drag or click) to explore: each move asks for the new position's
// ranking. A ranked line plays out on the board on a click, its first
// moves drawn as arrows while the pointer is over it.

import { Board } from "./board.js";
import { $, el, show, typing } from "./dom.js";
import { checkedKing, destsOf, fenTurn, movesBetween, movesOfUci } from "./fen.js";
import * as fmt from "./format.js";
import { Socket } from "./socket.js";

/** @typedef {import("./types.js").AnalysedPosition} AnalysedPosition */
/** @typedef {import("./types.js").Ranking} Ranking */
/** @typedef {import("./types.js").RankedState} RankedState */
/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./types.js").Catalogue} Catalogue */
/** @typedef {import("./types.js").PositionRequest} PositionRequest */
/** @typedef {import("./board.js").Arrow} Arrow */

/** How long each ply of a line shows when it plays out, ms. */
const LINE_STEP_MS = 700;

/**
 * @typedef {object} LineShown
 * @property {string[]} sans SAN from the start
 * @property {string[]} fens the position before the first ply and after each
 * @property {number} from the index of the analysed position in `fens`
 * @property {number} at the index shown
 */

export class AnalyseView {
  /** @param {Catalogue} catalogue */
  constructor(catalogue) {
    this.catalogue = catalogue;
    /** @type {Socket | null} */
    this.socket = null;
    /** @type {AnalysedPosition | null} */
    this.position = null;
    /** @type {Ranking | null} */
    this.ranking = null;
    /** @type {LineShown | null} */
    this.line = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    /** @type {Arrow[]} */
    this.hover = [];
    this.stopped = false;
    this.running = false;
    /** a word of this page's on the position asked for (shown with the server's note) */
    this.extraNote = "";
    this.form = /** @type {HTMLFormElement} */ ($("analyse-form"));
    const select = /** @type {HTMLSelectElement} */ (this.form.elements.namedItem("variant"));
    for (const v of catalogue.variants) {
      const o = el("option", "", fmt.variantName(v.id));
      o.value = v.id;
      select.appendChild(o);
    }
    this.board = new Board($("aboard"), {
      attr: "data-asquare",
      onMove: (from, to) => this.onBoardMove(from, to),
      intercept: () => {
        if (!this.line) return false;
        this.endLine();
        return true;
      },
    });
    this.wire();
  }

  /** @param {string} name */
  field(name) {
    return /** @type {HTMLInputElement} */ (this.form.elements.namedItem(name));
  }

  wire() {
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.submit();
    });
    $("analyse-stop").addEventListener("click", () => {
      this.stopped = true;
      this.send({ type: "stop" });
      /** @type {HTMLButtonElement} */ ($("analyse-stop")).disabled = true;
      $("astatus").textContent = "stopped";
    });
    $("aline-back").addEventListener("click", () => this.endLine());
    document.addEventListener("keydown", (e) => {
      if ($("view-analyse").classList.contains("hidden") || typing(e.target) || !this.line) return;
      const l = this.line;
      if (e.key === "ArrowLeft") this.lineTo(Math.max(l.from, l.at - 1));
      else if (e.key === "ArrowRight") this.lineTo(Math.min(l.fens.length - 1, l.at + 1));
      else if (e.key === "Escape") this.endLine();
      else return;
      e.preventDefault();
    });
  }

  /** Connects, the first time the view shows. */
  show() {
    if (!this.socket) {
      this.socket = new Socket("/api/analyse/ws", {
        message: (m) => this.onMessage(m),
        trouble: (text) => {
          if (text) $("aerror").textContent = text;
        },
      }, { queue: true });
    }
    if (!this.position) this.board.set({ fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" });
  }

  /** @param {object} m */
  send(m) {
    if (!this.socket) this.show();
    /** @type {Socket} */ (this.socket).send(m);
  }

  /**
   * Asks for the ranking of a position.
   * @param {PositionRequest} request
   */
  analyse(request) {
    this.endLine();
    this.extraNote = "";
    this.stopped = false;
    this.running = true;
    this.ranking = null;
    $("ranking").replaceChildren();
    $("aerror").textContent = "";
    $("anote").textContent = "";
    $("astatus").textContent = "starting…";
    /** @type {HTMLButtonElement} */ ($("analyse-stop")).disabled = false;
    this.send({ type: "analyse", ...request });
  }

  /** The form's position, analysed. */
  submit() {
    /** @type {PositionRequest} */
    const request = { chess960: this.field("chess960").checked };
    const variant = this.field("variant").value;
    if (variant) request.variant = variant;
    const pgn = this.field("pgn").value;
    if (pgn.trim()) request.pgn = pgn;
    else {
      const fen = this.field("fen").value.trim();
      if (fen) request.fen = fen;
      const moves = this.field("moves").value.trim();
      if (moves) request.moves = moves.split(/[\s,]+/);
    }
    this.analyse(request);
  }

  /**
   * Fills the form with a game, its start and its moves, and analyses the
   * position it reached with the game's own setting.
   * @param {GameState} s
   */
  fromGame(s) {
    let moves = s.plies.map((p) => p.action);
    // A game the board ended (a mate, a claim, a draw by rule) has nothing
    // left to rank: its last position with a choice is the one before.
    const kind = s.ending ? s.ending.kind : null;
    const ended = s.status === "over" && kind !== "resignation" && kind !== "time_forfeit" && moves.length > 0;
    if (ended) moves = moves.slice(0, -1);
    this.field("variant").value = s.variant;
    this.field("chess960").checked = s.chess960;
    this.field("fen").value = s.start_fen;
    this.field("moves").value = moves.join(" ");
    this.field("pgn").value = "";
    this.position = null;
    this.board.set({ fen: ended ? (moves.length ? s.plies[moves.length - 1].fen : s.start_fen) : s.fen, lastMove: null, dests: null });
    this.analyse({ variant: s.variant, chess960: s.chess960, specials: s.specials, fen: s.start_fen, moves });
    if (ended) {
      const last = s.plies[s.plies.length - 1];
      this.extraNote = "The game ended with " + fmt.plyText(last) + ": this is the position before it.";
    }
  }

  /** @param {any} m a message from the server */
  onMessage(m) {
    if (m.type === "position") {
      /** @type {AnalysedPosition} */
      const p = m;
      this.position = p;
      $("aerror").textContent = "";
      $("anote").textContent = [p.note, this.extraNote].filter((t) => t).join(" ");
      // The form says what is analysed: the PGN read into its start and
      // moves, a move on the board added.
      this.field("fen").value = p.fen;
      this.field("moves").value = p.moves.join(" ");
      this.field("chess960").checked = p.chess960;
      $("astatus").textContent = "analysing " + fmt.variantName(p.variant) + "…";
      this.drawPath();
      this.drawBoard();
    } else if (m.type === "analysis") {
      /** @type {Ranking} */
      const r = m;
      this.ranking = r;
      if (r.done) {
        this.running = false;
        /** @type {HTMLButtonElement} */ ($("analyse-stop")).disabled = true;
      }
      const what = r.done ? (this.stopped ? "stopped" : "finished") : "deepening";
      const variant = this.position ? fmt.variantName(this.position.variant) + " · " : "";
      $("astatus").textContent = r.done && r.actions.length === 0
        ? variant + "nothing to rank: the game is over in this position"
        : variant + what + " · depth " + (r.depth || 0) + " · " + (r.nodes || 0).toLocaleString("en") + " nodes";
      this.drawRanking();
      // A line playing out stays where it is: only the analysed position
      // takes the ranking's moves.
      if (!this.line) this.drawBoard();
    } else if (m.type === "line") {
      this.playOut(m.sans, m.fens);
    } else if (m.type === "error") {
      $("aerror").textContent = m.message;
      $("astatus").textContent = "not analysing";
      this.running = false;
      /** @type {HTMLButtonElement} */ ($("analyse-stop")).disabled = true;
    }
  }

  /** The request naming the analysed position plus `more` actions. */
  /** @param {string[]} more @returns {PositionRequest | null} */
  after(more) {
    const p = this.position;
    if (!p) return null;
    return { variant: p.variant, fen: p.fen, moves: p.moves.concat(more), chess960: p.chess960, specials: p.specials };
  }

  /** The legal moves of the analysed position, from its ranking. */
  legal() {
    const p = this.position;
    const r = this.ranking;
    if (!p || !r || r.fen !== p.fen_now) return [];
    return movesOfUci(r.actions.map((a) => a.action));
  }

  /**
   * A move on the analysis board: the new position is analysed.
   * @param {string} from @param {string} to
   */
  async onBoardMove(from, to) {
    const p = this.position;
    if (!p) return;
    const moves = movesBetween(this.legal(), from, to);
    if (moves.length === 0) return;
    let uci = moves[0].uci;
    if (moves.length > 1) {
      const role = await this.board.choose(to, fenTurn(p.fen_now), moves.map((m) => m.promotion || ""));
      const m = moves.find((x) => x.promotion === role);
      if (!m || this.position !== p) {
        this.board.redraw();
        return;
      }
      uci = m.uci;
    }
    const request = this.after([uci]);
    if (request) this.analyse(request);
  }

  drawBoard() {
    const p = this.position;
    if (!p) return;
    const last = p.moves.length ? p.moves[p.moves.length - 1] : "";
    const san = p.sans.length ? p.sans[p.sans.length - 1] : "";
    this.board.set({
      fen: p.fen_now,
      lastMove: /^[a-h][1-8][a-h][1-8]/.test(last) ? [last.slice(0, 2), last.slice(2, 4)] : null,
      check: checkedKing(p.fen_now, san),
      dests: destsOf(this.legal()),
      arrows: this.hover,
    });
  }

  /** The moves from the start, each a step back to its position. */
  drawPath() {
    const p = this.position;
    const box = $("apath");
    box.replaceChildren();
    if (!p) return;
    const start = el("button", "step" + (p.moves.length === 0 ? " current" : ""), "start");
    start.type = "button";
    start.addEventListener("click", () => {
      const r = this.after([]);
      if (r) this.analyse({ ...r, moves: [] });
    });
    box.appendChild(start);
    let n = fmt.fenFullmove(p.fen);
    let white = fenTurn(p.fen) === "w";
    const labels = p.sans.map((san, i) => {
      const label = (white ? n + ". " : i === 0 ? n + "\u2026 " : "") + san;
      if (!white) n++;
      white = !white;
      return label;
    });
    labels.forEach((label, i) => {
      const b = el("button", "step" + (i === p.moves.length - 1 ? " current" : ""), label);
      b.type = "button";
      b.addEventListener("click", () => {
        const r = this.after([]);
        if (r) this.analyse({ ...r, moves: p.moves.slice(0, i + 1) });
      });
      box.appendChild(b);
    });
  }

  drawRanking() {
    const r = this.ranking;
    const p = this.position;
    const body = $("ranking");
    body.replaceChildren();
    if (!r || !p) return;
    const full = fmt.fenFullmove(p.fen_now);
    for (const a of r.actions) {
      const tr = el("tr");
      tr.setAttribute("data-rank", String(a.rank));
      tr.appendChild(el("td", "rank", a.rank));
      tr.appendChild(el("td", "san", a.san));
      let v = a.value === null ? "?" : fmt.signed(a.value);
      if (a.mate) v = (a.mate > 0 ? "mate in " + a.mate : "mated in " + -a.mate) + " (" + v + ")";
      tr.appendChild(el("td", "value", v));
      const now = el("td", "now");
      const short = fmt.awardShort(a.award, r.turn);
      now.appendChild(el("span", "pts", short || "0"));
      const items = fmt.awardText(a.award, r.turn);
      if (items && short) now.appendChild(el("span", "items", items));
      tr.appendChild(now);
      tr.appendChild(el("td", "line", fmt.lineText(a.pv_san, full, r.turn)));
      tr.title = "click to play the line out on the board";
      tr.addEventListener("click", () => {
        const request = this.after(a.pv);
        if (request) this.send({ type: "line", ...request });
      });
      tr.addEventListener("pointerenter", () => {
        this.hover = arrowsOf(a.pv);
        if (!this.line) this.drawBoard();
      });
      tr.addEventListener("pointerleave", () => {
        this.hover = [];
        if (!this.line) this.drawBoard();
      });
      body.appendChild(tr);
    }
  }

  /**
   * Plays a line out on the board from the analysed position, a ply at a
   * time; new rankings meanwhile leave it where it is.
   * @param {string[]} sans @param {string[]} fens
   */
  playOut(sans, fens) {
    const p = this.position;
    if (!p) return;
    this.stopLine();
    const from = p.moves.length;
    this.line = { sans, fens, from, at: from };
    show($("aline-back"), true);
    $("aboard").classList.add("history");
    this.lineTo(from + 1);
    this.timer = setInterval(() => {
      const l = this.line;
      if (!l || l.at >= l.fens.length - 1) {
        this.stopLine();
        return;
      }
      this.lineTo(l.at + 1);
    }, LINE_STEP_MS);
  }

  /** @param {number} at the index of `fens` to show */
  lineTo(at) {
    const l = this.line;
    if (!l) return;
    l.at = Math.max(l.from, Math.min(at, l.fens.length - 1));
    const fen = l.fens[l.at];
    const san = l.at > 0 ? l.sans[l.at - 1] : "";
    this.board.set({ fen, check: checkedKing(fen, san), dests: null, arrows: [] });
    const p = this.position;
    const turn = p && fenTurn(p.fen_now) === "w" ? "white" : "black";
    const shown = l.sans.slice(l.from, l.at);
    $("aline").textContent = shown.length
      ? fmt.lineText(shown, p ? fmt.fenFullmove(p.fen_now) : 1, turn) + "  (← → to step)"
      : "";
    $("aline").setAttribute("data-line-ply", String(l.at - l.from));
  }

  stopLine() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Back from a line to the analysed position. */
  endLine() {
    this.stopLine();
    if (!this.line) return;
    this.line = null;
    show($("aline-back"), false);
    $("aboard").classList.remove("history");
    $("aline").textContent = "";
    $("aline").removeAttribute("data-line-ply");
    this.drawBoard();
  }
}

/**
 * The arrows of a line's first two moves.
 * @param {string[]} pv
 * @returns {Arrow[]}
 */
function arrowsOf(pv) {
  /** @type {Arrow[]} */
  const out = [];
  pv.slice(0, 2).forEach((u, i) => {
    if (/^[a-h][1-8][a-h][1-8]/.test(u)) out.push({ from: u.slice(0, 2), to: u.slice(2, 4), kind: i === 0 ? "line" : "next" });
  });
  return out;
}
