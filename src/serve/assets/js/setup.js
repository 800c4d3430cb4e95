// @ts-check
// The New game view: the variant menu with readable names, the chosen
// variant's about line and rules card, the setup form (filled from a
// link's parameters, never started by one), and the games this server
// keeps, each with its date, players, result and id. A contest (a
// series, a tie-break match) is chosen here too: its games, whether a
// resignation ends it, and in sets who chose colour. A sets game against
// Tally at a UCI_Elo may be played with a handicap: the person's rating.

import { agree, maxGames, seatNames } from "./contest.js";
import { $, el, show } from "./dom.js";
import * as fmt from "./format.js";
import { handicapApplies, readLink, setupRequest } from "./link.js";
import { rulesCard } from "./rules.js";

/** @typedef {import("./types.js").Catalogue} Catalogue */
/** @typedef {import("./types.js").Summary} Summary */
/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./link.js").SetupValues} SetupValues */

export class SetupView {
  /**
   * @param {Catalogue} catalogue
   * @param {{ started: (state: GameState) => void, cancel: () => void }} hooks
   */
  constructor(catalogue, hooks) {
    this.catalogue = catalogue;
    this.hooks = hooks;
    this.form = /** @type {HTMLFormElement} */ ($("setup-form"));
    const select = this.select("variant");
    for (const v of catalogue.variants) {
      const o = el("option", "", fmt.variantName(v.id));
      o.value = v.id;
      select.appendChild(o);
    }
    select.value = catalogue.default_variant;
    /** @type {string | null} the variant whose default the resignation switch shows */
    this.resignFor = null;
    /** @type {string | null} the variant chosen before a tie-break match made it dynamic */
    this.variantBefore = null;
    const elo = this.input("elo");
    elo.min = String(catalogue.min_elo);
    elo.max = String(catalogue.max_elo);
    this.form.addEventListener("change", () => this.sync());
    // The contest's line names N as it is typed.
    this.form.addEventListener("input", (ev) => {
      if (ev.target === this.input("games")) this.sync();
    });
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.start();
    });
    $("setup-cancel").addEventListener("click", () => hooks.cancel());
    this.sync();
  }

  /** @param {string} name */
  input(name) {
    return /** @type {HTMLInputElement} */ (this.form.elements.namedItem(name));
  }

  /** @param {string} name */
  select(name) {
    return /** @type {HTMLSelectElement} */ (this.form.elements.namedItem(name));
  }

  /** The form's values. @returns {SetupValues} */
  values() {
    return {
      variant: this.select("variant").value,
      mode: this.select("mode").value === "people" ? "people" : "engine",
      side: this.select("side").value === "black" ? "black" : "white",
      strength: this.select("strength").value === "elo" ? "elo" : "full",
      elo: Number(this.input("elo").value),
      timing: this.select("timing").value === "clock" ? "clock" : "movetime",
      movetime: Number(this.input("movetime").value),
      base: Number(this.input("base").value),
      inc: Number(this.input("inc").value || 0),
      specials: this.input("specials").checked,
      chess960: this.input("chess960").checked,
      fen: this.input("fen").value,
      contest: contestKind(this.select("contest").value),
      games: Number(this.input("games").value),
      resignationEnds: this.input("resignation_ends").checked,
      chooser: chooserOf(this.select("chooser").value),
      rating: ratingText(this.input("rating")),
    };
  }

  /** @param {SetupValues} v */
  setValues(v) {
    this.select("variant").value = v.variant;
    this.select("mode").value = v.mode;
    this.select("side").value = v.side;
    this.select("strength").value = v.strength;
    this.input("elo").value = String(v.elo);
    this.select("timing").value = v.timing;
    this.input("movetime").value = String(v.movetime);
    this.input("base").value = String(v.base);
    this.input("inc").value = String(v.inc);
    this.input("specials").checked = v.specials;
    this.input("chess960").checked = v.chess960;
    this.input("fen").value = v.fen;
    this.select("contest").value = v.contest;
    this.input("games").value = String(v.games);
    this.select("chooser").value = v.chooser;
    this.input("rating").value = v.rating || "";
    this.variantBefore = null;
    this.sync();
    // Not given: as the variant says (sync set it).
    if (v.resignationEnds !== null) this.input("resignation_ends").checked = v.resignationEnds;
  }

  /** Shows the fields that apply, and the chosen variant's card. */
  sync() {
    const clock = this.select("timing").value === "clock";
    this.form.querySelectorAll(".timing-movetime").forEach((e) => show(e, !clock));
    this.form.querySelectorAll(".timing-clock").forEach((e) => show(e, clock));
    this.input("elo").disabled = this.select("strength").value !== "elo";
    this.select("side").disabled = this.select("mode").value === "people";
    this.syncContest();
    const handicap = handicapApplies(this.values());
    this.form.querySelectorAll(".handicap-only").forEach((e) => show(e, handicap));
    const info = this.catalogue.variants.find((v) => v.id === this.select("variant").value);
    if (!info) return;
    this.syncContestWords(info);
    $("setup-about").textContent = fmt.aboutText(info.card);
    $("specials-label").textContent = info.specials.length
      ? "special actions (" + info.specials.map((s) => s.action).join(", ") + ")"
      : "special actions (none in " + fmt.variantName(info.id) + ")";
    const box = $("setup-rules");
    if (box.firstElementChild?.getAttribute("data-rules") !== info.id) box.replaceChildren(rulesCard(info));
  }

  /**
   * The contest's fields: shown for a series or a match; a tie-break
   * match plays dynamic, so the variant follows (and comes back after).
   */
  syncContest() {
    const kind = contestKind(this.select("contest").value);
    const variant = this.select("variant");
    if (kind === "tiebreak-match") {
      if (variant.value !== "dynamic" && this.catalogue.variants.some((v) => v.id === "dynamic")) {
        this.variantBefore = variant.value;
        variant.value = "dynamic";
      }
    } else if (variant.disabled && this.variantBefore) {
      variant.value = this.variantBefore;
      this.variantBefore = null;
    }
    variant.disabled = kind === "tiebreak-match";
    this.form.querySelectorAll(".contest-only").forEach((e) => show(e, kind !== "one"));
    this.form.querySelectorAll(".chooser-only").forEach((e) => show(e, kind !== "one" && variant.value === "sets"));
    const games = this.input("games");
    games.max = String(maxGames(kind));
  }

  /**
   * The contest's words: the format, the resignation switch (its default
   * as the variant says, set again when the variant changes) and, in
   * sets, who chose colour with the players' names.
   * @param {import("./types.js").VariantInfo} info
   */
  syncContestWords(info) {
    const v = this.values();
    const noun = v.contest === "tiebreak-match" ? "match" : "series";
    const n = Number.isInteger(v.games) && v.games > 0 ? v.games : "N";
    $("contest-about").textContent =
      v.contest === "tiebreak-match"
        ? n + " games of Dynamic chess, colours alternating; if the sums are then level, games of Tiebraker (disk on) follow until one breaks the tie, at most 4. Points are summed by player, not by colour."
        : n + " games of " + fmt.variantName(info.id) + ", colours alternating (the first player is White in game 1); each player's points are summed over the games, and the larger sum wins.";
    const resign = this.input("resignation_ends");
    if (this.resignFor !== info.id) {
      resign.checked = info.resignation_loses;
      this.resignFor = info.id;
    }
    $("resign-label").textContent =
      "a resignation ends the " + noun + ": the resigner loses it whatever the points (" +
      (info.resignation_loses ? fmt.variantName(info.id) + "'s rule" : "off by default in " + fmt.variantName(info.id)) + ")";
    const [first, second] = seatNames(v.mode, v.side, v.strength === "elo" ? Math.round(v.elo) : null);
    const chooser = this.select("chooser");
    /** @type {Record<string, string>} */
    const words = {
      first: first + " (White in game 1) chose White: " + agree(second, "holds") + " the draw advantage",
      second: second + " chose Black: " + agree(first, "holds") + " the draw advantage",
      none: "nobody: no draw advantage",
    };
    for (const o of Array.from(chooser.options)) o.textContent = words[o.value] || o.value;
    $("chooser-about").textContent =
      "The player who did not choose colour holds the draw advantage (a plain draw's 1/2) in every game of the " + noun +
      ", whatever colour they have in it.";
  }

  /**
   * Shows the view with an error (red) or a note.
   * @param {string} [error] @param {string} [note]
   */
  show(error, note) {
    $("setup-error").textContent = error || "";
    $("setup-note").textContent = note || "";
    this.sync();
    this.list();
  }

  /**
   * Fills the form from a link's parameters; the game starts when the
   * person presses Start (a link from another site cannot set Tally
   * thinking).
   * @param {URLSearchParams} q
   */
  fromLink(q) {
    const { values, bad } = readLink(q, this.values(), {
      variants: this.catalogue.variants.map((v) => v.id),
      minElo: this.catalogue.min_elo,
      maxElo: this.catalogue.max_elo,
    });
    this.setValues(values);
    if (bad.length) this.show("the link's " + bad.join(", ") + " could not be used");
    else this.show("", "Set up from the link: press Start to play.");
  }

  async start() {
    const made = setupRequest(this.values());
    if ("error" in made) {
      this.show(made.error);
      return;
    }
    const submit = /** @type {HTMLButtonElement} */ (this.form.querySelector('button[type="submit"]'));
    submit.disabled = true;
    try {
      const r = await fetch("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(made.setup),
      });
      const body = await r.json().catch(() => ({ error: "the server sent no answer" }));
      if (!r.ok) {
        // The error alone: the link's note no longer applies.
        this.show(body.error || "the game could not start");
        return;
      }
      $("setup-note").textContent = "";
      this.hooks.started(/** @type {GameState} */ (body));
    } catch (e) {
      this.show("the server cannot be reached");
    } finally {
      submit.disabled = false;
    }
  }

  /** The games this server keeps, newest first. */
  async list() {
    const box = $("saved-list");
    /** @type {Summary[]} */
    let games;
    try {
      const r = await fetch("/api/games");
      games = await r.json();
    } catch (e) {
      return;
    }
    box.replaceChildren();
    if (!Array.isArray(games) || games.length === 0) {
      box.appendChild(el("p", "muted", "none yet"));
      return;
    }
    const table = el("table", "games");
    const head = el("tr");
    for (const h of ["date", "variant", "White", "Black", "result", "game"]) head.appendChild(el("th", "", h));
    const thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    const body = el("tbody");
    for (const g of games.slice(0, 50)) {
      const tr = el("tr");
      tr.setAttribute("data-game", g.id);
      tr.appendChild(el("td", "date", fmt.dateText(g.created_ms)));
      tr.appendChild(el("td", "", fmt.variantName(g.variant)));
      tr.appendChild(el("td", "", g.white));
      tr.appendChild(el("td", "", g.black));
      tr.appendChild(
        el("td", "", g.status === "over" ? g.result || "over" : "playing, " + g.plies + (g.plies === 1 ? " ply" : " plies"))
      );
      const cell = el("td", "id");
      const a = el("a", "", g.id);
      a.href = "/?game=" + encodeURIComponent(g.id);
      cell.appendChild(a);
      tr.appendChild(cell);
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
  }
}

/**
 * @param {string} value
 * @returns {import("./contest.js").ContestKind}
 */
function contestKind(value) {
  return value === "series" || value === "tiebreak-match" ? value : "one";
}

/**
 * The rating field's text; a number input that cannot read what was
 * typed has an empty value, so that is kept apart from "no rating".
 * @param {HTMLInputElement} input
 */
function ratingText(input) {
  return input.validity.badInput ? "?" : input.value;
}

/**
 * @param {string} value
 * @returns {"first" | "second" | "none"}
 */
function chooserOf(value) {
  return value === "second" || value === "none" ? value : "first";
}
