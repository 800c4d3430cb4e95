// @ts-check
// The game view: the board, the points, the record to step through, the
// chart and evaluation bar, special actions with their help, hints as
// arrows, premoves, the clocks and the end screen; in a contest, its
// table (points by player, the sums, the next game). The game lives on
// the server; this view draws each state it sends.

import { Board } from "./board.js";
import { draw as drawChart, series } from "./chart.js";
import * as contest from "./contest.js";
import { $, el, show, typing } from "./dom.js";
import { checkedKing, destsOf, kingSquare, movesBetween, placement, premoveMove } from "./fen.js";
import * as fmt from "./format.js";
import { rulesCard } from "./rules.js";
import { Socket } from "./socket.js";
import * as sound from "./sound.js";

/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {import("./types.js").Catalogue} Catalogue */
/** @typedef {import("./types.js").VariantInfo} VariantInfo */
/** @typedef {import("./types.js").PlyState} PlyState */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").ContestState} ContestState */
/** @typedef {import("./board.js").Arrow} Arrow */

/**
 * @typedef {object} PlayHooks
 * @property {(state: GameState) => void} analyse open the analyse view on a game
 * @property {(state: GameState) => void} opened a game was opened (a rematch): the URL follows
 */

/** @param {Side} side @returns {"w" | "b"} */
const colorOf = (side) => (side === "white" ? "w" : "b");

export class PlayView {
  /**
   * @param {Catalogue} catalogue
   * @param {PlayHooks} hooks
   */
  constructor(catalogue, hooks) {
    this.catalogue = catalogue;
    this.hooks = hooks;
    /** @type {GameState | null} */
    this.state = null;
    /** @type {number | null} the ply shown when not the live position */
    this.viewing = null;
    /** @type {[string, string] | null} */
    this.premove = null;
    /** @type {Hint | null} */
    this.hint = null;
    /** @type {number | null} the position (ply count) a hint was asked for */
    this.hintFor = null;
    /** @type {Socket | null} */
    this.socket = null;
    this.receivedAt = 0;
    /** @type {"white" | "black" | null} the bottom side the person chose with Flip */
    this.bottom = null;
    this.board = new Board($("board"), {
      attr: "data-square",
      onMove: (from, to) => this.onBoardMove(from, to),
      onPremove: (move) => {
        this.premove = move;
        this.drawBoard();
      },
      intercept: () => {
        if (this.viewing === null) return false;
        this.view(null);
        return true;
      },
    });
    this.wire();
    setInterval(() => this.drawClocks(), 100);
  }

  /** The variant's catalogue entry. */
  info() {
    const id = this.state ? this.state.variant : "";
    return this.catalogue.variants.find((v) => v.id === id) || null;
  }

  wire() {
    const specials = $("specials");
    /** @type {string[]} */
    const words = [];
    for (const v of this.catalogue.variants) {
      for (const s of v.specials) if (!words.includes(s.action)) words.push(s.action);
    }
    for (const word of words) {
      const row = el("div", "special hidden");
      const b = el("button", "special-button", word);
      b.type = "button";
      b.setAttribute("data-action", word);
      b.disabled = true;
      b.addEventListener("click", () => {
        if (!b.disabled) this.play(word);
      });
      row.appendChild(b);
      row.appendChild(el("span", "special-help"));
      specials.appendChild(row);
    }
    $("btn-flip").addEventListener("click", () => {
      this.bottom = this.board.orientation === "white" ? "black" : "white";
      this.render();
    });
    $("btn-takeback").addEventListener("click", () => {
      this.message("");
      this.premove = null;
      this.send({ type: "takeback" });
    });
    $("btn-resign").addEventListener("click", () => {
      const s = this.state;
      if (!s) return;
      if (window.confirm(contest.resignQuestion(s.contest, s.mode, s.turn))) this.send({ type: "resign" });
    });
    const hintOn = /** @type {HTMLInputElement} */ ($("hint-on"));
    hintOn.addEventListener("change", () => {
      show($("btn-hint"), hintOn.checked);
      if (!hintOn.checked) this.hideHint();
    });
    $("btn-hint").addEventListener("click", () => {
      if (!this.state) return;
      this.hintFor = this.state.plies.length;
      this.hint = null;
      const h = $("hint");
      h.textContent = "looking for the move that scores most…";
      show(h, true);
      this.send({ type: "hint" });
    });
    $("btn-rules").addEventListener("click", () => {
      const box = $("game-rules");
      const open = box.classList.contains("hidden");
      show(box, open);
      $("btn-rules").setAttribute("aria-expanded", String(open));
    });
    $("viewing-live").addEventListener("click", () => this.view(null));
    $("btn-rematch").addEventListener("click", () => this.rematch());
    $("btn-contest-next").addEventListener("click", () => this.nextGame());
    $("contest-next-link").addEventListener("click", (e) => this.follow(e));
    $("btn-analyse-game").addEventListener("click", () => {
      if (this.state) this.hooks.analyse(this.state);
    });
    document.addEventListener("keydown", (e) => {
      if (!this.state || $("view-play").classList.contains("hidden") || typing(e.target)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const last = this.state.plies.length;
      const now = this.viewing === null ? last : this.viewing;
      let to = null;
      if (e.key === "ArrowLeft") to = Math.max(0, now - 1);
      else if (e.key === "ArrowRight") to = Math.min(last, now + 1);
      else if (e.key === "Home") to = 0;
      else if (e.key === "End") to = last;
      else if (e.key === "Escape" && this.premove) {
        this.premove = null;
        this.drawBoard();
        e.preventDefault();
        return;
      } else return;
      e.preventDefault();
      this.view(to);
    });
  }

  /**
   * Opens the game `id`: its state, then its socket.
   * @param {string} id
   * @returns {Promise<string | null>} why not, when it cannot
   */
  async open(id) {
    let r;
    try {
      r = await fetch("/api/games/" + encodeURIComponent(id));
    } catch (e) {
      return "the server cannot be reached";
    }
    if (!r.ok) {
      const body = await r.json().catch(() => ({}));
      return body.error || "no game '" + id + "' on this server";
    }
    const state = /** @type {GameState} */ (await r.json());
    this.load(state);
    return null;
  }

  /**
   * Shows `state`'s game and follows it.
   * @param {GameState} state
   */
  load(state) {
    if (this.socket) this.socket.close();
    this.state = null;
    this.viewing = null;
    this.premove = null;
    this.bottom = null;
    this.hideHint();
    this.message("");
    const rules = $("game-rules");
    rules.replaceChildren();
    const info = this.catalogue.variants.find((v) => v.id === state.variant);
    if (info) rules.appendChild(rulesCard(info));
    show(rules, false);
    $("btn-rules").setAttribute("aria-expanded", "false");
    this.onState(state);
    this.socket = new Socket("/api/games/" + encodeURIComponent(state.id) + "/ws", {
      message: (m) => this.onMessage(m),
      trouble: (text) => this.message(text),
    });
  }

  /** @param {object} m */
  send(m) {
    if (this.socket && this.socket.send(m)) return true;
    this.message("not connected to the server; reconnecting…");
    return false;
  }

  /** @param {string} text */
  message(text) {
    $("message").textContent = text || "";
  }

  /** @param {string} action */
  play(action) {
    this.message("");
    this.board.closeChooser();
    this.send({ type: "play", action });
  }

  /** Whether the person may move now (live). */
  myTurn() {
    const s = this.state;
    if (!s || s.status !== "playing") return false;
    return s.mode === "people" || s.turn === s.side;
  }

  /**
   * A move on the board: played, or a promotion asked first.
   * @param {string} from @param {string} to
   */
  async onBoardMove(from, to) {
    const s = this.state;
    if (!s || !this.myTurn()) return;
    const moves = movesBetween(s.legal.moves, from, to);
    if (moves.length === 0) return;
    if (moves.length === 1) {
      this.play(moves[0].uci);
      return;
    }
    const roles = moves.map((m) => m.promotion || "");
    const role = await this.board.choose(to, colorOf(s.turn), roles);
    const m = moves.find((x) => x.promotion === role);
    if (m && this.state === s) this.play(m.uci);
    else this.board.redraw();
  }

  /** @param {any} m a message from the server */
  onMessage(m) {
    if (m.type === "state") this.onState(m.game);
    else if (m.type === "think") {
      if (this.state) {
        this.state.think = m.think;
        this.drawThink();
      }
    } else if (m.type === "hint") {
      const s = this.state;
      if (!s || !(/** @type {HTMLInputElement} */ ($("hint-on")).checked)) return;
      if (m.ply !== s.plies.length || m.ply !== this.hintFor) return;
      this.hint = m;
      this.drawHint();
      this.drawBoard();
    } else if (m.type === "error") {
      this.message(m.message);
      if (this.hintFor !== null && !this.hint) this.hideHint();
      // A refused move: the board shows the position again.
      this.board.redraw();
    }
  }

  /** @param {GameState} s */
  onState(s) {
    const prev = this.state && this.state.id === s.id ? this.state : null;
    this.state = s;
    this.receivedAt = performance.now();
    if (prev) {
      const grew = s.plies.length > prev.plies.length;
      if (s.plies.length !== prev.plies.length || s.status !== prev.status) this.viewing = null;
      if (s.plies.length < prev.plies.length) this.premove = null;
      if (grew) {
        const last = s.plies[s.plies.length - 1];
        sound.play(/x/.test(last.san) ? "capture" : "move");
      }
      if (prev.status === "playing" && s.status === "over") sound.play("end");
    }
    if (this.viewing !== null && this.viewing > s.plies.length) this.viewing = null;
    if (s.status !== "playing" || s.plies.length !== this.hintFor) this.hideHint();
    let premoved = null;
    if (this.premove) {
      if (s.status !== "playing" || s.mode !== "engine") this.premove = null;
      else if (this.myTurn()) {
        premoved = premoveMove(s.legal.moves, this.premove[0], this.premove[1]);
        this.premove = null;
        if (!premoved) this.message("premove cancelled: it is not legal now");
      }
    }
    this.render();
    if (premoved) this.play(premoved.uci);
  }

  hideHint() {
    this.hintFor = null;
    this.hint = null;
    show($("hint"), false);
  }

  /**
   * Shows the position after `ply` plies (null: the live position).
   * @param {number | null} ply
   */
  view(ply) {
    const s = this.state;
    if (!s) return;
    this.viewing = ply === null || ply >= s.plies.length ? null : Math.max(0, ply);
    this.board.closeChooser();
    this.drawRecord();
    this.drawBoard();
  }

  /** The ply shown: the last when live. */
  shownPly() {
    const s = this.state;
    if (!s) return 0;
    return this.viewing === null ? s.plies.length : this.viewing;
  }

  render() {
    const s = this.state;
    if (!s) return;
    const info = this.info();
    for (const side of /** @type {const} */ (["white", "black"])) {
      const e = document.querySelector(`[data-points="${side}"]`);
      if (e) e.textContent = fmt.points(s.totals[side]);
    }
    this.drawStatus();
    this.drawPlayers();
    this.drawClocks();
    const live = this.myTurn();
    for (const row of Array.from($("specials").children)) {
      const b = /** @type {HTMLButtonElement} */ (row.querySelector("[data-action]"));
      const word = b.getAttribute("data-action") || "";
      const spec = info ? info.specials.find((x) => x.action === word) : null;
      show(row, Boolean(spec) && s.specials && s.status === "playing");
      b.disabled = !(live && s.legal.specials.includes(word));
      const help = row.querySelector(".special-help");
      if (help) help.textContent = spec ? spec.help : "";
      b.title = spec ? spec.help : "";
    }
    /** @type {HTMLButtonElement} */ ($("btn-takeback")).disabled = s.status !== "playing" || s.plies.length === 0;
    /** @type {HTMLButtonElement} */ ($("btn-resign")).disabled = s.status !== "playing";
    /** @type {HTMLButtonElement} */ ($("btn-hint")).disabled = !live;
    const timing = s.clock
      ? "clock " + s.clock.base_ms / 60000 + "+" + s.clock.inc_ms / 1000 +
        (s.clock.running === null && s.status === "playing" ? " (starts with the first move)" : "")
      : s.mode === "engine"
        ? s.movetime + " ms a move"
        : "no clock";
    $("variant-line").textContent =
      fmt.variantName(s.variant) + " · " + (s.mode === "people" ? "two people, Tally referees" : "against Tally") +
      " · " + timing + " · special actions " + (s.specials ? "on" : "off") + (s.chess960 ? " · Chess960" : "") +
      (s.contest ? " · " + contest.noun(s.contest.format) + " " + contest.gameLabel(s.contest).replace(/^Game/, "game") : "") +
      " · game " + s.id;
    this.drawContest();
    this.drawEnd();
    this.drawThink();
    this.drawRecord();
    this.drawBoard();
  }

  drawStatus() {
    const s = /** @type {GameState} */ (this.state);
    const status = $("status");
    status.setAttribute("data-status", contest.statusOf(s.status, s.contest));
    if (s.status === "over") {
      const words = [fmt.endingText(s.ending), fmt.resultText(s.result, s.ending)].filter((t) => t);
      if (s.contest && s.contest.over) words.push("the " + contest.noun(s.contest.format) + " is over");
      status.textContent = "Game over · " + (words.length ? words.join(" · ") : "ended");
    } else if (s.thinking) {
      status.textContent = "Tally is thinking…";
    } else if (s.engine_to_move) {
      status.textContent = "Tally to move";
    } else {
      const side = fmt.sideName(s.turn);
      status.textContent = (s.mode === "people" ? side + " to move" : "Your move (" + side + ")") + (s.check ? ", in check" : "");
    }
    const limited = $("limited");
    limited.textContent = s.status === "playing" && s.legal.limited ? s.legal.limited : "";
    show(limited, Boolean(limited.textContent));
    const phase = $("phase");
    phase.textContent = s.status === "playing" ? fmt.phaseText(s.phase, s.specials) : "";
    show(phase, Boolean(phase.textContent));
    if (s.phase) phase.setAttribute("data-phase", s.phase.phase);
    else phase.removeAttribute("data-phase");
    const handicap = $("handicap");
    handicap.textContent = fmt.handicapText(s.handicap, s.side, s.elo);
    show(handicap, Boolean(handicap.textContent));
    if (s.handicap && handicap.textContent) handicap.setAttribute("data-handicap", s.handicap.weaker);
    else handicap.removeAttribute("data-handicap");
  }

  drawPlayers() {
    const s = /** @type {GameState} */ (this.state);
    const natural = s.mode === "engine" && s.side === "black" ? "black" : "white";
    const bottom = this.bottom || natural;
    this.board.setOrientation(bottom);
    const top = bottom === "white" ? "black" : "white";
    $("bottom-name").textContent = this.playerName(bottom);
    $("top-name").textContent = this.playerName(top);
  }

  /** @param {Side} side */
  playerName(side) {
    const s = /** @type {GameState} */ (this.state);
    const colour = fmt.sideName(side);
    if (s.mode === "people" && s.contest) {
      const seat = side === "white" ? s.contest.white : contest.otherSeat(s.contest.white);
      return s.contest.names[contest.seatIndex(seat)] + " · " + colour;
    }
    if (s.mode === "people") return colour;
    if (side === s.side) return "You · " + colour;
    return (s.elo ? "Tally (Elo " + s.elo + ")" : "Tally") + " · " + colour;
  }

  drawClocks() {
    const s = this.state;
    if (!s) return;
    for (const pos of ["top", "bottom"]) {
      const side = (pos === "bottom") === (this.board.orientation === "white") ? "white" : "black";
      const c = $(pos + "-clock");
      if (!s.clock) {
        c.textContent = "";
        c.className = "clock";
        continue;
      }
      let ms = side === "white" ? s.clock.white_ms : s.clock.black_ms;
      const running = s.clock.running === side;
      if (running) ms -= performance.now() - this.receivedAt;
      c.textContent = fmt.clock(ms);
      c.className = "clock" + (running ? " running" : "") + (ms < 10000 ? " low" : "");
    }
  }

  drawThink() {
    const s = this.state;
    if (!s) return;
    const box = $("think");
    const t = s.think;
    // Tally's evaluation belongs to a game under way.
    if (s.status !== "playing" || s.mode !== "engine") {
      box.textContent = "";
    } else if (!t) {
      box.textContent = s.thinking ? "Tally is thinking…" : "";
    } else {
      const tally = fmt.sideName(s.side === "white" ? "black" : "white");
      const expects = t.mate
        ? t.mate > 0
          ? "sees a win in " + t.mate
          : "sees a loss in " + -t.mate
        : "expects " + fmt.signed(t.margin) + " for itself from here";
      const line = (t.pv_san || []).slice(0, 6).join(" ");
      box.textContent =
        "Tally (" + tally + ") " + expects + " · final margin W − B ≈ " + fmt.signed(t.final_white_minus_black) +
        " · depth " + t.depth + (line ? " · " + line : "");
    }
    this.drawEval();
  }

  drawEval() {
    const s = this.state;
    const bar = $("evalbar");
    // Between people there is no evaluation: the bar's place stays, empty.
    bar.classList.toggle("off", !s || s.mode !== "engine");
    if (!s || s.mode !== "engine") return;
    let margin = 0;
    if (s.status === "over") margin = Number(s.totals.white) - Number(s.totals.black);
    else if (s.think) margin = s.think.final_white_minus_black;
    else {
      const last = [...s.plies].reverse().find((p) => p.expected !== null);
      margin = last && last.expected !== null ? last.expected : Number(s.totals.white) - Number(s.totals.black);
    }
    const info = this.info();
    const share = fmt.evalShare(margin, fmt.evalScale(info ? info.card : null));
    const white = $("evalbar-white");
    white.style.height = (share * 100).toFixed(1) + "%";
    bar.classList.toggle("flipped", this.board.orientation === "black");
    $("evalbar-text").textContent = fmt.signed(margin);
    bar.setAttribute("data-margin", String(margin));
  }

  drawHint() {
    const h = this.hint;
    const box = $("hint");
    if (!h) return;
    show(box, true);
    const award = fmt.awardText(h.award, this.state ? this.state.turn : null);
    const expected = h.mate
      ? h.mate > 0
        ? "a win in " + h.mate
        : "a loss in " + -h.mate
      : h.margin === null
        ? "?"
        : fmt.signed(h.margin);
    box.textContent = "Hint: " + h.san + (award ? " · earns now: " + award : " · earns nothing at once") + " · expected " + expected;
  }

  drawEnd() {
    const s = /** @type {GameState} */ (this.state);
    const end = $("end");
    show(end, s.status === "over");
    if (s.status !== "over") return;
    end.setAttribute("data-winner", fmt.winnerOf(s.result));
    $("end-title").textContent = fmt.headline(s.result);
    $("end-result").textContent = fmt.resultDetail(s.result, s.ending);
    const ending = fmt.endingText(s.ending);
    $("end-ending").textContent = ending ? "Ending: " + ending : "";
    $("end-score").textContent = "Final points: White " + fmt.points(s.totals.white) + " · Black " + fmt.points(s.totals.black);
    const award = fmt.awardText(s.outcome, null);
    $("end-award").textContent = award ? "The ending paid: " + award : "";
    const pgn = /** @type {HTMLAnchorElement} */ ($("pgn-link"));
    pgn.href = "/api/games/" + encodeURIComponent(s.id) + "/pgn";
    const report = /** @type {HTMLAnchorElement} */ ($("report-link"));
    report.href = "/api/games/" + encodeURIComponent(s.id) + "/report";
    /** @type {HTMLButtonElement} */ ($("btn-rematch")).disabled = false;
    // In a contest the next game is the contest's (its table's button).
    show($("btn-rematch"), !s.contest);
    const whole = /** @type {HTMLAnchorElement} */ ($("end-contest-pgn"));
    show(whole, Boolean(s.contest));
    if (s.contest) whole.href = "/api/contests/" + encodeURIComponent(s.contest.id) + "/pgn";
  }

  /** The contest's table, when the game is part of one. */
  drawContest() {
    const s = /** @type {GameState} */ (this.state);
    const box = $("contest");
    const c = s.contest;
    show(box, Boolean(c));
    if (!c) return;
    const kind = contest.parseFormat(c.format);
    $("contest-title").textContent =
      contest.formatText(c.format) + (kind && kind.kind === "series" ? " · " + fmt.variantName(s.variant) : "");
    const game = $("contest-game");
    game.setAttribute("data-contest-game", String(c.number));
    game.textContent = contest.gameLabel(c);
    for (const seat of /** @type {const} */ (["first", "second"])) {
      const i = contest.seatIndex(seat);
      $("contest-name-" + seat).textContent = c.names[i];
      $("contest-col-" + seat).textContent = c.names[i];
      const sum = /** @type {HTMLElement} */ (box.querySelector(`[data-contest-points="${seat}"]`));
      sum.textContent = fmt.points(c.totals[i]);
      sum.parentElement?.classList.toggle("leads", contest.framed(c) === seat);
    }
    const standing = $("contest-standing");
    standing.textContent = contest.standingText(c);
    show(standing, standing.textContent !== "");
    const decision = $("contest-decision");
    show(decision, c.over);
    if (c.over && c.decision) {
      decision.textContent = c.decision.text;
      decision.setAttribute("data-contest-winner", contest.winnerOf(c));
    } else {
      decision.textContent = "";
      decision.removeAttribute("data-contest-winner");
    }
    const next = contest.after(c, s.status);
    const button = $("btn-contest-next");
    const link = /** @type {HTMLAnchorElement} */ ($("contest-next-link"));
    show($("contest-after"), next !== null);
    show(button, next !== null && next.kind === "next");
    show(link, next !== null && next.kind === "link");
    $("contest-next-text").textContent = next && next.kind === "next" ? next.text : "";
    if (next && next.kind === "link") {
      link.textContent = "Game " + next.number + " →";
      link.href = "/?game=" + encodeURIComponent(next.id);
      link.setAttribute("data-game-link", next.id);
    }
    const body = $("contest-rows");
    body.replaceChildren();
    for (const row of contest.contestRows(c, { status: s.status, totals: s.totals })) {
      const tr = el("tr", (row.current ? "current" : "") + (row.live ? " live" : ""));
      tr.setAttribute("data-contest-row", String(row.number));
      const cell = el("td", "cgame");
      if (row.id && !row.current) {
        const a = el("a", "", String(row.number));
        a.href = "/?game=" + encodeURIComponent(row.id);
        a.setAttribute("data-game-link", row.id);
        a.addEventListener("click", (e) => this.follow(e));
        cell.appendChild(a);
      } else cell.appendChild(el("span", "", String(row.number)));
      if (row.tiebreak) cell.appendChild(el("span", "tag", "tie-break"));
      const note = row.live ? row.result : row.note;
      if (note) cell.appendChild(el("span", "cnote", note));
      tr.appendChild(cell);
      tr.appendChild(el("td", "cwhite", row.white));
      for (const i of [0, 1]) {
        const td = el("td", "cpts");
        td.appendChild(el("span", "gpts", row.points[i]));
        if (row.sums[i] !== "") td.appendChild(el("span", "csum-run", "Σ " + row.sums[i]));
        if (row.winner === i) td.classList.add("won");
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const current = body.querySelector("tr.current");
    const scroller = box.querySelector(".contest-table-box");
    if (current && scroller) {
      const top = /** @type {HTMLElement} */ (current).offsetTop;
      if (top < scroller.scrollTop || top + /** @type {HTMLElement} */ (current).offsetHeight > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = top - scroller.clientHeight / 2;
      }
    }
    $("contest-won").textContent = contest.wonText(c);
    $("contest-rules").textContent = [contest.tiebreakText(c.format), contest.resignationText(c)].filter((x) => x).join(" ");
    $("contest-advantage").textContent = contest.drawAdvantageText(c, s.draw_advantage);
  }

  /** The move list, the chart, the last move under the board. */
  drawRecord() {
    const s = this.state;
    if (!s) return;
    const shown = this.shownPly();
    const list = $("moves");
    list.replaceChildren();
    /** @type {HTMLElement | null} */
    let row = null;
    /** @type {HTMLElement | null} */
    let current = null;
    for (const p of s.plies) {
      if (!row || p.mover === "white") {
        row = el("div", "move-row");
        row.appendChild(el("span", "num", p.fullmove + "."));
        if (p.mover === "black") row.appendChild(el("span", "ply empty", "…"));
        list.appendChild(row);
      }
      const cell = el("div", "ply " + p.mover + (p.n === shown ? " current" : ""));
      cell.setAttribute("data-ply", String(p.n));
      cell.setAttribute("role", "button");
      cell.title = "White " + fmt.points(p.running.white) + " · Black " + fmt.points(p.running.black) + " after it";
      const head = el("span", "ply-head");
      head.appendChild(el("span", "san", p.san));
      const short = fmt.awardShort(p.award, p.mover);
      if (short) head.appendChild(el("span", "pts", short));
      cell.appendChild(head);
      const items = fmt.awardText(p.award, p.mover);
      if (items && short) cell.appendChild(el("span", "items", items));
      cell.addEventListener("click", () => this.view(p.n));
      row.appendChild(cell);
      if (p.n === shown) current = cell;
    }
    if (s.plies.length === 0) list.appendChild(el("p", "muted empty-list", "No move yet."));
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    } else if (this.viewing === 0) list.scrollTop = 0;
    const chart = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("chart")));
    const startTurn = s.start_fen.split(" ")[1] === "b" ? "black" : "white";
    drawChart(
      chart,
      series(s.plies, { over: s.status === "over", totals: s.totals, startFullmove: fmt.fenFullmove(s.start_fen), startTurn }),
      { viewing: shown, onPick: (ply) => this.view(ply) }
    );
    const lastBox = $("lastmove");
    const p = shown > 0 ? s.plies[shown - 1] : null;
    lastBox.replaceChildren();
    if (p) {
      lastBox.appendChild(el("span", "lm-san", fmt.plyText(p)));
      const short = fmt.awardShort(p.award, p.mover);
      if (short) lastBox.appendChild(el("span", "lm-pts", short));
      const items = fmt.awardText(p.award, p.mover);
      if (items && short) lastBox.appendChild(el("span", "lm-items", items));
    } else {
      lastBox.appendChild(el("span", "muted", "the start position"));
    }
    const viewing = $("viewing");
    show(viewing, this.viewing !== null);
    if (this.viewing !== null) {
      $("viewing-text").textContent =
        (this.viewing === 0 ? "The start position" : "After " + fmt.plyText(s.plies[this.viewing - 1])) +
        " · an earlier position (ply " + this.viewing + " of " + s.plies.length + ")";
    }
  }

  /** The board: the live position with its moves, or an earlier one. */
  drawBoard() {
    const s = this.state;
    if (!s) return;
    const boardEl = $("board");
    boardEl.setAttribute("data-viewing-ply", String(this.shownPly()));
    boardEl.classList.toggle("history", this.viewing !== null);
    if (this.viewing !== null) {
      const k = this.viewing;
      const p = k > 0 ? s.plies[k - 1] : null;
      const fen = p ? p.fen : s.start_fen;
      this.board.set({
        fen,
        lastMove: p && p.squares ? p.squares : null,
        check: p ? checkedKing(fen, p.san) : null,
        dests: null,
        premoveColor: null,
        premove: null,
        arrows: [],
      });
      return;
    }
    const last = s.plies.length ? s.plies[s.plies.length - 1] : null;
    const pieces = placement(s.fen);
    const turn = colorOf(s.turn);
    const mine = this.myTurn();
    /** @type {Arrow[]} */
    const arrows = [];
    const h = this.hint;
    if (h && mine && /^[a-h][1-8][a-h][1-8]/.test(h.action)) {
      arrows.push({ from: h.action.slice(0, 2), to: h.action.slice(2, 4), kind: "hint" });
    }
    const premoveColor = s.mode === "engine" && s.status === "playing" && !mine ? colorOf(s.side) : null;
    this.board.set({
      fen: s.fen,
      lastMove: last && last.squares ? last.squares : null,
      check: s.check ? kingSquare(pieces, turn) : null,
      dests: mine ? destsOf(s.legal.moves) : null,
      premoveColor,
      premove: premoveColor ? this.premove : null,
      disk: s.disk ? kingSquare(pieces, colorOf(s.disk)) : null,
      arrows,
    });
  }

  /**
   * A click on a link to a game of the contest: opened here (the address
   * follows), unless a modifier asks the browser for a new tab.
   * @param {MouseEvent} e
   */
  follow(e) {
    const a = /** @type {HTMLAnchorElement | null} */ (e.currentTarget);
    const id = a ? a.getAttribute("data-game-link") : null;
    if (!id || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    this.go(id);
  }

  /**
   * Opens game `id` and puts it in the address.
   * @param {string} id
   */
  async go(id) {
    const why = await this.open(id);
    if (why !== null) this.message(why);
    else if (this.state) this.hooks.opened(this.state);
  }

  /** Opens the contest's next game (colours as the contest says). */
  async nextGame() {
    const s = this.state;
    if (!s || !s.contest) return;
    const button = /** @type {HTMLButtonElement} */ ($("btn-contest-next"));
    button.disabled = true;
    let r;
    try {
      r = await fetch("/api/contests/" + encodeURIComponent(s.contest.id) + "/next", { method: "POST" });
    } catch (e) {
      this.message("the server cannot be reached");
      button.disabled = false;
      return;
    }
    const body = await r.json().catch(() => ({ error: "the server sent no answer" }));
    button.disabled = false;
    if (!r.ok) {
      this.message(body.error || "no next game");
      return;
    }
    this.load(/** @type {GameState} */ (body));
    this.hooks.opened(/** @type {GameState} */ (body));
  }

  async rematch() {
    const s = this.state;
    if (!s) return;
    /** @type {HTMLButtonElement} */ ($("btn-rematch")).disabled = true;
    let r;
    try {
      r = await fetch("/api/games/" + encodeURIComponent(s.id) + "/rematch", { method: "POST" });
    } catch (e) {
      this.message("the server cannot be reached");
      /** @type {HTMLButtonElement} */ ($("btn-rematch")).disabled = false;
      return;
    }
    const body = await r.json().catch(() => ({ error: "the server sent no answer" }));
    if (!r.ok) {
      this.message(body.error || "no rematch");
      /** @type {HTMLButtonElement} */ ($("btn-rematch")).disabled = false;
      return;
    }
    this.load(/** @type {GameState} */ (body));
    this.hooks.opened(/** @type {GameState} */ (body));
  }

  /** Leaves the game (another is opened, or none). */
  close() {
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
