// @ts-check
// A contest (a series, a tie-break match) as the page shows it: its
// format in words, the table's rows by player (not by colour) with the
// running sums, who leads, the rules that matter while playing, and what
// comes after a game (the next game, or a link to it). Pure: the unit
// tests import it; play.js draws what it returns.

import { eventName, points, sideName } from "./format.js";

/** @typedef {import("./types.js").ContestState} ContestState */
/** @typedef {import("./types.js").ContestGame} ContestGame */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Totals} Totals */

/** The most games a served contest has, tie-breaks included (MAX_CONTEST_GAMES in src/serve/game.rs). */
export const MAX_GAMES = 100;
/** The tie-break games of a tie-break match (DEFAULT_CAP in src/contest/mod.rs). */
export const DEFAULT_CAP = 4;

/** The kinds of contest New game offers. @typedef {"one" | "series" | "tiebreak-match"} ContestKind */

/**
 * A format as the server writes it: `series:4`, `tiebreak-match:2`,
 * `tiebreak-match:2,cap=6`; null for anything else.
 * @param {string} format
 * @returns {{ kind: "series" | "tiebreak-match", games: number, cap: number } | null}
 */
export function parseFormat(format) {
  const m = /^(series|tiebreak-match):(\d+)(?:,cap=(\d+))?$/.exec(String(format || "").trim());
  if (!m || (m[1] === "series" && m[3] !== undefined)) return null;
  const kind = m[1] === "series" ? "series" : "tiebreak-match";
  return { kind, games: Number(m[2]), cap: kind === "series" ? 0 : m[3] === undefined ? DEFAULT_CAP : Number(m[3]) };
}

/**
 * The most regular games New game allows for a kind: the server's bound
 * less the tie-breaks a tie-break match may add.
 * @param {ContestKind} kind
 */
export function maxGames(kind) {
  return kind === "tiebreak-match" ? MAX_GAMES - DEFAULT_CAP : MAX_GAMES;
}

/**
 * The contest's noun: `series` or `match`.
 * @param {string} format
 */
export function noun(format) {
  const f = parseFormat(format);
  return f && f.kind === "tiebreak-match" ? "match" : "series";
}

/**
 * A format in words: `Series of 4 games`, `Tie-break match of 2 games`.
 * @param {string} format
 */
export function formatText(format) {
  const f = parseFormat(format);
  if (!f) return String(format || "");
  const games = f.games + (f.games === 1 ? " game" : " games");
  return (f.kind === "series" ? "Series of " : "Tie-break match of ") + games;
}

/**
 * A tie-break match's tie-breaks in words; empty for a series.
 * @param {string} format
 */
export function tiebreakText(format) {
  const f = parseFormat(format);
  if (!f || f.kind !== "tiebreak-match") return "";
  if (f.cap === 0) return "Level after its " + f.games + " games of Dynamic chess, the match is tied (no tie-break).";
  return (
    "Level after its " + f.games + " games of Dynamic chess, games of Tiebraker (disk on) follow until one breaks the tie, at most " +
    f.cap + "."
  );
}

/**
 * A player's name with a verb that agrees: `Player 2 leads`, `You lead`
 * (against Tally the person is `You`).
 * @param {string} name @param {string} verb the third person's (`leads`, `has`, `holds`, `is`)
 */
export function agree(name, verb) {
  if (name !== "You" && name !== "you") return name + " " + verb;
  /** @type {Record<string, string>} */
  const second = { has: "have", is: "are", leads: "lead", holds: "hold", wins: "win" };
  return name + " " + (second[verb] || verb.replace(/s$/, ""));
}

/** @param {Seat} seat @returns {0 | 1} */
export function seatIndex(seat) {
  return seat === "second" ? 1 : 0;
}

/** @param {Seat} seat @returns {Seat} */
export function otherSeat(seat) {
  return seat === "first" ? "second" : "first";
}

/**
 * The players' names before a contest starts, as the server names them:
 * `Player 1` and `Player 2` between people; against Tally, `You` and
 * `Tally` (`Tally (1400)` when weakened), White in game 1 first.
 * @param {"engine" | "people"} mode @param {Side} side the person's side in game 1 @param {number | null} elo
 * @returns {[string, string]}
 */
export function seatNames(mode, side, elo) {
  if (mode === "people") return ["Player 1", "Player 2"];
  const tally = elo === null ? "Tally" : "Tally (" + elo + ")";
  return side === "black" ? [tally, "You"] : ["You", tally];
}

/**
 * Whether game `number` of the contest is a tie-break game.
 * @param {ContestState} c @param {number} number
 */
export function isTiebreak(c, number) {
  const g = c.games.find((x) => x.number === number);
  if (g) return g.tiebreak;
  if (c.next && c.next.number === number) return c.next.tiebreak;
  const f = parseFormat(c.format);
  return Boolean(f && f.kind === "tiebreak-match" && number > f.games);
}

/**
 * The name of the game shown: `Game 2 of 4`; a tie-break game `Game 3:
 * tie-break 1 of up to 4`.
 * @param {ContestState} c
 */
export function gameLabel(c) {
  const f = parseFormat(c.format);
  const n = c.number;
  if (!f) return "Game " + n;
  if (isTiebreak(c, n)) return "Game " + n + ": tie-break " + (n - f.games) + " of up to " + f.cap;
  return "Game " + n + " of " + f.games;
}

/**
 * One row of the contest's table.
 * @typedef {object} ContestRow
 * @property {number} number
 * @property {string | null} id the game's id, when kept
 * @property {boolean} tiebreak
 * @property {string} white the name of the player who had White
 * @property {[string, string]} points each player's points in the game, first player first
 * @property {[string, string]} sums the running sums after it ("" for the game under way)
 * @property {string} result the winner's name, `tied`, or `playing` for the game under way
 * @property {0 | 1 | null} winner the index of the player with more points in it (null: equal, or under way)
 * @property {string} note how it ended: `checkmate`, `Player 2 resigned`, `Player 1 lost on time`
 * @property {boolean} current whether it is the game this page shows
 * @property {boolean} live whether it is the game under way, not counted yet (its points so far)
 */

/**
 * The table's rows: every counted game with its points by player and
 * the running sums, then the game this page shows while it is under way
 * (`live`: this game's status and totals), with its points so far.
 * @param {ContestState} c
 * @param {{ status: string, totals: Totals } | null} live
 * @returns {ContestRow[]}
 */
export function contestRows(c, live) {
  /** @type {ContestRow[]} */
  const rows = [];
  let a = 0;
  let b = 0;
  for (const g of c.games) {
    a += Number(g.points[0]) || 0;
    b += Number(g.points[1]) || 0;
    let note = g.ending ? eventName(g.ending) : "";
    if (g.ending === "time_forfeit" && g.resigned) note = c.names[seatIndex(g.resigned)] + " lost on time";
    else if (g.resigned) note = c.names[seatIndex(g.resigned)] + " resigned";
    rows.push({
      number: g.number,
      id: c.ids[g.number - 1] || null,
      tiebreak: g.tiebreak,
      white: c.names[seatIndex(g.white)],
      points: [points(g.points[0]), points(g.points[1])],
      sums: [points(a), points(b)],
      result: g.winner ? c.names[seatIndex(g.winner)] : "tied",
      winner: g.winner ? seatIndex(g.winner) : null,
      note,
      current: g.number === c.number,
      live: false,
    });
  }
  if (live && !c.games.some((g) => g.number === c.number)) {
    const white = c.white === "first" ? live.totals.white : live.totals.black;
    const black = c.white === "first" ? live.totals.black : live.totals.white;
    rows.push({
      number: c.number,
      id: c.ids[c.number - 1] || null,
      tiebreak: isTiebreak(c, c.number),
      white: c.names[seatIndex(c.white)],
      points: [points(white), points(black)],
      sums: ["", ""],
      result: live.status === "over" ? "over" : "playing",
      winner: null,
      note: "",
      current: true,
      live: true,
    });
  }
  return rows;
}

/**
 * Who leads: `Player 2 leads by 80`, `Level at 40 each`, or `No game
 * counted yet`; nothing once over (the decision says who won, and a
 * resignation may have lost it for the player ahead on points).
 * @param {ContestState} c
 */
export function standingText(c) {
  if (c.over) return "";
  if (c.games.length === 0) return "No game counted yet";
  const [a, b] = c.totals.map(Number);
  if (c.leader) {
    const i = seatIndex(c.leader);
    return agree(c.names[i], "leads") + " by " + points(Math.abs(a - b));
  }
  return "Level at " + points(a) + " each";
}

/**
 * The games won on points: `Won: Player 1 1 · Player 2 0 · tied 1`.
 * @param {ContestState} c
 */
export function wonText(c) {
  return "Won: " + c.names[0] + " " + c.won[0] + " · " + c.names[1] + " " + c.won[1] + " · tied " + c.tied;
}

/**
 * The player whose sum the table frames: the leader while the contest
 * goes on, the winner once over (none for a tie).
 * @param {ContestState} c
 * @returns {Seat | null}
 */
export function framed(c) {
  if (c.over) return c.decision ? c.decision.winner : null;
  return c.leader;
}

/**
 * What a resignation does in this contest, in one line.
 * @param {ContestState} c
 */
export function resignationText(c) {
  const n = noun(c.format);
  return c.resignation_ends
    ? "A resignation ends the " + n + ": whoever resigns loses it, whatever the points."
    : "A resignation scores its game as the rules say; the " + n + " goes on.";
}

/**
 * Sets: who holds the draw advantage, and their colour in this game;
 * empty when nobody does.
 * @param {ContestState} c @param {Side | null} side the holder's colour in this game
 */
export function drawAdvantageText(c, side) {
  if (!c.draw_advantage) return "";
  const holder = c.names[seatIndex(c.draw_advantage)];
  const chooser = c.names[seatIndex(otherSeat(c.draw_advantage))];
  return (
    agree(holder, "holds") + " the draw advantage (a plain draw's 1/2) in every game, whatever colour: " + chooser +
    " chose colour" + (side ? "; " + agree(holder === "You" ? "you" : holder, "is") + " " + sideName(side) + " in this game." : ".")
  );
}

/**
 * What follows the game shown: a link to the next game when it has
 * started, the Next game button once this game is over and the contest
 * goes on, or nothing.
 * @param {ContestState} c @param {string} status this game's status
 * @returns {{ kind: "link", number: number, id: string } | { kind: "next", number: number, text: string } | null}
 */
export function after(c, status) {
  if (c.ids.length > c.number) return { kind: "link", number: c.number + 1, id: c.ids[c.number] };
  if (c.over || status !== "over" || !c.next || c.next.started) return null;
  const n = c.next;
  const white = c.names[seatIndex(n.white)];
  const text = "Game " + n.number + (n.tiebreak ? ", a tie-break (" + n.variant + ")" : "") + ": " + agree(white, "has") + " White";
  return { kind: "next", number: n.number, text };
}

/**
 * The status element's `data-status`: `contest-over` once the contest
 * is over, else the game's own (`playing`, `over`).
 * @param {string} status @param {ContestState | null} c
 */
export function statusOf(status, c) {
  return c && c.over ? "contest-over" : status;
}

/**
 * The decision's `data-contest-winner`: `first`, `second` or `none`.
 * @param {ContestState} c
 */
export function winnerOf(c) {
  return c.decision && c.decision.winner ? c.decision.winner : "none";
}

/**
 * The Resign button's question: in a contest, what the resignation does
 * to it, naming who resigns (between people, the side to move).
 * @param {ContestState | null} c @param {"engine" | "people"} mode @param {Side} turn
 */
export function resignQuestion(c, mode, turn) {
  if (!c) return "Resign this game?";
  const n = noun(c.format);
  const seat = turn === "white" ? c.white : otherSeat(c.white);
  const who = mode === "people" ? sideName(turn) + " (" + c.names[seatIndex(seat)] + ")" : "you";
  const question = mode === "people" ? "Resign this game for " + who + "?" : "Resign this game?";
  return (
    question + " " +
    (c.resignation_ends
      ? "A resignation ends the " + n + ": " + who + " would lose it, whatever the points."
      : "The resignation scores this game; the " + n + " goes on.")
  );
}
