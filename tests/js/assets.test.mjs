// The page's files as the server serves them: every module under
// assets/js is in the asset table of src/serve/assets.rs, every import
// names one of them, every module is type-checked (// @ts-check), and
// nothing writes HTML from data or styles an element inline (the
// Content-Security-Policy allows neither).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ASSETS = path.join(ROOT, "src", "serve", "assets");
const table = fs.readFileSync(path.join(ROOT, "src", "serve", "assets.rs"), "utf8");
const listed = [...table.matchAll(/"([^"]+)" => (JS|CSS)/g)].map((m) => m[1]);
const modules = fs.readdirSync(path.join(ASSETS, "js")).filter((f) => f.endsWith(".js"));

test("every module is served, and every import is a served module", () => {
  for (const m of modules) assert.ok(listed.includes("js/" + m), "js/" + m + " is not in assets.rs");
  for (const l of listed) assert.ok(fs.existsSync(path.join(ASSETS, l)), l + " is listed but absent");
  for (const m of modules) {
    const text = fs.readFileSync(path.join(ASSETS, "js", m), "utf8");
    for (const [, spec] of text.matchAll(/(?:^|\n)\s*(?:import|export)[^"'\n]*from\s+["']([^"']+)["']/g)) {
      assert.match(spec, /^\.\/[a-z0-9-]+\.js$/, m + " imports " + spec);
      assert.ok(modules.includes(spec.slice(2)), m + " imports " + spec);
    }
  }
});

test("every module is checked, and none writes markup or inline style", () => {
  for (const m of modules) {
    const text = fs.readFileSync(path.join(ASSETS, "js", m), "utf8");
    assert.ok(text.startsWith("// @ts-check"), m);
    assert.ok(!/innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(text), m + " writes markup");
    assert.ok(!/setAttribute\(\s*["']style["']/.test(text), m + " sets a style attribute");
  }
  const html = fs.readFileSync(path.join(ASSETS, "index.html"), "utf8");
  assert.ok(!/\sstyle=/.test(html), "index.html has an inline style");
  assert.ok(!/<script(?![^>]*\ssrc=)/.test(html), "index.html has an inline script");
  assert.match(html, /<script type="module" src="\/assets\/js\/main.js"><\/script>/);
});
