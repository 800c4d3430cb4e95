// @ts-check
// A variant's rules card: what it pays, from the server's catalogue (the
// tables the referee scores with, so a rules file changes it too), its
// special actions with what each does, and its resignation rule. The
// card's root carries `data-rules="VARIANT"`.

import { el } from "./dom.js";
import { aboutText, keyText, variantName } from "./format.js";

/** @typedef {import("./types.js").VariantInfo} VariantInfo */

/**
 * The rules card of a variant.
 * @param {VariantInfo} info
 * @returns {HTMLElement}
 */
export function rulesCard(info) {
  const card = el("section", "rules-card");
  card.setAttribute("data-rules", info.id);
  card.appendChild(el("h3", "", "How " + variantName(info.id) + " scores"));
  card.appendChild(el("p", "about", aboutText(info.card)));
  const table = el("table", "rules-table");
  const body = el("tbody");
  for (const line of info.card.lines) {
    const tr = el("tr");
    tr.appendChild(el("th", "key", keyText(line.key)));
    tr.appendChild(el("td", "value", line.value));
    tr.appendChild(el("td", "pays", line.pays));
    body.appendChild(tr);
  }
  table.appendChild(body);
  card.appendChild(table);
  if (info.specials.length) {
    card.appendChild(el("h4", "", "Special actions"));
    const list = el("ul", "specials-help");
    for (const s of info.specials) {
      const li = el("li");
      li.appendChild(el("b", "", s.action));
      li.appendChild(document.createTextNode(": " + s.help));
      list.appendChild(li);
    }
    card.appendChild(list);
  }
  card.appendChild(
    el(
      "p",
      "resign-rule",
      info.resignation_loses
        ? "A resignation or a loss on time loses the game whatever the points."
        : "A resignation or a loss on time is scored by the rules above; the larger total wins."
    )
  );
  return card;
}
