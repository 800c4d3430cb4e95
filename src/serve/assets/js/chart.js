// @ts-check
// The points chart beside the move list: both running totals and Tally's
// expected final margin (White − Black) at its moves, the series of the
// game report. The x axis counts moves as the report's does: the start
// stands at the first ply's move, the point after White's move 12 at
// 12.5, after Black's at 13. `series` is pure (tested in Node); `draw`
// builds the SVG with DOM calls.

/** @typedef {import("./types.js").PlyState} PlyState */
/** @typedef {import("./types.js").Totals} Totals */

/**
 * The chart's numbers: one entry per point of the game, the start (index
 * 0) and after every ply (index `ply`).
 * @typedef {object} Series
 * @property {number[]} x where each point stands, in moves
 * @property {number[]} white White's points so far (the ending's award in the last, once over)
 * @property {number[]} black Black's
 * @property {{ply: number, x: number, y: number}[]} expected Tally's expected final margin where it has one; the actual final margin last when over
 */

/**
 * The series of a game.
 * @param {PlyState[]} plies
 * @param {{ over: boolean, totals: Totals, startFullmove?: number, startTurn?: "white" | "black" }} game
 * @returns {Series}
 */
export function series(plies, game) {
  const first = plies.length
    ? plies[0].fullmove + (plies[0].mover === "white" ? 0 : 0.5)
    : (game.startFullmove || 1) + (game.startTurn === "black" ? 0.5 : 0);
  /** @type {Series} */
  const s = { x: [first], white: [0], black: [0], expected: [] };
  for (const p of plies) {
    const end = p.fullmove + (p.mover === "white" ? 0.5 : 1);
    s.x.push(Math.max(end, s.x[s.x.length - 1]));
    s.white.push(Number(p.running.white) || 0);
    s.black.push(Number(p.running.black) || 0);
    if (p.expected !== null && p.expected !== undefined && Number.isFinite(p.expected)) {
      s.expected.push({ ply: p.n, x: s.x[s.x.length - 1], y: p.expected });
    }
  }
  if (game.over) {
    const last = s.x.length - 1;
    s.white[last] = Number(game.totals.white) || 0;
    s.black[last] = Number(game.totals.black) || 0;
    const margin = s.white[last] - s.black[last];
    const at = s.expected.findIndex((e) => e.ply === last);
    if (at >= 0) s.expected.splice(at, 1);
    s.expected.push({ ply: last, x: s.x[last], y: margin });
  }
  return s;
}

/**
 * The y range to draw: every value with 0 inside, a little room above.
 * @param {Series} s
 * @returns {[number, number]}
 */
export function yRange(s) {
  const all = s.white.concat(s.black, s.expected.map((e) => e.y), [0]);
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi - lo < 1e-9) hi = lo + 1;
  const pad = (hi - lo) * 0.08;
  return [lo < 0 ? lo - pad : lo, hi + pad];
}

/**
 * A short tick label: `0`, `25`, `2.5k`, `1.2M`.
 * @param {number} v
 * @returns {string}
 */
export function tickText(v) {
  const a = Math.abs(v);
  const sign = v < 0 ? "\u2212" : "";
  if (a >= 1e6) return sign + String(Math.round(a / 1e5) / 10) + "M";
  if (a >= 1e4) return sign + String(Math.round(a / 1e2) / 10) + "k";
  return sign + String(Math.round(a * 100) / 100);
}

/**
 * Round tick values across [lo, hi], about `count` of them.
 * @param {number} lo @param {number} hi @param {number} count
 * @returns {number[]}
 */
export function ticks(lo, hi, count) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v / step) * step);
  return out;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 150;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };

/**
 * Draws the chart of `s` into `svg` (cleared first); a click picks the
 * nearest point (`onPick(ply)`); `viewing` marks the ply shown.
 * @param {SVGSVGElement} svg @param {Series} s
 * @param {{ viewing: number, onPick: (ply: number) => void }} opts
 */
export function draw(svg, s, opts) {
  const doc = svg.ownerDocument;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const [lo, hi] = yRange(s);
  const x0 = s.x[0];
  const x1 = Math.max(s.x[s.x.length - 1], x0 + 1);
  const px = (/** @type {number} */ x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (/** @type {number} */ y) => PAD.top + (1 - (y - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  /** @param {string} tag @param {Record<string, string | number>} at @param {string} [cls] */
  const add = (tag, at, cls) => {
    const e = doc.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(at)) e.setAttribute(k, String(v));
    if (cls) e.setAttribute("class", cls);
    svg.appendChild(e);
    return e;
  };
  for (const t of ticks(lo, hi, 4)) {
    add("line", { x1: PAD.left, x2: W - PAD.right, y1: py(t), y2: py(t) }, t === 0 ? "axis zero" : "axis");
    const label = add("text", { x: PAD.left - 4, y: py(t) + 3.5, "text-anchor": "end" }, "tick");
    label.textContent = tickText(t);
  }
  for (const t of ticks(x0, x1, 6).filter((v) => Number.isInteger(v))) {
    const label = add("text", { x: px(t), y: H - 5, "text-anchor": "middle" }, "tick");
    label.textContent = String(t);
  }
  const poly = (/** @type {number[]} */ ys) => s.x.map((x, i) => px(x).toFixed(1) + "," + py(ys[i]).toFixed(1)).join(" ");
  add("polyline", { points: poly(s.white), fill: "none" }, "total white");
  add("polyline", { points: poly(s.black), fill: "none" }, "total black");
  if (s.expected.length > 1) {
    const pts = s.expected.map((e) => px(e.x).toFixed(1) + "," + py(e.y).toFixed(1)).join(" ");
    add("polyline", { points: pts, fill: "none" }, "expected");
  }
  for (const e of s.expected) add("circle", { cx: px(e.x), cy: py(e.y), r: 2.4 }, "expected-dot");
  if (opts.viewing >= 0 && opts.viewing < s.x.length) {
    add("line", { x1: px(s.x[opts.viewing]), x2: px(s.x[opts.viewing]), y1: PAD.top, y2: H - PAD.bottom }, "cursor");
  }
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    if (!(r.width > 0)) return;
    const x = ((ev.clientX - r.left) / r.width) * W;
    let best = 0;
    s.x.forEach((v, i) => {
      if (Math.abs(px(v) - x) < Math.abs(px(s.x[best]) - x)) best = i;
    });
    opts.onPick(best);
  };
}
