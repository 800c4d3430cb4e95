// Unit tests of fen.js: squares, pieces, legal destinations, premoves and
// the pieces that moved.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as b from "../../src/serve/assets/js/fen.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

test("squares and their colours", () => {
  assert.deepEqual(b.squareXY("a1"), [0, 0]);
  assert.deepEqual(b.squareXY("h8"), [7, 7]);
  assert.equal(b.squareXY("i9"), null);
  assert.equal(b.squareXY("a0"), null);
  assert.equal(b.squareName(4, 3), "e4");
  assert.ok(b.isDark("a1") && b.isDark("h8") && !b.isDark("h1") && !b.isDark("e4"));
});

test("a FEN's pieces and side to move", () => {
  const p = b.placement(START);
  assert.equal(p.size, 32);
  assert.deepEqual(p.get("e1"), { color: "w", role: "k" });
  assert.deepEqual(p.get("d8"), { color: "b", role: "q" });
  assert.equal(p.get("e4"), undefined);
  assert.equal(b.fenTurn(START), "w");
  assert.equal(b.fenTurn("8/8/8/8/8/8/8/8 b - - 0 1"), "b");
  assert.equal(b.placement("").size, 0);
  assert.equal(b.placement("9/xx").size, 0);
  assert.equal(b.kingSquare(p, "b"), "e8");
});

test("the king in check comes from the SAN's + or #", () => {
  const fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
  assert.equal(b.checkedKing(fen, "Qh4#"), "e1");
  assert.equal(b.checkedKing(fen, "Qh4"), null);
});

test("legal moves become a map of destinations", () => {
  const moves = [
    { uci: "e2e4", from: "e2", to: "e4", promotion: null },
    { uci: "e2e3", from: "e2", to: "e3", promotion: null },
    { uci: "a7a8q", from: "a7", to: "a8", promotion: "q" },
    { uci: "a7a8n", from: "a7", to: "a8", promotion: "n" },
  ];
  const d = b.destsOf(moves);
  assert.deepEqual(d.get("e2"), ["e4", "e3"]);
  assert.deepEqual(d.get("a7"), ["a8"]);
  assert.equal(b.movesBetween(moves, "a7", "a8").length, 2);
  assert.deepEqual(b.movesOfUci(["e2e4", "disk", "a7a8q", "xx"]).map((m) => m.uci), ["e2e4", "a7a8q"]);
  assert.equal(b.movesOfUci(["a7a8q"])[0].promotion, "q");
});

test("a premove becomes the legal move between its squares, a queen when it promotes", () => {
  const moves = [
    { uci: "a7a8n", from: "a7", to: "a8", promotion: "n" },
    { uci: "a7a8q", from: "a7", to: "a8", promotion: "q" },
    { uci: "g1f3", from: "g1", to: "f3", promotion: null },
  ];
  assert.equal(b.premoveMove(moves, "a7", "a8").uci, "a7a8q");
  assert.equal(b.premoveMove(moves, "g1", "f3").uci, "g1f3");
  assert.equal(b.premoveMove(moves, "g1", "h3"), null);
});

test("premove destinations follow how each piece moves, whatever stands in the way", () => {
  const p = b.placement(START);
  assert.deepEqual(b.premoveDests(p, "g1").sort(), ["e2", "f3", "h3"]);
  assert.deepEqual(b.premoveDests(p, "e2").sort(), ["d3", "e3", "e4", "f3"]);
  assert.deepEqual(b.premoveDests(p, "e7").sort(), ["d6", "e5", "e6", "f6"]);
  assert.equal(b.premoveDests(p, "d1").length, 21);
  assert.equal(b.premoveDests(p, "a1").length, 14);
  assert.equal(b.premoveDests(p, "c1").length, 7);
  // The king: its neighbours, two squares aside and its own rooks.
  assert.deepEqual(b.premoveDests(p, "e1").sort(), ["a1", "c1", "d1", "d2", "e2", "f1", "f2", "g1", "h1"]);
  assert.deepEqual(b.premoveDests(p, "e4"), []);
});

test("the pieces that moved: one for a move, two for castling, none for a capture's victim", () => {
  const after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  assert.deepEqual(b.movedPieces(b.placement(START), b.placement(after)), [["e2", "e4"]]);
  const before = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  const castled = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1";
  assert.deepEqual(b.movedPieces(b.placement(before), b.placement(castled)).sort(), [["e1", "g1"], ["h1", "f1"]]);
  const capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
  const taken = "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1";
  assert.deepEqual(b.movedPieces(b.placement(capture), b.placement(taken)), [["e4", "d5"]]);
  assert.deepEqual(b.movedPieces(b.placement(START), b.placement(START)), []);
});
