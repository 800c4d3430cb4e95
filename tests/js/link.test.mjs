// Unit tests of link.js: a setup link's parameters and the setup posted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { handicapApplies, isSetupLink, readLink, setupRequest } from "../../src/serve/assets/js/link.js";

const DEFAULTS = {
  variant: "stylish", mode: "engine", side: "white", strength: "full", elo: 1400, timing: "movetime",
  movetime: 1000, base: 5, inc: 3, specials: true, chess960: false, fen: "",
};
const ALLOWED = { variants: ["chess", "stylish", "wacky"], minElo: 1000, maxElo: 2850 };
const read = (query) => readLink(new URLSearchParams(query), DEFAULTS, ALLOWED);

test("a link fills the setup in", () => {
  const { values, bad } = read("variant=wacky&side=black&movetime=300&clock=90+1&elo=1500&specials=on&chess960=on");
  assert.deepEqual(bad, []);
  assert.equal(values.variant, "wacky");
  assert.equal(values.side, "black");
  assert.equal(values.timing, "clock");
  assert.equal(values.base, 1.5);
  assert.equal(values.inc, 1);
  assert.equal(values.strength, "elo");
  assert.equal(values.elo, 1500);
  assert.ok(values.specials && values.chess960);
  assert.ok(isSetupLink(new URLSearchParams("fen=x")));
  assert.ok(!isSetupLink(new URLSearchParams("game=abc")));
});

test("special actions are off unless a link turns them on", () => {
  assert.equal(read("variant=chess").values.specials, false);
});

test("what a link cannot use is named with its value", () => {
  const { bad } = read("elo=abc&clock=fast&variant=nope&side=red&movetime=0");
  assert.deepEqual(bad, ["variant 'nope'", "side 'red'", "movetime '0'", "elo 'abc'", "clock 'fast'"]);
  // The server's shortest clock is a second.
  assert.deepEqual(read("clock=0.5").bad, ["clock '0.5'"]);
});

test("the setup posted", () => {
  const made = setupRequest({ ...DEFAULTS, timing: "clock", base: 1.5, inc: 2, fen: " 8/8 w - - 0 1 " });
  assert.deepEqual(made, {
    setup: { variant: "stylish", mode: "engine", specials: true, chess960: false, side: "white", clock_base: 90000, clock_inc: 2000, fen: "8/8 w - - 0 1" },
  });
  const people = setupRequest({ ...DEFAULTS, mode: "people", strength: "elo" });
  assert.equal(people.setup.side, undefined);
  assert.equal(people.setup.elo, 1400);
  assert.equal(people.setup.movetime, 1000);
  assert.ok("error" in setupRequest({ ...DEFAULTS, timing: "clock", base: 0 }));
  assert.ok("error" in setupRequest({ ...DEFAULTS, timing: "clock", base: 1, inc: -1 }));
});

const CONTEST = { ...DEFAULTS, contest: "one", games: 2, resignationEnds: null, chooser: "first" };

test("a contest from a link: its format, the resignation switch and the chooser", () => {
  const { values, bad } = readLink(new URLSearchParams("variant=stylish&mode=people&contest=series:2"), CONTEST, ALLOWED);
  assert.deepEqual(bad, []);
  assert.equal(values.contest, "series");
  assert.equal(values.games, 2);
  assert.equal(values.resignationEnds, null, "not given: as the variant says");
  const m = readLink(new URLSearchParams("contest=tiebreak-match:3&resignation_ends=on&chooser=none"), CONTEST, ALLOWED).values;
  assert.deepEqual([m.contest, m.games, m.resignationEnds, m.chooser], ["tiebreak-match", 3, true, "none"]);
  // Without a contest, one game; what cannot be used is named.
  assert.equal(readLink(new URLSearchParams("variant=chess"), { ...CONTEST, contest: "series" }, ALLOWED).values.contest, "one");
  const wrong = readLink(
    new URLSearchParams("contest=series:101&resignation_ends=maybe&chooser=third"),
    CONTEST,
    ALLOWED
  ).bad;
  assert.deepEqual(wrong, ["contest 'series:101'", "resignation_ends 'maybe'", "chooser 'third'"]);
  assert.deepEqual(readLink(new URLSearchParams("contest=tiebreak-match:97"), CONTEST, ALLOWED).bad, ["contest 'tiebreak-match:97'"]);
  assert.ok(isSetupLink(new URLSearchParams("contest=series:2")));
});

test("the contest posted", () => {
  const series = setupRequest({ ...CONTEST, mode: "people", contest: "series", games: 2, resignationEnds: true });
  assert.equal(series.setup.contest, "series:2");
  assert.equal(series.setup.resignation_ends, true);
  assert.equal(series.setup.chooser, undefined, "a chooser is for sets");
  // A tie-break match plays dynamic whatever the menu said.
  const match = setupRequest({ ...CONTEST, contest: "tiebreak-match", games: 4 });
  assert.deepEqual([match.setup.variant, match.setup.contest, "resignation_ends" in match.setup], ["dynamic", "tiebreak-match:4", false]);
  const sets = setupRequest({ ...CONTEST, variant: "sets", contest: "series", games: 3, resignationEnds: false, chooser: "second" });
  assert.deepEqual([sets.setup.contest, sets.setup.resignation_ends, sets.setup.chooser], ["series:3", false, "second"]);
  // One game: no contest field at all.
  assert.equal("contest" in setupRequest(CONTEST).setup, false);
  for (const games of [0, 101, 2.5, NaN]) {
    assert.ok("error" in setupRequest({ ...CONTEST, contest: "series", games }), String(games));
  }
  assert.ok("error" in setupRequest({ ...CONTEST, contest: "tiebreak-match", games: 97 }));
});

// Sets against Tally at a UCI_Elo, one game: where a handicap applies.
const SETS = { ...CONTEST, variant: "sets", strength: "elo", elo: 2000, rating: "1400" };

test("a sets handicap is posted where it applies, and only there", () => {
  assert.equal(setupRequest(SETS).setup.handicap, 1400);
  assert.equal(setupRequest({ ...SETS, rating: " 2600 " }).setup.handicap, 2600);
  assert.equal(setupRequest({ ...SETS, rating: "0" }).setup.handicap, 0);
  assert.equal(setupRequest({ ...SETS, rating: "4000" }).setup.handicap, 4000);
  // Empty (or never given): no handicap.
  assert.equal("handicap" in setupRequest({ ...SETS, rating: "" }).setup, false);
  assert.equal("handicap" in setupRequest({ ...SETS, rating: undefined }).setup, false);
  // Another variant, a game between people, Tally at full strength, a
  // contest: the field is hidden, and what it holds is not sent.
  for (const other of [
    { variant: "chess" },
    { mode: "people" },
    { strength: "full" },
    { contest: "series", games: 2 },
    { contest: "tiebreak-match", games: 2 },
  ]) {
    const made = setupRequest({ ...SETS, ...other });
    assert.ok("setup" in made, JSON.stringify(other));
    assert.equal("handicap" in made.setup, false, JSON.stringify(other));
  }
  assert.equal(handicapApplies(SETS), true);
  assert.equal(handicapApplies({ ...SETS, mode: "people" }), false);
});

test("a rating that is not a whole number from 0 to 4000 is an error", () => {
  for (const rating of ["-1", "4001", "1400.5", "abc", "?", "1e9"]) {
    const made = setupRequest({ ...SETS, rating });
    assert.ok("error" in made, rating);
    assert.match(made.error, /rating.*whole number from 0 to 4000/, rating);
  }
  // Where the handicap does not apply, the field is not read.
  assert.ok("setup" in setupRequest({ ...SETS, variant: "stylish", rating: "abc" }));
});

test("a link may carry the person's rating", () => {
  const { values, bad } = readLink(new URLSearchParams("variant=sets&elo=2000&rating=1400"), CONTEST, { ...ALLOWED, variants: ["sets"] });
  assert.deepEqual(bad, []);
  assert.deepEqual([values.variant, values.strength, values.elo, values.rating], ["sets", "elo", 2000, "1400"]);
  assert.equal(setupRequest(values).setup.handicap, 1400);
  assert.ok(isSetupLink(new URLSearchParams("rating=1400")));
  // Without one, none (whatever the form held before).
  assert.equal(readLink(new URLSearchParams("variant=sets"), SETS, ALLOWED).values.rating, "");
  const wrong = readLink(new URLSearchParams("rating=abc&elo=2000"), CONTEST, ALLOWED);
  assert.deepEqual(wrong.bad, ["rating 'abc'"]);
  assert.equal(wrong.values.rating, "");
  for (const r of ["-5", "4001", "1400.5", ""]) {
    assert.deepEqual(readLink(new URLSearchParams({ rating: r }), CONTEST, ALLOWED).bad, ["rating '" + r + "'"], r);
  }
});
