// @ts-check
// Pure text of the page: points, signed numbers, clocks, awards, move
// numbers, variants' names, the result, tiebraker's phase and a sets
// handicap. No DOM here: the unit tests import it.

/** @typedef {import("./types.js").ItemisedAward} ItemisedAward */
/** @typedef {import("./types.js").AwardItem} AwardItem */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").PlyState} PlyState */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").DiskPhase} DiskPhase */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").HandicapState} HandicapState */

/** The minus sign of the page's numbers. */
export const MINUS = "\u2212";

/**
 * Points as the referee writes them: whole points as integers, others
 * with their decimals (`0.5`).
 * @param {number | null | undefined} v
 * @returns {string}
 */
export function points(v) {
  if (v === null || v === undefined || !Number.isFinite(Number(v))) return "0";
  const n = Number(v);
  if (Number.isInteger(n)) return String(n);
  return String(Math.round(n * 1000) / 1000);
}

/**
 * A number rounded for reading: two decimals under 10, one under 100,
 * none from 100 on; trailing zeros dropped.
 * @param {number} v
 * @returns {string}
 */
export function rounded(v) {
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  const f = 10 ** digits;
  const r = Math.round(a * f) / f;
  return String(r);
}

/**
 * A signed number: `+5`, `−3.25`, `0`.
 * @param {number | null | undefined} v
 * @returns {string}
 */
export function signed(v) {
  if (v === null || v === undefined || !Number.isFinite(Number(v))) return "?";
  const n = Number(v);
  const text = rounded(n);
  if (text === "0") return "0";
  return (n > 0 ? "+" : MINUS) + text;
}

/**
 * A clock: `5:00`, `0:42`, `0:09.4` under 10 s, `1:02:03` from an hour.
 * @param {number} ms
 * @returns {string}
 */
export function clock(ms) {
  const left = Math.max(0, Math.floor(Number(ms) || 0));
  const tenths = Math.floor(left / 100);
  const s = Math.floor(left / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const pad = (/** @type {number} */ x) => String(x).padStart(2, "0");
  if (h > 0) return h + ":" + pad(m % 60) + ":" + pad(s % 60);
  if (left < 10000) return m + ":" + pad(s % 60) + "." + (tenths % 10);
  return m + ":" + pad(s % 60);
}

/** @param {Side} side */
export function sideName(side) {
  return side === "white" ? "White" : "Black";
}

/**
 * One event of an award: `mate 110`; the side it paid is named when it
 * is not `mover` (or always, with no mover): `fall 500 to Black`; both
 * sides when it paid both: `draw 50 to White, 50 to Black`.
 * @param {AwardItem} item @param {Side | null} mover
 * @returns {string}
 */
export function itemText(item, mover) {
  const w = Number(item.white) || 0;
  const b = Number(item.black) || 0;
  const event = eventName(item.event);
  if (w !== 0 && b !== 0) return event + " " + points(w) + " to White, " + points(b) + " to Black";
  if (w === 0 && b === 0) return event + " 0";
  const side = w !== 0 ? "white" : "black";
  const v = points(w !== 0 ? w : b);
  return event + " " + v + (side === mover ? "" : " to " + sideName(side));
}

/**
 * A referee's event name as words: `time_forfeit` → `time forfeit`.
 * @param {string} event
 * @returns {string}
 */
export function eventName(event) {
  return String(event || "").replace(/_/g, " ");
}

/**
 * An award event by event: `mate 110 + discovered 50 + coverage 70`;
 * empty when it paid nothing for nothing.
 * @param {ItemisedAward | null | undefined} award @param {Side | null} mover
 * @returns {string}
 */
export function awardText(award, mover) {
  if (!award) return "";
  const items = award.items || [];
  if (items.length > 0) return items.map((i) => itemText(i, mover)).join(" + ");
  // An award without items (none recorded): its events and totals.
  const w = Number(award.white) || 0;
  const b = Number(award.black) || 0;
  const events = (award.events || []).map(eventName).join(" + ");
  if (w === 0 && b === 0) return events;
  const parts = [];
  if (w !== 0) parts.push(points(w) + " to White");
  if (b !== 0) parts.push(points(b) + " to Black");
  return (events + " " + parts.join(", ")).trim();
}

/**
 * What an award paid in short: `+110` to the mover alone, else each
 * side's: `W +5 · B +10`; empty when nothing.
 * @param {ItemisedAward | null | undefined} award @param {Side | null} mover
 * @returns {string}
 */
export function awardShort(award, mover) {
  if (!award) return "";
  const w = Number(award.white) || 0;
  const b = Number(award.black) || 0;
  if (w === 0 && b === 0) return "";
  if (mover === "white" && b === 0) return signed(w);
  if (mover === "black" && w === 0) return signed(b);
  const parts = [];
  if (w !== 0) parts.push("W " + signed(w));
  if (b !== 0) parts.push("B " + signed(b));
  return parts.join(" · ");
}

/**
 * A ply's move number: `12.` for White's, `12…` for Black's.
 * @param {{ fullmove: number, mover: Side }} ply
 * @returns {string}
 */
export function moveNumber(ply) {
  return ply.fullmove + (ply.mover === "white" ? "." : "\u2026");
}

/**
 * A ply as one reads it: `12… Qh4#`.
 * @param {{ fullmove: number, mover: Side, san: string }} ply
 * @returns {string}
 */
export function plyText(ply) {
  return moveNumber(ply) + " " + ply.san;
}

/**
 * A line of SAN with move numbers from a position (`fullmove`, the side
 * to move): `12. e4 e5 13. Nf3`, or `12… e5 13. Nf3`.
 * @param {string[]} sans @param {number} fullmove @param {Side} turn
 * @returns {string}
 */
export function lineText(sans, fullmove, turn) {
  /** @type {string[]} */
  const out = [];
  let n = fullmove;
  let white = turn === "white";
  sans.forEach((san, i) => {
    if (white) out.push(n + ". " + san);
    else out.push(i === 0 ? n + "\u2026 " + san : san);
    if (!white) n++;
    white = !white;
  });
  return out.join(" ");
}

/**
 * The fullmove number of a FEN (1 when it has none).
 * @param {string} fen
 * @returns {number}
 */
export function fenFullmove(fen) {
  const n = Number(String(fen || "").trim().split(/\s+/)[5]);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** Variants' names as people write them. @type {Record<string, string>} */
const NAMES = {
  chess: "Chess",
  extinction: "Extinction chess",
  stylish: "Stylish chess",
  wacky: "Wacky chess",
  sets: "Sets",
  dynamic: "Dynamic chess",
  tiebraker: "Tiebraker",
};

/**
 * A variant's readable name: `Stylish chess`; an id the page does not
 * know is capitalised.
 * @param {string} id
 * @returns {string}
 */
export function variantName(id) {
  if (Object.prototype.hasOwnProperty.call(NAMES, id)) return NAMES[id];
  const s = String(id || "");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * A card's about line without its leading `id: `: `captures, stylish
 * mates, ...`.
 * @param {Card} card
 * @returns {string}
 */
export function aboutText(card) {
  const about = String(card.about || "");
  const prefix = card.variant + ": ";
  return about.startsWith(prefix) ? about.slice(prefix.length) : about;
}

/**
 * A rules card's key as a heading: `capture.pawn` → `capture, pawn`,
 * `promoted_mate` → `promoted mate`.
 * @param {string} key
 * @returns {string}
 */
export function keyText(key) {
  return String(key).split(".").map((p) => p.replace(/_/g, " ")).join(", ");
}

/**
 * The `data-winner` of a finished game: `white`, `black` or `none`.
 * @param {Decision | null | undefined} result
 * @returns {"white" | "black" | "none"}
 */
export function winnerOf(result) {
  return result && (result.winner === "white" || result.winner === "black") ? result.winner : "none";
}

/**
 * The end screen's headline: `White wins`, `Black wins`, `Tied on points`.
 * @param {Decision | null | undefined} result
 * @returns {string}
 */
export function headline(result) {
  const w = winnerOf(result);
  if (w === "none") return "Tied on points";
  return sideName(w) + " wins";
}

/**
 * How a game ended, as a sentence's start: `Checkmate`, `White resigned`,
 * `Time forfeit, Black lost on time` (the result names the winner).
 * @param {import("./types.js").EndingState | null | undefined} ending
 * @returns {string}
 */
export function endingText(ending) {
  const text = String((ending && ending.text) || "").replace(/, (White|Black) wins$/, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The result in words without the ending's own words, which the page
 * shows beside it: `Black wins (extinction, Black wins)` → `Black wins`.
 * @param {Decision | null | undefined} result
 * @param {import("./types.js").EndingState | null | undefined} ending
 * @returns {string}
 */
export function resultText(result, ending) {
  if (!result) return "";
  const text = String(result.text || "");
  const said = ending && ending.text ? " (" + ending.text + ")" : "";
  return said && text.endsWith(said) ? text.slice(0, -said.length) : text;
}

/**
 * The result's words after the headline: `On points, 14 to 10, though
 * mated` for `Black wins on points, 14 to 10, though mated`; empty when
 * the headline says it all; the whole text when it does not start with
 * the headline.
 * @param {Decision | null | undefined} result
 * @param {import("./types.js").EndingState | null | undefined} ending
 * @returns {string}
 */
export function resultDetail(result, ending) {
  if (!result) return "";
  const head = headline(result);
  const text = resultText(result, ending);
  if (text === head) return "";
  if (!text.startsWith(head + " ")) return text;
  const rest = text.slice(head.length + 1).replace(/^\((.*)\)$/, "$1");
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * Tiebraker's phase in words, with the swap's countdown; empty outside
 * tiebraker.
 * @param {DiskPhase | null | undefined} phase @param {boolean} specials
 * @returns {string}
 */
export function phaseText(phase, specials) {
  if (!phase) return "";
  const first = phase.first ? sideName(phase.first) : "?";
  const frozen = phase.frozen ? sideName(phase.frozen) : "?";
  switch (phase.phase) {
    case "none":
      return specials
        ? "No disk yet: once a game, either side may play disk instead of a move. Until then it scores as dynamic."
        : "No disk (special actions are off): it scores as dynamic.";
    case "offered":
      return first + " played disk: " + (phase.first === "white" ? "Black" : "White") +
        " answers by a move (accepting it), swap or restore.";
    case "accepted":
      return "Disk accepted: " + frozen + "'s king is the frozen disk; capture-or-check binds both sides.";
    case "swapped":
      return phase.swap_plies_left
        ? "Swapped: " + frozen + "'s king is the disk; " + phase.swap_plies_left + " " +
            (phase.swap_plies_left === 1 ? "ply" : "plies") + " left that score as dynamic, then capture-or-check."
        : "Swapped: " + frozen + "'s king is the disk; capture-or-check binds both sides.";
    case "restored":
      return "Restored by " + (phase.first === "white" ? "Black" : "White") + ": no disk, captures optional; " +
        "the restorer scores only by mating or stalemating, every other ending goes to " + first + ".";
    default:
      return "";
  }
}

/**
 * A sets handicap in one line, the person being "you": who is the
 * weaker, by how much, and what it gets (its values times the table's
 * factor, and the draw advantage); empty without one.
 * @param {HandicapState | null | undefined} h
 * @param {Side} side the person's side
 * @param {number | null} elo Tally's UCI_Elo
 * @returns {string}
 */
export function handicapText(h, side, elo) {
  if (!h || !h.gap) return "";
  const factor = "\u00d7" + points(h.factor);
  // Tally's rating is its UCI_Elo (a handicap is only given with one).
  const tally = elo === null ? "?" : String(elo);
  if (h.weaker === side) {
    return "SETS handicap: you (" + sideName(side) + ", rated " + h.rating + ") are " + h.gap + " below Tally's " +
      tally + ": your values count " + factor + ", and you hold the draw advantage.";
  }
  return "SETS handicap: Tally (" + sideName(h.weaker) + ", " + tally + ") is " + h.gap + " below your " + h.rating +
    ": Tally's values count " + factor + ", and Tally holds the draw advantage.";
}

/**
 * A date as the games list shows it: `2026-12-07 17:35` (local time).
 * @param {number} ms since the Unix epoch
 * @returns {string}
 */
export function dateText(ms) {
  const d = new Date(Number(ms) || 0);
  const pad = (/** @type {number} */ x) => String(x).padStart(2, "0");
  return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " + pad(d.getHours()) + ":" + pad(d.getMinutes());
}

/**
 * The points that settle a game of a variant, for the evaluation bar's
 * scale: half the largest number of its rules card (wacky's clock table
 * left out). At least 0.5.
 * @param {Card | null | undefined} card
 * @returns {number}
 */
export function evalScale(card) {
  let most = 0;
  for (const l of (card && card.lines) || []) {
    if (l.key.startsWith("time")) continue;
    for (const m of String(l.value).match(/-?\d+(\.\d+)?/g) || []) most = Math.max(most, Math.abs(Number(m)));
  }
  return Math.max(0.5, most / 2);
}

/**
 * White's share of the evaluation bar for an expected final margin
 * (White − Black): a half at 0, towards 1 as White leads by `scale` and
 * more; kept between 3 % and 97 % so both colours show.
 * @param {number} margin @param {number} scale
 * @returns {number}
 */
export function evalShare(margin, scale) {
  const m = Number(margin);
  if (!Number.isFinite(m) || !(scale > 0)) return 0.5;
  const share = 0.5 + 0.5 * Math.tanh(m / scale);
  return Math.min(0.97, Math.max(0.03, share));
}
