// Unit tests of socket.js's reconnection waits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { backoff, MAX_TRIES } from "../../src/serve/assets/js/socket.js";

test("reconnection waits grow from a quarter second to four seconds", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map(backoff), [250, 500, 1000, 2000, 4000, 4000, 4000]);
  assert.equal(backoff(0), 250);
  assert.ok(MAX_TRIES >= 8);
});
