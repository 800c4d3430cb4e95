// Unit tests of contest.js: a contest's table by player, its words and
// what follows a game. The states are the server's (tests/serve.rs plays
// the same contests through the API).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as c from "../../src/serve/assets/js/contest.js";

/** A stylish series:2 between people after game 1 (fool's mate: Black, the second player, 80). */
const afterGame1 = {
  id: "c0ffee000001",
  format: "series:2",
  rules: "series:2 stylish, resignation ends it",
  resignation_ends: true,
  names: ["Player 1", "Player 2"],
  number: 1,
  white: "first",
  games: [{ number: 1, variant: "stylish", tiebreak: false, white: "first", points: [0, 80], winner: "second", ending: "checkmate", resigned: null }],
  ids: ["aaaaaaaaaaa1"],
  totals: [0, 80],
  won: [0, 1],
  tied: 0,
  leader: "second",
  over: false,
  decision: null,
  next: { number: 2, variant: "stylish", tiebreak: false, white: "second", started: false },
  draw_advantage: null,
};

/** The same after game 2: Player 2, White and leading, resigned. */
const over = {
  ...afterGame1,
  number: 2,
  white: "second",
  games: [
    ...afterGame1.games,
    { number: 2, variant: "stylish", tiebreak: false, white: "second", points: [0, 0], winner: null, ending: "resignation", resigned: "second" },
  ],
  ids: ["aaaaaaaaaaa1", "aaaaaaaaaaa2"],
  won: [0, 1],
  tied: 1,
  over: true,
  decision: {
    winner: "first",
    why: "resignation",
    text: "Player 1 wins: Player 2 resigned in game 2, which loses whatever the points (Player 1 0, Player 2 80)",
  },
  next: null,
};

test("formats read as the server writes them", () => {
  assert.deepEqual(c.parseFormat("series:4"), { kind: "series", games: 4, cap: 0 });
  assert.deepEqual(c.parseFormat("tiebreak-match:2"), { kind: "tiebreak-match", games: 2, cap: 4 });
  assert.deepEqual(c.parseFormat("tiebreak-match:2,cap=6"), { kind: "tiebreak-match", games: 2, cap: 6 });
  assert.equal(c.parseFormat("series:4,cap=2"), null);
  assert.equal(c.parseFormat("match:4"), null);
  assert.equal(c.formatText("series:1"), "Series of 1 game");
  assert.equal(c.formatText("tiebreak-match:2"), "Tie-break match of 2 games");
  assert.match(c.tiebreakText("tiebreak-match:2"), /Tiebraker .* at most 4\.$/);
  assert.equal(c.tiebreakText("series:2"), "");
  assert.equal(c.noun("tiebreak-match:2"), "match");
  // The server's bound counts the tie-breaks.
  assert.equal(c.maxGames("series"), 100);
  assert.equal(c.maxGames("tiebreak-match"), 96);
});

test("the players are named as the server names them", () => {
  assert.deepEqual(c.seatNames("people", "white", null), ["Player 1", "Player 2"]);
  assert.deepEqual(c.seatNames("engine", "white", null), ["You", "Tally"]);
  assert.deepEqual(c.seatNames("engine", "black", 1400), ["Tally (1400)", "You"]);
});

test("rows are by player, not by colour, with the running sums", () => {
  const rows = c.contestRows(over, null);
  assert.equal(rows.length, 2);
  assert.deepEqual(
    rows.map((r) => [r.number, r.white, r.points, r.sums, r.result, r.winner, r.note, r.current]),
    [
      [1, "Player 1", ["0", "80"], ["0", "80"], "Player 2", 1, "checkmate", false],
      [2, "Player 2", ["0", "0"], ["0", "80"], "tied", null, "Player 2 resigned", true],
    ]
  );
  assert.equal(rows[1].id, "aaaaaaaaaaa2");
});

test("the game under way is a live row, its points by player", () => {
  const game2 = { ...afterGame1, number: 2, white: "second", ids: ["aaaaaaaaaaa1", "aaaaaaaaaaa2"], next: { ...afterGame1.next, started: true } };
  // Player 2 has White: White's 5 are Player 2's.
  const rows = c.contestRows(game2, { status: "playing", totals: { white: 5, black: 0 } });
  const live = rows[1];
  assert.deepEqual([live.number, live.white, live.points, live.sums, live.result, live.live, live.current], [
    2, "Player 2", ["0", "5"], ["", ""], "playing", true, true,
  ]);
  // A counted game is not repeated.
  assert.equal(c.contestRows(afterGame1, { status: "over", totals: { white: 0, black: 80 } }).length, 1);
});

test("who leads, the games won and what a resignation does", () => {
  assert.equal(c.standingText(afterGame1), "Player 2 leads by 80");
  assert.equal(c.standingText({ ...afterGame1, games: [], totals: [0, 0], leader: null }), "No game counted yet");
  assert.equal(c.standingText({ ...afterGame1, totals: [40, 40], leader: null }), "Level at 40 each");
  assert.equal(c.wonText(over), "Won: Player 1 0 · Player 2 1 · tied 1");
  // Once over, the decision speaks: Player 2 led on points but resigned.
  assert.equal(c.standingText(over), "");
  assert.equal(c.framed(afterGame1), "second");
  assert.equal(c.framed(over), "first");
  assert.equal(c.framed({ ...over, decision: { ...over.decision, winner: null } }), null);
  assert.match(c.resignationText(afterGame1), /^A resignation ends the series: whoever resigns loses it/);
  assert.match(c.resignationText({ ...afterGame1, resignation_ends: false }), /the series goes on/);
  assert.match(c.resignQuestion(over, "people", "white"), /White \(Player 2\) would lose it/);
  assert.equal(c.resignQuestion(null, "people", "white"), "Resign this game?");
});

test("against Tally the person is You, and the verbs agree", () => {
  const engine = { ...afterGame1, names: ["You", "Tally"], leader: "first", totals: [80, 0], draw_advantage: "first" };
  assert.equal(c.standingText(engine), "You lead by 80");
  assert.equal(c.after(engine, "over").text, "Game 2: Tally has White");
  assert.equal(c.after({ ...engine, names: ["Tally", "You"] }, "over").text, "Game 2: You have White");
  assert.match(c.drawAdvantageText(engine, "white"), /^You hold the draw advantage .* Tally chose colour; you are White in this game\.$/);
  assert.equal(c.agree("Player 1", "wins"), "Player 1 wins");
  assert.equal(c.agree("You", "wins"), "You win");
});

test("the game's label, tie-breaks marked", () => {
  assert.equal(c.gameLabel(afterGame1), "Game 1 of 2");
  const match = {
    ...afterGame1,
    format: "tiebreak-match:2",
    number: 3,
    white: "first",
    next: { number: 3, variant: "tiebraker", tiebreak: true, white: "first", started: true },
  };
  assert.equal(c.gameLabel(match), "Game 3: tie-break 1 of up to 4");
  assert.ok(c.isTiebreak(match, 3) && !c.isTiebreak(match, 1));
});

test("what follows a game: the next game once over, a link once started", () => {
  assert.deepEqual(c.after(afterGame1, "over"), { kind: "next", number: 2, text: "Game 2: Player 2 has White" });
  assert.equal(c.after({ ...afterGame1, games: [], next: { ...afterGame1.next, number: 1 } }, "playing"), null);
  const started = { ...afterGame1, ids: ["aaaaaaaaaaa1", "aaaaaaaaaaa2"], next: { ...afterGame1.next, started: true } };
  assert.deepEqual(c.after(started, "over"), { kind: "link", number: 2, id: "aaaaaaaaaaa2" });
  assert.equal(c.after(over, "over"), null);
});

test("the automation contract's values", () => {
  assert.equal(c.statusOf("over", over), "contest-over");
  assert.equal(c.statusOf("over", afterGame1), "over");
  assert.equal(c.statusOf("playing", null), "playing");
  assert.equal(c.winnerOf(over), "first");
  assert.equal(c.winnerOf({ ...over, decision: { ...over.decision, winner: null } }), "none");
});

test("sets: the holder of the draw advantage is named with this game's colour", () => {
  const sets = { ...afterGame1, draw_advantage: "second" };
  assert.equal(
    c.drawAdvantageText(sets, "black"),
    "Player 2 holds the draw advantage (a plain draw's 1/2) in every game, whatever colour: Player 1 chose colour; Player 2 is Black in this game."
  );
  assert.equal(c.drawAdvantageText(afterGame1, null), "");
});
