// A tiny element builder. Text is only ever set as text nodes or attributes, never parsed as
// HTML: model-provided strings (reasons, tool input and output) cannot become markup.

const PROPERTIES = new Set(["checked", "disabled", "hidden", "open", "value"]);

/**
 * Creates an element. `props` sets `class`, `dataset`, event listeners (`onClick`), the
 * boolean/value properties (`checked`, `disabled`, `hidden`, `open`, `value`) and any other
 * attribute; `children` are nodes or strings (appended as text), null and false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (PROPERTIES.has(key)) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Appends nodes and strings (as text) to `el`. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}
