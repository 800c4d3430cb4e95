// @ts-check
// The New game setup as data: what a link's parameters fill in (and
// which of them cannot be used), and the setup the form posts. Pure: the
// unit tests import it.

import { DEFAULT_CAP, maxGames, parseFormat } from "./contest.js";

/** The parameters a setup link may carry. */
export const LINK_KEYS = [
  "variant",
  "side",
  "fen",
  "movetime",
  "elo",
  "specials",
  "mode",
  "clock",
  "chess960",
  "contest",
  "resignation_ends",
  "chooser",
  "rating",
];

/** The shortest clock a game may have, s (the server's bound). */
export const MIN_CLOCK_S = 1;
/** The longest, s. */
export const MAX_CLOCK_S = 3 * 3600;
/** The lowest rating a person may give for a sets handicap (the server's bound). */
export const MIN_RATING = 0;
/** The highest. */
export const MAX_RATING = 4000;

/**
 * The form's values.
 * @typedef {object} SetupValues
 * @property {string} variant
 * @property {"engine" | "people"} mode
 * @property {"white" | "black"} side
 * @property {"full" | "elo"} strength
 * @property {number} elo
 * @property {"movetime" | "clock"} timing
 * @property {number} movetime ms
 * @property {number} base minutes
 * @property {number} inc seconds
 * @property {boolean} specials
 * @property {boolean} chess960
 * @property {string} fen
 * @property {import("./contest.js").ContestKind} contest one game, a series or a tie-break match
 * @property {number} games the contest's games (a tie-break match's regular games)
 * @property {boolean | null} resignationEnds whether a resignation ends the contest (null: as the variant says)
 * @property {"first" | "second" | "none"} chooser sets: who chose colour (the other holds the draw advantage)
 * @property {string} [rating] sets against Tally at UCI_Elo: the person's rating for the handicap, as typed (empty: none)
 */

/**
 * Whether a query string is a setup link.
 * @param {URLSearchParams} q
 */
export function isSetupLink(q) {
  return LINK_KEYS.some((k) => q.has(k));
}

/**
 * What a link's parameters fill in over `values`, and the parameters
 * that cannot be used, named with their values (`elo 'abc'`).
 * @param {URLSearchParams} q
 * @param {SetupValues} values the form's values before
 * @param {{ variants: string[], minElo: number, maxElo: number }} allowed
 * @returns {{ values: SetupValues, bad: string[] }}
 */
export function readLink(q, values, allowed) {
  const v = { ...values };
  /** @type {string[]} */
  const bad = [];
  const named = (/** @type {string} */ name, /** @type {string} */ text) => bad.push(name + " '" + text + "'");
  /**
   * @param {string} name @param {string} text @param {number} min @param {number} max
   * @returns {number | null}
   */
  const number = (name, text, min, max) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      named(name, text);
      return null;
    }
    return n;
  };
  const variant = q.get("variant");
  if (variant !== null) {
    if (allowed.variants.includes(variant)) v.variant = variant;
    else named("variant", variant);
  }
  const mode = q.get("mode");
  if (mode !== null) {
    if (mode === "engine" || mode === "people") v.mode = mode;
    else named("mode", mode);
  }
  const side = q.get("side");
  if (side !== null) {
    if (side === "white" || side === "black") v.side = side;
    else named("side", side);
  }
  v.specials = q.get("specials") === "on";
  v.chess960 = q.get("chess960") === "on";
  v.fen = q.get("fen") || "";
  const movetime = q.get("movetime");
  if (movetime !== null) {
    const ms = number("movetime", movetime, 1, 60000);
    if (ms !== null) {
      v.timing = "movetime";
      v.movetime = Math.round(ms);
    }
  }
  const elo = q.get("elo");
  if (elo !== null) {
    const n = number("elo", elo, allowed.minElo, allowed.maxElo);
    if (n !== null) {
      v.strength = "elo";
      v.elo = Math.round(n);
    }
  }
  const clock = q.get("clock");
  if (clock !== null) {
    // "300+2": a query string reads the + as a space.
    const [b, i] = clock.trim().split(/[+ ]+/);
    const base = number("clock", b || "", MIN_CLOCK_S, MAX_CLOCK_S);
    const inc = base === null ? null : number("clock increment", i || "0", 0, 600);
    if (base !== null && inc !== null) {
      v.timing = "clock";
      v.base = base / 60;
      v.inc = inc;
    }
  }
  // A contest: `series:N` or `tiebreak-match:N` (the form has no cap:
  // the default one only); absent, one game.
  const contest = q.get("contest");
  v.contest = "one";
  if (contest !== null && contest !== "one") {
    const f = parseFormat(contest);
    if (f && (f.kind === "series" || f.cap === DEFAULT_CAP) && f.games >= 1 && f.games <= maxGames(f.kind)) {
      v.contest = f.kind;
      v.games = f.games;
    } else named("contest", contest);
  }
  const ends = q.get("resignation_ends");
  v.resignationEnds = null;
  if (ends !== null) {
    if (ends === "on" || ends === "off") v.resignationEnds = ends === "on";
    else named("resignation_ends", ends);
  }
  const chooser = q.get("chooser");
  if (chooser !== null) {
    if (chooser === "first" || chooser === "second" || chooser === "none") v.chooser = chooser;
    else named("chooser", chooser);
  }
  // The person's rating for a sets handicap; absent, none.
  const rating = q.get("rating");
  v.rating = "";
  if (rating !== null) {
    const n = number("rating", rating, MIN_RATING, MAX_RATING);
    if (n !== null && Number.isInteger(n)) v.rating = String(n);
    else if (n !== null) named("rating", rating);
  }
  return { values: v, bad };
}

/**
 * Whether a sets handicap applies to a setup: sets, against Tally at a
 * UCI_Elo, one game (not a contest).
 * @param {SetupValues} v
 */
export function handicapApplies(v) {
  return v.variant === "sets" && v.mode === "engine" && v.strength === "elo" && v.contest === "one";
}

/**
 * The setup the form posts (`POST /api/games`), or why it cannot be.
 * @param {SetupValues} v
 * @returns {{ setup: Record<string, unknown> } | { error: string }}
 */
export function setupRequest(v) {
  /** @type {Record<string, unknown>} */
  const setup = { variant: v.variant, mode: v.mode, specials: v.specials, chess960: v.chess960 };
  if (v.mode === "engine") setup.side = v.side;
  if (v.strength === "elo") setup.elo = Math.round(Number(v.elo));
  if (v.timing === "clock") {
    const base = Number(v.base);
    const inc = Number(v.inc || 0);
    if (!(base * 60 >= MIN_CLOCK_S)) return { error: "give the clock's base time in minutes: at least a second (0.02)" };
    if (!(inc >= 0)) return { error: "give the increment in seconds (0 or more)" };
    setup.clock_base = Math.round(base * 60000);
    setup.clock_inc = Math.round(inc * 1000);
  } else {
    setup.movetime = Math.round(Number(v.movetime));
  }
  const fen = String(v.fen || "").trim();
  if (fen) setup.fen = fen;
  if (v.contest === "series" || v.contest === "tiebreak-match") {
    const max = maxGames(v.contest);
    const n = Number(v.games);
    if (!Number.isInteger(n) || n < 1 || n > max) return { error: "give the number of games: a whole number from 1 to " + max };
    setup.contest = v.contest + ":" + n;
    // A tie-break match plays dynamic (its tie-breaks tiebraker).
    if (v.contest === "tiebreak-match") setup.variant = "dynamic";
    if (v.resignationEnds !== null) setup.resignation_ends = v.resignationEnds;
    if (setup.variant === "sets") setup.chooser = v.chooser;
  }
  const rating = String(v.rating ?? "").trim();
  if (rating && handicapApplies(v)) {
    const n = Number(rating);
    if (!Number.isInteger(n) || n < MIN_RATING || n > MAX_RATING) {
      return { error: "give your rating (the SETS handicap) as a whole number from " + MIN_RATING + " to " + MAX_RATING + ", or leave it empty" };
    }
    setup.handicap = n;
  }
  return { setup };
}
