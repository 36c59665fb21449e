// The UI's sources never turn a string into markup: model-provided text stays text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const ASSETS = new URL("../../assets/", import.meta.url).pathname;

test("no asset parses strings as HTML or evaluates code", () => {
  const sinks = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|eval|new Function|setHTMLUnsafe)\b/;
  for (const file of readdirSync(ASSETS).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(ASSETS + file, "utf8");
    const lines = source.split("\n").filter((line) => sinks.test(line) && !line.trim().startsWith("//"));
    assert.deepStrictEqual(lines, [], file);
  }
});

test("the page loads no script from another origin and has no inline script", () => {
  const page = readFileSync(ASSETS + "index.html", "utf8");
  assert.doesNotMatch(page, /(src|href)="(https?:)?\/\//);
  assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
});
