// @ts-check
// The New game view: the variant menu with readable names, the chosen
// variant's about line and rules card, the setup form (filled from a
// link's parameters, never started by one), and the games this server
// keeps, each with its date, players, result and id.

import { $, el, show } from "./dom.js";
import * as fmt from "./format.js";
import { readLink, setupRequest } from "./link.js";
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
    const elo = this.input("elo");
    elo.min = String(catalogue.min_elo);
    elo.max = String(catalogue.max_elo);
    this.form.addEventListener("change", () => this.sync());
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
    this.sync();
  }

  /** Shows the fields that apply, and the chosen variant's card. */
  sync() {
    const clock = this.select("timing").value === "clock";
    this.form.querySelectorAll(".timing-movetime").forEach((e) => show(e, !clock));
    this.form.querySelectorAll(".timing-clock").forEach((e) => show(e, clock));
    this.input("elo").disabled = this.select("strength").value !== "elo";
    this.select("side").disabled = this.select("mode").value === "people";
    const info = this.catalogue.variants.find((v) => v.id === this.select("variant").value);
    if (!info) return;
    $("setup-about").textContent = fmt.aboutText(info.card);
    $("specials-label").textContent = info.specials.length
      ? "special actions (" + info.specials.map((s) => s.action).join(", ") + ")"
      : "special actions (none in " + fmt.variantName(info.id) + ")";
    const box = $("setup-rules");
    if (box.firstElementChild?.getAttribute("data-rules") !== info.id) box.replaceChildren(rulesCard(info));
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
