/**
 * Tool-call arguments are usually a JSON object whose string values hold whole files or commands
 * (`{"file_path":"…","content":"defmodule …\n  use …"}`); as JSON they read as one escaped line.
 * This renders such an object as `key: value` lines, multi-line strings as indented blocks:
 *
 *   file_path: /srv/app/lib/live.ex
 *   content: |
 *     defmodule …
 *
 * It tolerates a preview cut mid-value (`complete: false`): what was read is shown, ending in "…".
 * Anything that is not a JSON object comes back undefined and is shown raw.
 */
export function formatArguments(raw: string, complete: boolean): string | undefined {
  const fields = complete ? parseComplete(raw) : parsePrefix(raw);
  if (!fields || fields.length === 0) return undefined;
  return fields
    .map(({ key, value, isString, cut }) => {
      const ellipsis = cut ? "…" : "";
      if (!isString) return `${key}: ${value}${ellipsis}`;
      if (!value.includes("\n")) return `${key}: ${value}${ellipsis}`;
      return `${key}: |\n${value.replace(/\n$/, "").replace(/^/gm, "  ")}${ellipsis}`;
    })
    .join("\n");
}

interface Field {
  key: string;
  value: string;
  isString: boolean;
  /** True when the preview ended inside this value. */
  cut: boolean;
}

function parseComplete(raw: string): Field[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  return Object.entries(value).map(([key, v]) =>
    typeof v === "string" ? { key, value: v, isString: true, cut: false } : { key, value: compactJson(v), isString: false, cut: false },
  );
}

/** Short values on one line; long objects and arrays indented. */
function compactJson(value: unknown): string {
  const flat = JSON.stringify(value) ?? String(value);
  return flat.length <= 100 ? flat : JSON.stringify(value, null, 2);
}

/** Reads `{"k": v, …` up to where the text ends; undefined on anything that is not such a prefix. */
function parsePrefix(raw: string): Field[] | undefined {
  const fields: Field[] = [];
  let i = skipSpace(raw, 0);
  if (raw[i] !== "{") return undefined;
  i++;
  for (;;) {
    i = skipSpace(raw, i);
    if (i >= raw.length || raw[i] === "}") return fields;
    const key = readString(raw, i);
    if (!key || !key.complete) return fields;
    i = skipSpace(raw, key.end);
    if (i >= raw.length) return fields;
    if (raw[i] !== ":") return undefined;
    i = skipSpace(raw, i + 1);
    if (i >= raw.length) return fields;
    if (raw[i] === '"') {
      const value = readString(raw, i);
      if (!value) return undefined;
      fields.push({ key: key.value, value: value.value, isString: true, cut: !value.complete });
      if (!value.complete) return fields;
      i = value.end;
    } else {
      const end = scanValue(raw, i);
      fields.push({ key: key.value, value: raw.slice(i, end).trim(), isString: false, cut: end >= raw.length });
      if (end >= raw.length) return fields;
      i = end;
    }
    i = skipSpace(raw, i);
    if (raw[i] === ",") i++;
    else if (raw[i] === "}" || i >= raw.length) return fields;
    else return undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** A JSON string starting at `start` (a quote); when the text ends first, what was read so far. */
function readString(text: string, start: number): { value: string; end: number; complete: boolean } | undefined {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') return decode(text.slice(start + 1, i), i + 1, true);
    else i++;
  }
  // Cut inside the string: drop a trailing partial escape (`\`, `\u12`) before decoding.
  const body = text.slice(start + 1).replace(/\\(u[0-9a-fA-F]{0,3})?$/, "");
  return decode(body, text.length, false);
}

function decode(body: string, end: number, complete: boolean): { value: string; end: number; complete: boolean } | undefined {
  try {
    return { value: JSON.parse(`"${body}"`) as string, end, complete };
  } catch {
    return undefined;
  }
}

/** End of a non-string JSON value (number, literal, object, array) starting at `start`. */
function scanValue(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const s = readString(text, i);
      if (!s || !s.complete) return text.length;
      i = s.end;
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "," && depth === 0) return i;
    i++;
  }
  return text.length;
}
