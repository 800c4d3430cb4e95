// Tally's browser app: play and analyse every variant with the points in
// view. Everything the server sends is data: it is only ever written with
// textContent (never innerHTML), so no text from a FEN or PGN can run.
"use strict";

const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const OUTLINE = { k: "\u2654", q: "\u2655", r: "\u2656", b: "\u2657", n: "\u2658", p: "\u2659" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// The placement field of a FEN as a map square -> "wK"-style code.
function placement(fen) {
  const out = {};
  const rows = String(fen || "").split(" ")[0].split("/");
  for (let r = 0; r < 8 && r < rows.length; r++) {
    let f = 0;
    for (const ch of rows[r]) {
      if (ch >= "1" && ch <= "8") { f += Number(ch); continue; }
      if (f > 7) break;
      const lower = ch.toLowerCase();
      if (!GLYPH[lower]) { f++; continue; }
      out[FILES[f] + (8 - r)] = (ch === lower ? "b" : "w") + lower;
      f++;
    }
  }
  return out;
}

function pieceEl(code, disk) {
  const color = code[0] === "w" ? "white" : "black";
  const role = code[1];
  const p = el("span", "piece " + color + (disk ? " disk" : ""));
  p.setAttribute("aria-label", color + " " + NAMES[role] + (disk ? " (disk)" : ""));
  p.appendChild(el("span", "fill", GLYPH[role]));
  if (color === "white") p.appendChild(el("span", "line", OUTLINE[role]));
  return p;
}

// A board of 64 square elements carrying `attr` (data-square on the game
// board); `onPick(square, event)` for pointer input, when interactive.
class Board {
  constructor(root, attr, interactive) {
    this.root = root;
    this.attr = attr;
    this.flipped = false;
    this.squares = {};
    this.interactive = interactive;
    this.build();
  }
  build() {
    this.root.replaceChildren();
    this.squares = {};
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = this.flipped ? 7 - col : col;
        const rank = this.flipped ? row + 1 : 8 - row;
        const name = FILES[file] + rank;
        const sq = el("div", "sq " + ((file + rank) % 2 === 1 ? "dark" : "light"));
        sq.setAttribute(this.attr, name);
        sq.setAttribute("role", "gridcell");
        if (row === 7) sq.appendChild(el("span", "coord file", FILES[file]));
        if (col === 0) sq.appendChild(el("span", "coord rank", rank));
        this.root.appendChild(sq);
        this.squares[name] = sq;
      }
    }
  }
  flip() { this.flipped = !this.flipped; this.build(); }
  // Draws a position: pieces, last move, check, selection and targets.
  draw(fen, opts) {
    opts = opts || {};
    const pieces = placement(fen);
    const turn = String(fen || "").split(" ")[1] === "b" ? "b" : "w";
    for (const [name, sq] of Object.entries(this.squares)) {
      sq.querySelectorAll(".piece").forEach((p) => p.remove());
      sq.classList.remove("last", "sel", "target", "occupied", "check");
      const code = pieces[name];
      if (code) {
        const disk = code[1] === "k" && opts.disk && opts.disk[0] === code[0];
        sq.appendChild(pieceEl(code, disk));
        sq.classList.add("occupied");
        if (opts.check && code === turn + "k") sq.classList.add("check");
      }
    }
    for (const s of opts.last || []) if (this.squares[s]) this.squares[s].classList.add("last");
    if (opts.selected && this.squares[opts.selected]) this.squares[opts.selected].classList.add("sel");
    for (const s of opts.targets || []) if (this.squares[s]) this.squares[s].classList.add("target");
  }
  squareAt(x, y) {
    const e = document.elementFromPoint(x, y);
    const sq = e && e.closest ? e.closest("[" + this.attr + "]") : null;
    return sq ? sq.getAttribute(this.attr) : null;
  }
}

// ---- the game view ----

const game = {
  id: null,
  state: null,
  socket: null,
  selected: null,
  drag: null,
  pending: null, // {from, to, moves} while the promotion chooser is open
  receivedAt: 0,
  retries: 0,
};
const board = new Board($("board"), "data-square", true);

function fmtPoints(v) {
  if (v === null || v === undefined) return "0";
  return String(v);
}
function signed(v) {
  const n = Number(v);
  if (!isFinite(n)) return String(v);
  const s = Math.abs(n) >= 100 ? n.toFixed(0) : String(Math.round(n * 100) / 100);
  return n > 0 ? "+" + s : s;
}
function fmtClock(ms) {
  ms = Math.max(0, ms);
  const t = Math.floor(ms / 100);
  const s = Math.floor(t / 10);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const pad = (x) => String(x).padStart(2, "0");
  if (h > 0) return h + ":" + pad(m % 60) + ":" + pad(s % 60);
  if (ms < 20000) return pad(m) + ":" + pad(s % 60) + "." + (t % 10);
  return pad(m) + ":" + pad(s % 60);
}

function myTurn() {
  const s = game.state;
  if (!s || s.status !== "playing") return false;
  return s.mode === "people" || s.turn === s.side;
}

function movesFrom(square) {
  if (!myTurn()) return [];
  return game.state.legal.moves.filter((m) => m.from === square);
}

function send(message) {
  if (game.socket && game.socket.readyState === WebSocket.OPEN) {
    game.socket.send(JSON.stringify(message));
    return true;
  }
  showMessage("not connected to the server; reconnecting…");
  return false;
}

function showMessage(text) { $("message").textContent = text || ""; }

function play(action) {
  showMessage("");
  game.selected = null;
  closePromotion();
  send({ type: "play", action });
}

function tryMove(from, to) {
  const moves = movesFrom(from).filter((m) => m.to === to);
  if (moves.length === 0) return false;
  if (moves.length === 1 && !moves[0].promotion) { play(moves[0].uci); return true; }
  openPromotion(from, to, moves);
  return true;
}

function openPromotion(from, to, moves) {
  const box = $("promotion");
  box.replaceChildren();
  const color = game.state.turn === "white" ? "w" : "b";
  const order = ["q", "r", "b", "n", "k"];
  for (const role of order) {
    const m = moves.find((x) => x.promotion === role);
    if (!m) continue;
    const b = el("button", "");
    b.type = "button";
    b.setAttribute("data-promotion", role);
    b.setAttribute("aria-label", "promote to " + NAMES[role]);
    b.title = NAMES[role];
    b.appendChild(pieceEl(color + role, false));
    b.addEventListener("click", () => play(m.uci));
    box.appendChild(b);
  }
  const cancel = el("button", "", "\u2715");
  cancel.type = "button";
  cancel.title = "cancel";
  cancel.addEventListener("click", () => { closePromotion(); render(); });
  box.appendChild(cancel);
  game.pending = { from, to };
  box.classList.remove("hidden");
}
function closePromotion() {
  game.pending = null;
  $("promotion").classList.add("hidden");
}

function select(square) {
  game.selected = square;
  drawBoard();
}

function drawBoard() {
  const s = game.state;
  if (!s) return;
  const last = s.plies.length ? s.plies[s.plies.length - 1] : null;
  const lastSquares = last && !last.special ? [last.action.slice(0, 2), last.action.slice(2, 4)] : [];
  const targets = game.selected ? movesFrom(game.selected).map((m) => m.to) : [];
  board.draw(s.fen, {
    last: lastSquares,
    selected: game.selected,
    targets,
    check: s.check,
    disk: s.disk ? (s.disk === "white" ? "w" : "b") : null,
  });
}

// Pointer input: click-click and drag, both through pointer events.
board.root.addEventListener("pointerdown", (ev) => {
  if (ev.button !== 0 || !game.state) return;
  const square = board.squareAt(ev.clientX, ev.clientY);
  if (!square) return;
  closePromotion();
  if (game.selected && game.selected !== square && tryMove(game.selected, square)) return;
  if (movesFrom(square).length > 0) {
    select(square);
    const piece = board.squares[square].querySelector(".piece");
    game.drag = { from: square, x: ev.clientX, y: ev.clientY, ghost: null, piece };
    board.root.setPointerCapture(ev.pointerId);
  } else {
    select(null);
  }
});
board.root.addEventListener("pointermove", (ev) => {
  const d = game.drag;
  if (!d) return;
  if (!d.ghost && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 6 && d.piece) {
    d.ghost = d.piece.cloneNode(true);
    d.ghost.classList.add("ghost");
    document.body.appendChild(d.ghost);
    d.piece.style.opacity = "0.3";
  }
  if (d.ghost) { d.ghost.style.left = ev.clientX + "px"; d.ghost.style.top = ev.clientY + "px"; }
});
function endDrag(ev, drop) {
  const d = game.drag;
  if (!d) return;
  game.drag = null;
  if (d.ghost) {
    d.ghost.remove();
    if (d.piece) d.piece.style.opacity = "";
    const to = drop ? board.squareAt(ev.clientX, ev.clientY) : null;
    if (to && to !== d.from && tryMove(d.from, to)) return;
  }
  drawBoard();
}
board.root.addEventListener("pointerup", (ev) => endDrag(ev, true));
board.root.addEventListener("pointercancel", (ev) => endDrag(ev, false));

document.querySelectorAll("[data-action]").forEach((b) => {
  b.addEventListener("click", () => { if (!b.disabled) play(b.getAttribute("data-action")); });
});
$("btn-flip").addEventListener("click", () => { board.flip(); render(); });
$("btn-takeback").addEventListener("click", () => { showMessage(""); send({ type: "takeback" }); });
$("btn-resign").addEventListener("click", () => {
  if (window.confirm("Resign this game?")) send({ type: "resign" });
});
$("hint-on").addEventListener("change", () => {
  $("btn-hint").classList.toggle("hidden", !$("hint-on").checked);
  if (!$("hint-on").checked) hideHint();
});
// The position (ply count) a hint was asked for: a hint shows only there.
let hintFor = null;
function hideHint() { hintFor = null; $("hint").classList.add("hidden"); }
$("btn-hint").addEventListener("click", () => {
  hintFor = game.state ? game.state.plies.length : null;
  $("hint").textContent = "looking for the move that scores most…";
  $("hint").classList.remove("hidden");
  send({ type: "hint" });
});

function eventsText(award) {
  return (award.events || []).join(" ");
}

function plyLine(p) {
  const li = el("li", p.mover === "black" ? "black-ply" : "white-ply");
  li.setAttribute("data-ply", String(p.n));
  const num = p.mover === "white" ? p.fullmove + "." : p.fullmove + "…";
  li.appendChild(el("span", "num", num));
  li.appendChild(el("span", "san", p.san));
  const w = Number(p.award.white), b = Number(p.award.black);
  const parts = [];
  if (w !== 0) parts.push("W " + signed(p.award.white));
  if (b !== 0) parts.push("B " + signed(p.award.black));
  li.appendChild(el("span", "pts", parts.join("  ") || "0"));
  const ev = eventsText(p.award);
  if (ev) li.appendChild(el("span", "ev", ev));
  li.title = "running: white " + p.running.white + ", black " + p.running.black;
  return li;
}

function playerName(color) {
  const s = game.state;
  if (s.mode === "people") return color === "white" ? "White" : "Black";
  const who = color === s.side ? "You" : (s.elo ? "Tally (Elo " + s.elo + ")" : "Tally");
  return who + " · " + color;
}

function render() {
  const s = game.state;
  if (!s) return;
  document.querySelector('[data-points="white"]').textContent = fmtPoints(s.totals.white);
  document.querySelector('[data-points="black"]').textContent = fmtPoints(s.totals.black);
  const status = $("status");
  status.setAttribute("data-status", s.status);
  if (s.status === "over") {
    status.textContent = "Game over: " + ((s.ending && s.ending.text) || "ended");
  } else if (s.thinking) {
    status.textContent = "Tally is thinking…";
  } else if (s.engine_to_move) {
    status.textContent = "Tally to move";
  } else {
    const side = s.turn === "white" ? "White" : "Black";
    status.textContent = (s.mode === "people" ? side : "You (" + s.turn + ")") + " to move" + (s.check ? ", in check" : "");
  }
  const timing = s.clock
    ? "clock " + s.clock.base_ms / 60000 + "+" + s.clock.inc_ms / 1000 +
      (s.clock.running === null && s.status === "playing" ? " (starts with the first move)" : "")
    : (s.mode === "engine" ? s.movetime + " ms a move" : "no clock");
  $("variant-line").textContent = s.variant + " · " + (s.mode === "people" ? "two people, Tally referees" : "against Tally") +
    " · " + timing + " · special actions " + (s.specials ? "on" : "off") + (s.chess960 ? " · Chess960" : "") + " · game " + s.id;
  // Bottom is the side nearest the viewer.
  const bottom = board.flipped ? "black" : "white";
  const top = bottom === "white" ? "black" : "white";
  $("bottom-name").textContent = playerName(bottom);
  $("top-name").textContent = playerName(top);
  renderClocks();
  // Special actions: present for the variant, enabled only when legal now.
  const legal = myTurn() ? s.legal.specials : [];
  document.querySelectorAll("[data-action]").forEach((b) => {
    const a = b.getAttribute("data-action");
    const exists = a === "claim" ? s.variant === "sets" : s.variant === "tiebraker";
    b.classList.toggle("hidden", !(exists && s.specials));
    b.disabled = !legal.includes(a);
  });
  $("btn-takeback").disabled = s.plies.length === 0;
  $("btn-resign").disabled = s.status !== "playing";
  $("btn-hint").disabled = !myTurn();
  const list = $("moves");
  list.replaceChildren(...s.plies.map(plyLine));
  list.scrollTop = list.scrollHeight;
  renderThink();
  const end = $("end");
  end.classList.toggle("hidden", s.status !== "over");
  if (s.status === "over") {
    $("end-text").textContent = (s.ending && s.ending.text) || "";
    const oc = s.outcome;
    const ocText = (Number(oc.white) || Number(oc.black) || (oc.events || []).length)
      ? " (ending: white " + signed(oc.white) + ", black " + signed(oc.black) + (oc.events.length ? ", " + oc.events.join(" ") : "") + ")"
      : "";
    $("end-score").textContent = "Final score: white " + s.totals.white + ", black " + s.totals.black + ocText;
    $("pgn-link").href = "/api/games/" + encodeURIComponent(s.id) + "/pgn";
    $("report-link").href = "/api/games/" + encodeURIComponent(s.id) + "/report";
    $("report-link").classList.remove("hidden");
  }
  if (game.selected && movesFrom(game.selected).length === 0) game.selected = null;
  drawBoard();
}

function renderThink() {
  const s = game.state;
  const t = s.think;
  const box = $("think");
  if (!t || s.mode !== "engine") { box.textContent = s.thinking ? "Tally is thinking…" : ""; return; }
  const tally = s.side === "white" ? "black" : "white";
  let v = "Tally expects " + signed(t.margin) + " for itself from here";
  if (t.mate) v = (t.mate > 0 ? "Tally sees a win in " + t.mate : "Tally sees a loss in " + -t.mate) + " (" + signed(t.margin) + ")";
  const fin = Number(t.final_white_minus_black);
  box.textContent = v + " · final margin white−black ≈ " + signed(fin) + " · depth " + t.depth +
    (s.thinking ? " · thinking" : "") + " (Tally is " + tally + ")";
}

function renderClocks() {
  const s = game.state;
  for (const pos of ["top", "bottom"]) {
    const color = (pos === "bottom") === !board.flipped ? "white" : "black";
    const c = $(pos + "-clock");
    if (!s.clock) { c.textContent = ""; c.className = "clock"; continue; }
    let ms = s.clock[color + "_ms"];
    const running = s.clock.running === color;
    if (running) ms -= performance.now() - game.receivedAt;
    c.textContent = fmtClock(ms);
    c.className = "clock" + (running ? " running" : "") + (ms < 10000 ? " low" : "");
  }
}
setInterval(() => { if (game.state && game.state.clock) renderClocks(); }, 100);

function onGameMessage(ev) {
  let m;
  try { m = JSON.parse(ev.data); } catch (e) { return; }
  if (m.type === "state") {
    game.state = m.game;
    game.receivedAt = performance.now();
    if (m.game.status === "over" || !myTurn() || m.game.plies.length !== hintFor) hideHint();
    render();
  } else if (m.type === "think") {
    if (game.state) { game.state.think = m.think; renderThink(); }
  } else if (m.type === "hint") {
    if (!$("hint-on").checked || !game.state || game.state.plies.length !== hintFor) return;
    const h = $("hint");
    h.classList.remove("hidden");
    const a = m.award;
    h.textContent = "Hint: " + m.san + " (earns now: white " + a.white + ", black " + a.black +
      (a.events.length ? ", " + a.events.join(" ") : "") + "; expected " + (m.margin === null ? "?" : signed(m.margin)) + ")";
  } else if (m.type === "error") {
    showMessage(m.message);
    if ($("hint").textContent.startsWith("looking")) hideHint();
  }
}

function connect(id) {
  game.id = id;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/api/games/" + encodeURIComponent(id) + "/ws");
  game.socket = ws;
  ws.addEventListener("open", () => { game.retries = 0; showMessage(""); });
  ws.addEventListener("message", onGameMessage);
  ws.addEventListener("close", () => {
    if (game.socket !== ws) return;
    game.retries++;
    if (game.retries > 8) { showMessage("the server cannot be reached; reload the page to try again"); return; }
    setTimeout(() => { if (game.socket === ws) connect(id); }, Math.min(4000, 250 * game.retries));
  });
}

async function openGame(id) {
  const r = await fetch("/api/games/" + encodeURIComponent(id));
  if (!r.ok) {
    const e = await r.json().catch(() => ({ error: "no such game" }));
    showSetup(e.error || "no such game");
    return;
  }
  game.state = await r.json();
  game.receivedAt = performance.now();
  hideHint();
  if (game.state.mode === "engine" && game.state.side === "black" && !board.flipped) board.flip();
  render();
  connect(id);
}

async function createGame(setup) {
  const r = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(setup),
  });
  const body = await r.json().catch(() => ({ error: "the server sent no answer" }));
  if (!r.ok) throw new Error(body.error || "the game could not start");
  return body.id;
}

async function startGame(setup) {
  const id = await createGame(setup);
  if (game.socket) { const s = game.socket; game.socket = null; s.close(); }
  history.replaceState(null, "", "/?game=" + encodeURIComponent(id));
  board.flipped = false;
  board.build();
  game.selected = null;
  hideSetup();
  showView("play");
  await openGame(id);
}

// ---- setup ----

function showSetup(error) {
  $("view-setup").classList.remove("hidden");
  $("setup-error").textContent = error || "";
  $("setup-note").textContent = "";
  fetch("/api/games").then((r) => r.json()).then((list) => {
    const box = $("saved-list");
    box.replaceChildren();
    if (!Array.isArray(list) || list.length === 0) return;
    box.appendChild(el("h3", "", "Games on this server"));
    const p = el("p", "saved");
    for (const g of list.slice(0, 30)) {
      const a = el("a", "", g.variant + ", " + g.plies + " plies, " + g.status);
      a.href = "/?game=" + encodeURIComponent(g.id);
      p.appendChild(a);
    }
    box.appendChild(p);
  }).catch(() => {});
}
function hideSetup() { $("view-setup").classList.add("hidden"); }

const form = $("setup-form");
function syncForm() {
  const clock = form.timing.value === "clock";
  document.querySelectorAll(".timing-movetime").forEach((e) => e.classList.toggle("hidden", clock));
  document.querySelectorAll(".timing-clock").forEach((e) => e.classList.toggle("hidden", !clock));
  form.elo.disabled = form.strength.value !== "elo";
  form.side.disabled = form.mode.value === "people";
}
form.addEventListener("change", syncForm);
syncForm();
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const setup = { variant: form.variant.value, mode: form.mode.value, specials: form.specials.checked, chess960: form.chess960.checked };
  if (form.mode.value === "engine") setup.side = form.side.value;
  if (form.strength.value === "elo") setup.elo = Number(form.elo.value);
  if (form.timing.value === "clock") {
    const base = Number(form.base.value), inc = Number(form.inc.value || 0);
    if (!(base > 0)) { $("setup-error").textContent = "give the clock's base time, in minutes (more than 0)"; return; }
    if (!(inc >= 0)) { $("setup-error").textContent = "give the increment in seconds (0 or more)"; return; }
    setup.clock_base = Math.round(base * 60000);
    setup.clock_inc = Math.round(inc * 1000);
  } else {
    setup.movetime = Number(form.movetime.value);
  }
  const fen = form.fen.value.trim();
  if (fen) setup.fen = fen;
  startGame(setup).catch((e) => { $("setup-error").textContent = e.message; });
});
$("setup-cancel").addEventListener("click", hideSetup);
$("btn-new").addEventListener("click", () => showSetup(""));

// ---- views ----

function showView(name) {
  $("view-play").classList.toggle("hidden", name !== "play");
  $("view-analyse").classList.toggle("hidden", name !== "analyse");
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-analyse").classList.toggle("active", name === "analyse");
}
$("tab-play").addEventListener("click", () => showView("play"));
$("tab-analyse").addEventListener("click", () => { showView("analyse"); analysis.connect(); });

// ---- analysis ----

const aboard = new Board($("aboard"), "data-asquare", false);
const analysis = {
  socket: null,
  queue: [],
  position: null,
  timer: null,
  connect() {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/api/analyse/ws");
    this.socket = ws;
    ws.addEventListener("open", () => { for (const m of this.queue) ws.send(m); this.queue = []; });
    ws.addEventListener("message", (ev) => this.onMessage(ev));
    ws.addEventListener("close", () => { $("analyse-stop").disabled = true; });
  },
  send(m) {
    const text = JSON.stringify(m);
    this.connect();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text); else this.queue.push(text);
  },
  onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "position") {
      this.position = m;
      $("aerror").textContent = "";
      aboard.draw(m.fen_now || m.fen);
      $("astatus").textContent = "analysing " + m.variant + "…";
      $("analyse-stop").disabled = false;
    } else if (m.type === "analysis") {
      if (m.fen) aboard.draw(m.fen);
      this.rank(m);
      $("astatus").textContent = (m.done ? "done" : "deepening") + " · depth " + (m.depth || 0) + " · " + (m.nodes || 0) + " nodes";
      if (m.done) $("analyse-stop").disabled = true;
    } else if (m.type === "line") {
      this.playOut(m);
    } else if (m.type === "error") {
      $("aerror").textContent = m.message;
      $("astatus").textContent = "not analysing";
      $("analyse-stop").disabled = true;
    }
  },
  rank(m) {
    const body = $("ranking");
    body.replaceChildren();
    for (const r of m.actions || []) {
      const tr = el("tr");
      tr.appendChild(el("td", "", r.rank));
      tr.appendChild(el("td", "san", r.san));
      let v = r.value === null ? "?" : signed(r.value);
      if (r.mate) v = (r.mate > 0 ? "mate in " + r.mate : "mated in " + -r.mate) + " (" + v + ")";
      tr.appendChild(el("td", "", v));
      const a = r.award;
      const now = [];
      if (Number(a.white)) now.push("W " + signed(a.white));
      if (Number(a.black)) now.push("B " + signed(a.black));
      tr.appendChild(el("td", "", (now.join(" ") || "0") + (a.events.length ? " (" + a.events.join(" ") + ")" : "")));
      tr.appendChild(el("td", "line", r.pv.join(" ")));
      tr.title = "click to play the line out on the board";
      tr.addEventListener("click", () => {
        if (!this.position) return;
        this.send({ type: "line", variant: this.position.variant, fen: this.position.fen, moves: this.position.moves.concat(r.pv) });
      });
      body.appendChild(tr);
    }
  },
  playOut(m) {
    clearInterval(this.timer);
    const start = this.position ? this.position.moves.length : 0;
    let i = start;
    const step = () => {
      if (i >= m.fens.length) { clearInterval(this.timer); return; }
      aboard.draw(m.fens[i]);
      $("aline").textContent = m.sans.slice(start, i).join(" ");
      i++;
    };
    step();
    this.timer = setInterval(step, 700);
  },
};
$("analyse-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const m = { type: "analyse", variant: f.variant.value, chess960: f.chess960.checked };
  if (f.pgn.value.trim()) m.pgn = f.pgn.value; else if (f.fen.value.trim()) m.fen = f.fen.value.trim();
  $("ranking").replaceChildren();
  $("aline").textContent = "";
  analysis.send(m);
});
$("analyse-stop").addEventListener("click", () => { analysis.send({ type: "stop" }); $("analyse-stop").disabled = true; $("astatus").textContent = "stopped"; });
$("analyse-from-game").addEventListener("click", () => {
  const s = game.state;
  if (!s) { $("aerror").textContent = "no game open"; return; }
  const f = $("analyse-form");
  f.variant.value = s.variant;
  f.chess960.checked = s.chess960;
  f.fen.value = s.start_fen;
  f.pgn.value = "";
  $("ranking").replaceChildren();
  analysis.send({ type: "analyse", variant: s.variant, chess960: s.chess960, specials: s.specials, fen: s.start_fen, moves: s.plies.map((p) => p.action) });
});

// ---- start ----

// Fills the setup form from a link's parameters; the names of those that
// could not be used.
function fillSetup(q) {
  const bad = [];
  const choose = (name, value) => {
    const field = form[name];
    if ([...field.options].some((o) => o.value === value)) field.value = value; else bad.push(name + " '" + value + "'");
  };
  const number = (name, text, min, max) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || n < min || n > max) { bad.push(name + " '" + text + "'"); return null; }
    return n;
  };
  if (q.get("variant")) choose("variant", q.get("variant"));
  if (q.get("mode")) choose("mode", q.get("mode"));
  if (q.get("side")) choose("side", q.get("side"));
  form.specials.checked = q.get("specials") === "on";
  form.chess960.checked = q.get("chess960") === "on";
  form.fen.value = q.get("fen") || "";
  if (q.has("movetime")) {
    const ms = number("movetime", q.get("movetime"), 1, 60000);
    if (ms !== null) { form.timing.value = "movetime"; form.movetime.value = Math.round(ms); }
  }
  if (q.has("elo")) {
    const elo = number("elo", q.get("elo"), Number(form.elo.min), Number(form.elo.max));
    if (elo !== null) { form.strength.value = "elo"; form.elo.value = Math.round(elo); }
  }
  if (q.has("clock")) {
    // "300+2": a query string reads the + as a space.
    const [b, i] = q.get("clock").trim().split(/[+ ]+/);
    const base = number("clock", b || "", 0.001, 3 * 3600);
    const inc = number("clock increment", i || "0", 0, 600);
    if (base !== null && inc !== null) { form.timing.value = "clock"; form.base.value = base / 60; form.inc.value = inc; }
  }
  syncForm();
  return bad;
}

(function start() {
  const q = new URLSearchParams(location.search);
  if (q.get("game")) { openGame(q.get("game")); return; }
  if (q.has("view") && q.get("view") === "analyse") { showView("analyse"); analysis.connect(); return; }
  const keys = ["variant", "side", "fen", "movetime", "elo", "specials", "mode", "clock", "chess960"];
  if (keys.some((k) => q.has(k))) {
    // A link fills the setup in; the game starts when the person presses
    // Start (a link from another site cannot set Tally thinking).
    const bad = fillSetup(q);
    showSetup(bad.length ? "the link's " + bad.join(", ") + " could not be used" : "");
    if (!bad.length) $("setup-note").textContent = "Set up from the link: press Start to play.";
    return;
  }
  showSetup("");
})();
