// @ts-check
// The few DOM helpers of the page. Text goes in with textContent only:
// nothing the server or a FEN or PGN says is ever read as HTML.

/**
 * The element with `id` (the page has it).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error("the page has no #" + id);
  return e;
}

/**
 * A new element with a class and a text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} [cls] @param {string | number | null} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/**
 * Shows or hides an element (the `hidden` class).
 * @param {Element} e @param {boolean} shown
 */
export function show(e, shown) {
  e.classList.toggle("hidden", !shown);
}

/**
 * Whether a key press was meant for a field of a form (not the board).
 * @param {EventTarget | null} target
 */
export function typing(target) {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}
