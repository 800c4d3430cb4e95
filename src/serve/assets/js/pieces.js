// @ts-check
// Tally's own piece set: six drawings in a 100 × 100 box, each standing
// on a base at y 92 and reaching about y 8 (the king), so that a piece
// drawn over a whole square fills about 85 % of it. Every drawing is a
// few plain shapes: a body (filled with the piece's colour, outlined), and
// marks (lines or dots in the outline's colour on White, in a light grey
// on Black). Drawn for Tally, not traced from any other set.
//
// The shapes are data, so that a test can check them without a browser;
// `pieceSvg` builds the SVG element with DOM calls (no markup parsed).

/** @typedef {"k" | "q" | "r" | "b" | "n" | "p"} Role */
/** @typedef {"w" | "b"} Color */

/**
 * One shape: an SVG element name, its geometry, and what it is: `body`
 * (filled with the piece's colour and outlined), `line` (a stroke in the
 * marks' colour, no fill) or `dot` (filled with the marks' colour).
 * @typedef {{ tag: "path" | "circle" | "rect" | "ellipse", at: Record<string, number | string>, kind: "body" | "line" | "dot" }} Shape
 */

/** @type {Record<Role, string>} */
export const ROLE_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

/** @param {Shape["tag"]} tag @param {Record<string, number | string>} at @returns {Shape} */
const body = (tag, at) => ({ tag, at, kind: "body" });
/** @param {string} d @returns {Shape} */
const line = (d) => ({ tag: "path", at: { d }, kind: "line" });
/** @param {number} cx @param {number} cy @param {number} r @returns {Shape} */
const dot = (cx, cy, r) => ({ tag: "circle", at: { cx, cy, r }, kind: "dot" });
/** @param {number} x @param {number} w @param {number} y @param {number} h @returns {Shape} */
const slab = (x, w, y, h) => body("rect", { x, y, width: w, height: h, rx: Math.min(4, h / 2) });

/** The drawings, back to front. @type {Record<Role, Shape[]>} */
export const SHAPES = {
  p: [
    slab(23, 54, 81, 11),
    body("path", { d: "M33 81 C35 70 41 63 42 54 L58 54 C59 63 65 70 67 81 Z" }),
    slab(35, 30, 47, 9),
    body("circle", { cx: 50, cy: 33, r: 14 }),
  ],
  r: [
    slab(17, 66, 81, 11),
    slab(23, 54, 72, 10),
    body("path", { d: "M31 72 L34 40 L66 40 L69 72 Z" }),
    slab(26, 48, 33, 8),
    body("path", { d: "M26 33 L26 13 L36 13 L36 20 L45 20 L45 13 L55 13 L55 20 L64 20 L64 13 L74 13 L74 33 Z" }),
    line("M36 55 L64 55"),
  ],
  b: [
    slab(19, 62, 81, 11),
    body("path", { d: "M31 81 C38 76 44 75 50 69 C56 75 62 76 69 81 Z" }),
    slab(33, 34, 63, 9),
    body("path", { d: "M50 19 C34 31 28 45 36 63 L64 63 C72 45 66 31 50 19 Z" }),
    body("circle", { cx: 50, cy: 14, r: 6.5 }),
    line("M57 33 L47 47"),
  ],
  n: [
    slab(19, 64, 81, 11),
    body("path", {
      d:
        "M29 81 C29 71 35 64 43 57 C38 59 33 62 27 62 C21 62 17 58 17 54 " +
        "C17 50 21 45 24 40 C29 31 36 22 46 17 L50 7 L57 16 " +
        "C71 20 81 36 81 55 C81 66 79 74 78 81 Z",
    }),
    line("M62 24 C72 33 76 48 75 72"),
    line("M44 57 C48 52 52 48 54 42"),
    dot(40, 31, 3.6),
    dot(23, 52, 2.2),
  ],
  q: [
    slab(17, 66, 81, 11),
    slab(25, 50, 72, 10),
    body("path", { d: "M28 72 L14 33 L31 49 L33 25 L43 45 L50 19 L57 45 L67 25 L69 49 L86 33 L72 72 Z" }),
    body("circle", { cx: 14, cy: 31, r: 5 }),
    body("circle", { cx: 33, cy: 23, r: 5 }),
    body("circle", { cx: 50, cy: 15, r: 5.5 }),
    body("circle", { cx: 67, cy: 23, r: 5 }),
    body("circle", { cx: 86, cy: 31, r: 5 }),
    line("M30 64 Q50 57 70 64"),
  ],
  k: [
    slab(17, 66, 81, 11),
    slab(25, 50, 72, 10),
    body("path", { d: "M46 6 L54 6 L54 13 L61 13 L61 21 L54 21 L54 31 L46 31 L46 21 L39 21 L39 13 L46 13 Z" }),
    body("ellipse", { cx: 50, cy: 40, rx: 8, ry: 10 }),
    body("path", {
      d: "M28 72 C18 58 12 45 24 37 C35 31 44 38 50 48 C56 38 65 31 76 37 C88 45 82 58 72 72 Z",
    }),
    line("M30 64 Q50 57 70 64"),
    line("M50 50 L50 70"),
  ],
};

/** The colours of each side's pieces: body fill, outline, marks. */
export const COLOURS = {
  w: { fill: "#fbfaf6", stroke: "#1b1b1b", mark: "#1b1b1b" },
  b: { fill: "#2b2b2b", stroke: "#0c0c0c", mark: "#dcdcdc" },
};

/** The outline's width, in the box's units. */
export const STROKE = 3.2;

/**
 * The presentation attributes of one shape of a `color` piece.
 * @param {Shape} shape @param {Color} color
 * @returns {Record<string, string>}
 */
export function paint(shape, color) {
  const c = COLOURS[color];
  const common = { "stroke-linejoin": "round", "stroke-linecap": "round" };
  if (shape.kind === "body") return { ...common, fill: c.fill, stroke: c.stroke, "stroke-width": String(STROKE) };
  if (shape.kind === "line") return { ...common, fill: "none", stroke: c.mark, "stroke-width": String(STROKE) };
  return { fill: c.mark, stroke: "none" };
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The SVG element of a piece, built with DOM calls.
 * @param {Document} doc @param {Color} color @param {Role} role
 * @returns {SVGSVGElement}
 */
export function pieceSvg(doc, color, role) {
  const svg = /** @type {SVGSVGElement} */ (doc.createElementNS(SVG_NS, "svg"));
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  for (const shape of SHAPES[role]) {
    const e = doc.createElementNS(SVG_NS, shape.tag);
    for (const [k, v] of Object.entries(shape.at)) e.setAttribute(k, String(v));
    for (const [k, v] of Object.entries(paint(shape, color))) e.setAttribute(k, v);
    svg.appendChild(e);
  }
  return svg;
}

/**
 * The same drawing as SVG text (for a test or a file; the page uses
 * `pieceSvg`).
 * @param {Color} color @param {Role} role
 * @returns {string}
 */
export function pieceMarkup(color, role) {
  const shapes = SHAPES[role].map((shape) => {
    const attrs = { ...shape.at, ...paint(shape, color) };
    const text = Object.entries(attrs).map(([k, v]) => `${k}="${v}"`).join(" ");
    return `<${shape.tag} ${text}/>`;
  });
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 100">${shapes.join("")}</svg>`;
}
