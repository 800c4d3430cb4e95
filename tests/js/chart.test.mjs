// Unit tests of chart.js: the series the points chart draws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { series, yRange, ticks, tickText } from "../../src/serve/assets/js/chart.js";

const ply = (n, mover, fullmove, white, black, expected = null) => ({
  n, mover, fullmove, san: "x", action: "x", special: false, squares: null, fen: "",
  award: { white: 0, black: 0, events: [], items: [] }, running: { white, black }, expected,
});

test("the series counts moves on x and both totals on y", () => {
  const plies = [ply(1, "white", 1, 0, 0), ply(2, "black", 1, 0, 5, -4), ply(3, "white", 2, 10, 5)];
  const s = series(plies, { over: false, totals: { white: 10, black: 5 } });
  assert.deepEqual(s.x, [1, 1.5, 2, 2.5]);
  assert.deepEqual(s.white, [0, 0, 0, 10]);
  assert.deepEqual(s.black, [0, 0, 5, 5]);
  assert.deepEqual(s.expected, [{ ply: 2, x: 2, y: -4 }]);
});

test("once over, the last point holds the final totals and the real margin", () => {
  const plies = [ply(1, "black", 7, 0, 0, 3), ply(2, "white", 8, 0, 0, 2)];
  const s = series(plies, { over: true, totals: { white: 100, black: 0 } });
  assert.deepEqual(s.x, [7.5, 8, 8.5]);
  assert.equal(s.white[2], 100);
  assert.deepEqual(s.expected.map((e) => [e.ply, e.y]), [[1, 3], [2, 100]]);
});

test("a game without plies starts at its FEN's move", () => {
  const s = series([], { over: false, totals: { white: 0, black: 0 }, startFullmove: 12, startTurn: "black" });
  assert.deepEqual(s.x, [12.5]);
  assert.deepEqual(s.expected, []);
});

test("the y range holds 0 and every value; ticks are round", () => {
  const s = { x: [1, 2], white: [0, 40], black: [0, 10], expected: [{ ply: 1, x: 2, y: -20 }] };
  const [lo, hi] = yRange(s);
  assert.ok(lo < -20 && hi > 40);
  assert.deepEqual(ticks(0, 100, 4), [0, 25, 50, 75, 100]);
  assert.deepEqual(ticks(-1, 1, 4), [-1, -0.5, 0, 0.5, 1]);
  assert.equal(tickText(25000), "25k");
  assert.equal(tickText(-1500000), "\u22121.5M");
  assert.equal(tickText(0.5), "0.5");
});
