// Unit tests of format.js: the page's text of points, clocks and awards.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as f from "../../src/serve/assets/js/format.js";

test("points are the referee's: integers whole, decimals kept", () => {
  assert.equal(f.points(110), "110");
  assert.equal(f.points(0.5), "0.5");
  assert.equal(f.points(-3), "-3");
  assert.equal(f.points(null), "0");
  assert.equal(f.points(2.1234), "2.123");
});

test("signed numbers carry a sign and round for reading", () => {
  assert.equal(f.signed(5), "+5");
  assert.equal(f.signed(-3.25), "\u22123.25");
  assert.equal(f.signed(0), "0");
  assert.equal(f.signed(0.001), "0");
  assert.equal(f.signed(12.34), "+12.3");
  assert.equal(f.signed(-1234.6), "\u22121235");
  assert.equal(f.signed(null), "?");
});

test("clocks read as minutes and seconds, tenths under ten seconds", () => {
  assert.equal(f.clock(300000), "5:00");
  assert.equal(f.clock(42000), "0:42");
  assert.equal(f.clock(9400), "0:09.4");
  assert.equal(f.clock(-5), "0:00.0");
  assert.equal(f.clock(3723000), "1:02:03");
});

test("an award reads event by event, naming a side only when it is not the mover", () => {
  const award = {
    white: 230,
    black: 0,
    events: ["mate", "discovered", "coverage"],
    items: [
      { event: "mate", white: 110, black: 0 },
      { event: "discovered", white: 50, black: 0 },
      { event: "coverage", white: 70, black: 0 },
    ],
  };
  assert.equal(f.awardText(award, "white"), "mate 110 + discovered 50 + coverage 70");
  assert.equal(f.awardText(award, null), "mate 110 to White + discovered 50 to White + coverage 70 to White");
  const both = { white: 50, black: 50, events: ["draw"], items: [{ event: "draw", white: 50, black: 50 }] };
  assert.equal(f.awardText(both, "black"), "draw 50 to White, 50 to Black");
  const other = { white: 0, black: 500, events: ["fall"], items: [{ event: "fall", white: 0, black: 500 }] };
  assert.equal(f.awardText(other, "white"), "fall 500 to Black");
  assert.equal(f.awardText({ white: 0, black: 0, events: [], items: [] }, "white"), "");
  assert.equal(f.awardText({ white: 0, black: 0, events: ["check"], items: [{ event: "check", white: 0, black: 0 }] }, "white"), "check 0");
  // Event names as words, not ids.
  const time = { white: 1, black: 0, events: ["time_forfeit"], items: [{ event: "time_forfeit", white: 1, black: 0 }] };
  assert.equal(f.awardText(time, null), "time forfeit 1 to White");
  // An award without items still says what it paid.
  assert.equal(f.awardText({ white: 5, black: 0, events: ["capture"], items: [] }, "white"), "capture 5 to White");
});

test("an award in short: the mover's gain alone, else both sides", () => {
  const a = (white, black) => ({ white, black, events: [], items: [] });
  assert.equal(f.awardShort(a(110, 0), "white"), "+110");
  assert.equal(f.awardShort(a(0, 5), "black"), "+5");
  assert.equal(f.awardShort(a(0, 5), "white"), "B +5");
  assert.equal(f.awardShort(a(10, 5), "white"), "W +10 · B +5");
  assert.equal(f.awardShort(a(0, 0), "white"), "");
});

test("move numbers and lines", () => {
  assert.equal(f.moveNumber({ fullmove: 12, mover: "white" }), "12.");
  assert.equal(f.moveNumber({ fullmove: 12, mover: "black" }), "12\u2026");
  assert.equal(f.plyText({ fullmove: 2, mover: "black", san: "Qh4#" }), "2\u2026 Qh4#");
  assert.equal(f.lineText(["e4", "e5", "Nf3"], 1, "white"), "1. e4 e5 2. Nf3");
  assert.equal(f.lineText(["e5", "Nf3", "Nc6"], 1, "black"), "1\u2026 e5 2. Nf3 Nc6");
  assert.equal(f.lineText([], 3, "white"), "");
  assert.equal(f.fenFullmove("8/8/8/8/8/8/8/8 b - - 3 17"), 17);
  assert.equal(f.fenFullmove("8/8/8/8/8/8/8/8 w - -"), 1);
});

test("variants have readable names and about lines", () => {
  assert.equal(f.variantName("stylish"), "Stylish chess");
  assert.equal(f.variantName("tiebraker"), "Tiebraker");
  assert.equal(f.variantName("newone"), "Newone");
  assert.equal(f.aboutText({ variant: "sets", about: "sets: the points of each ending", lines: [] }), "the points of each ending");
  assert.equal(f.keyText("capture.queen_diagonal"), "capture, queen diagonal");
});

test("the result names the winner, or none on a tie", () => {
  assert.equal(f.winnerOf({ winner: "black", by: "resignation", text: "" }), "black");
  assert.equal(f.winnerOf({ winner: null, by: "points", text: "" }), "none");
  assert.equal(f.winnerOf(null), "none");
  assert.equal(f.headline({ winner: "white", by: "points", text: "" }), "White wins");
  assert.equal(f.headline({ winner: null, by: "points", text: "" }), "Tied on points");
  assert.equal(f.resultDetail({ winner: "black", by: "points", text: "Black wins on points, 14 to 10, though mated" }, null), "On points, 14 to 10, though mated");
  const time = { kind: "time_forfeit", text: "time forfeit, Black lost on time", winner: "white" };
  const timeResult = { winner: "white", by: "points", text: "White wins (time forfeit, Black lost on time)" };
  assert.equal(f.resultDetail(timeResult, null), "Time forfeit, Black lost on time");
  assert.equal(f.resultDetail(timeResult, time), "");
  assert.equal(f.resultText(timeResult, time), "White wins");
  assert.equal(f.resultText(timeResult, null), "White wins (time forfeit, Black lost on time)");
  assert.equal(f.resultDetail({ winner: null, by: "points", text: "A tie on points, 50 to 50" }, null), "A tie on points, 50 to 50");
  assert.equal(f.resultDetail(null, null), "");
});

test("the ending as a sentence's start, the winner left to the result", () => {
  assert.equal(f.endingText({ kind: "checkmate", text: "checkmate, Black wins", winner: "black" }), "Checkmate");
  assert.equal(f.endingText({ kind: "resignation", text: "White resigned", winner: "black" }), "White resigned");
  assert.equal(f.endingText({ kind: "time_forfeit", text: "time forfeit, White lost on time", winner: "black" }), "Time forfeit, White lost on time");
  assert.equal(f.endingText(null), "");
});

test("tiebraker's phase in words, with the swap's countdown", () => {
  const p = (phase, extra = {}) => ({ phase, first: "white", frozen: null, swap_plies_left: null, compulsory: false, ...extra });
  assert.match(f.phaseText(p("none"), true), /No disk yet/);
  assert.match(f.phaseText(p("none"), false), /special actions are off/);
  assert.match(f.phaseText(p("offered"), true), /White played disk: Black answers/);
  assert.match(f.phaseText(p("accepted", { frozen: "white", compulsory: true }), true), /White's king is the frozen disk; capture-or-check/);
  assert.match(f.phaseText(p("swapped", { frozen: "black", swap_plies_left: 17 }), true), /Black's king is the disk; 17 plies left/);
  assert.match(f.phaseText(p("swapped", { frozen: "black", swap_plies_left: 1 }), true), /1 ply left/);
  assert.match(f.phaseText(p("swapped", { frozen: "black" }), true), /capture-or-check binds/);
  assert.match(f.phaseText(p("restored"), true), /Restored by Black/);
  assert.equal(f.phaseText(null, true), "");
});

test("dates read year first, to the minute", () => {
  assert.match(f.dateText(Date.UTC(2026, 11, 7, 17, 35)), /^2026-12-0[78] \d\d:\d\d$/);
});

test("the evaluation bar's scale comes from the rules card", () => {
  const card = (lines) => ({ variant: "x", about: "", lines });
  assert.equal(f.evalScale(card([{ key: "win", pays: "", value: "1" }])), 0.5);
  assert.equal(f.evalScale(card([{ key: "mate.pawn", pays: "", value: "180" }, { key: "capture", pays: "", value: "[5, 40]" }])), 90);
  assert.equal(f.evalScale(card([{ key: "time", pays: "", value: "[[3600, 400000]]" }, { key: "check", pays: "", value: "5000" }])), 2500);
  assert.equal(f.evalScale(null), 0.5);
  assert.equal(f.evalShare(0, 10), 0.5);
  assert.ok(f.evalShare(10, 10) > 0.85);
  assert.equal(f.evalShare(1e9, 10), 0.97);
  assert.equal(f.evalShare(-1e9, 10), 0.03);
  assert.equal(f.evalShare(NaN, 10), 0.5);
});

test("a sets handicap in one line: who is the weaker, the gap, the factor", () => {
  const you = f.handicapText({ rating: 1400, gap: 600, weaker: "white", factor: 12.25 }, "white", 2000);
  assert.equal(
    you,
    "SETS handicap: you (White, rated 1400) are 600 below Tally's 2000: your values count \u00d712.25, and you hold the draw advantage."
  );
  const tally = f.handicapText({ rating: 2300, gap: 300, weaker: "white", factor: 6.548 }, "black", 2000);
  assert.equal(
    tally,
    "SETS handicap: Tally (White, 2000) is 300 below your 2300: Tally's values count \u00d76.548, and Tally holds the draw advantage."
  );
  assert.equal(f.handicapText(null, "white", 2000), "");
  assert.equal(f.handicapText({ rating: 2000, gap: 0, weaker: "white", factor: 1 }, "white", 2000), "");
});
