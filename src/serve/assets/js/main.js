// @ts-check
// Tally's browser app: play and analyse every variant with the points in
// view. This module starts it: it reads the catalogue of variants, makes
// the three views (New game, the game, Analyse), and follows the address:
// `/?game=ID` opens a game, `/?view=analyse` the analyse view, a link
// with setup parameters fills New game in, and anything else shows New
// game.
//
// Everything the server sends is data: it is written with textContent
// only, never as HTML.

import { AnalyseView } from "./analyse.js";
import { $, show } from "./dom.js";
import { isSetupLink } from "./link.js";
import { PlayView } from "./play.js";
import { SetupView } from "./setup.js";
import * as sound from "./sound.js";

/** @typedef {import("./types.js").Catalogue} Catalogue */
/** @typedef {import("./types.js").GameState} GameState */

/** @param {"setup" | "play" | "analyse"} name */
function showView(name) {
  show($("view-setup"), name === "setup");
  show($("view-play"), name === "play");
  show($("view-analyse"), name === "analyse");
  $("tab-new").classList.toggle("active", name === "setup");
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-analyse").classList.toggle("active", name === "analyse");
}

async function start() {
  /** @type {Catalogue} */
  let catalogue;
  try {
    const r = await fetch("/api/variants");
    catalogue = await r.json();
  } catch (e) {
    document.body.textContent = "Tally's server cannot be reached; reload the page to try again.";
    return;
  }

  /** @param {GameState} state */
  const gameUrl = (state) => "/?game=" + encodeURIComponent(state.id);

  const analyse = new AnalyseView(catalogue);
  const play = new PlayView(catalogue, {
    analyse: (state) => {
      showView("analyse");
      analyse.show();
      analyse.fromGame(state);
    },
    opened: (state) => {
      history.pushState(null, "", gameUrl(state));
      showView("play");
    },
  });
  const setup = new SetupView(catalogue, {
    started: (state) => {
      history.replaceState(null, "", gameUrl(state));
      play.load(state);
      showView("play");
      /** @type {HTMLButtonElement} */ ($("tab-play")).disabled = false;
    },
    cancel: () => {
      if (play.state) showView("play");
    },
  });

  const playTab = /** @type {HTMLButtonElement} */ ($("tab-play"));
  playTab.addEventListener("click", () => {
    if (play.state) showView("play");
  });
  $("tab-analyse").addEventListener("click", () => {
    showView("analyse");
    analyse.show();
  });
  $("tab-new").addEventListener("click", () => {
    setup.show();
    showView("setup");
  });
  $("analyse-from-game").addEventListener("click", () => {
    if (play.state) analyse.fromGame(play.state);
    else $("aerror").textContent = "no game is open: start one in New game";
  });
  const soundBox = /** @type {HTMLInputElement} */ ($("sound-on"));
  soundBox.checked = sound.soundOn();
  soundBox.addEventListener("change", () => sound.setSound(soundBox.checked));

  /** Shows what the address names. */
  async function route() {
    const q = new URLSearchParams(location.search);
    const id = q.get("game");
    if (id) {
      const why = await play.open(id);
      if (why === null) {
        showView("play");
        playTab.disabled = false;
        return;
      }
      playTab.disabled = !play.state;
      setup.show(why);
      showView("setup");
      return;
    }
    playTab.disabled = !play.state;
    if (q.get("view") === "analyse") {
      showView("analyse");
      analyse.show();
      return;
    }
    if (isSetupLink(q)) setup.fromLink(q);
    else setup.show();
    showView("setup");
  }
  window.addEventListener("popstate", () => route());
  await route();
}

start();
