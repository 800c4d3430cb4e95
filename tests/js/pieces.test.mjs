// Unit tests of pieces.js: the project's piece set is whole, inside its
// box and about 85 % of a square tall.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COLOURS, ROLE_NAMES, SHAPES, paint, pieceMarkup } from "../../src/serve/assets/js/pieces.js";

/** Every number of a shape's geometry, with the box it spans. */
function extent(shapes) {
  let top = Infinity, bottom = -Infinity, left = Infinity, right = -Infinity;
  const see = (x, y) => {
    top = Math.min(top, y); bottom = Math.max(bottom, y);
    left = Math.min(left, x); right = Math.max(right, x);
  };
  for (const s of shapes) {
    const a = s.at;
    if (s.tag === "rect") { see(a.x, a.y); see(a.x + a.width, a.y + a.height); }
    else if (s.tag === "circle") { see(a.cx - a.r, a.cy - a.r); see(a.cx + a.r, a.cy + a.r); }
    else if (s.tag === "ellipse") { see(a.cx - a.rx, a.cy - a.ry); see(a.cx + a.rx, a.cy + a.ry); }
    else {
      const nums = String(a.d).match(/-?\d+(\.\d+)?/g).map(Number);
      for (let i = 0; i + 1 < nums.length; i += 2) see(nums[i], nums[i + 1]);
    }
  }
  return { top, bottom, left, right };
}

test("six roles, each with a body, inside the 100 × 100 box", () => {
  assert.deepEqual(Object.keys(SHAPES).sort(), ["b", "k", "n", "p", "q", "r"]);
  for (const [role, shapes] of Object.entries(SHAPES)) {
    assert.ok(ROLE_NAMES[role], role);
    assert.ok(shapes.some((s) => s.kind === "body"), role);
    const e = extent(shapes);
    assert.ok(e.left >= 2 && e.right <= 98 && e.top >= 2 && e.bottom <= 98, role + " " + JSON.stringify(e));
  }
});

test("the tallest piece fills about 85 % of a square, all on one base line", () => {
  const heights = Object.values(SHAPES).map((s) => extent(s));
  const tallest = Math.max(...heights.map((e) => e.bottom - e.top));
  assert.ok(tallest >= 82 && tallest <= 90, String(tallest));
  for (const e of heights) assert.equal(e.bottom, 92);
});

test("both colours paint every shape, marks in a contrasting colour", () => {
  assert.notEqual(COLOURS.w.fill, COLOURS.b.fill);
  assert.notEqual(COLOURS.b.fill, COLOURS.b.mark);
  for (const shapes of Object.values(SHAPES)) {
    for (const s of shapes) {
      for (const c of ["w", "b"]) {
        const p = paint(s, c);
        assert.ok(p.fill, JSON.stringify(s));
      }
    }
  }
  const svg = pieceMarkup("b", "n");
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 100 100">/);
  assert.equal((svg.match(/<path|<circle|<rect|<ellipse/g) || []).length, SHAPES.n.length);
});
