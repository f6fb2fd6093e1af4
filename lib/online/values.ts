/**
 * Conversions from cell text (or JSON values) to usage values, each returning either the value or
 * what was expected — the reader turns that into a located issue.
 */
export type Converted<T> = { ok: true; value: T } | { ok: false; expected: string };

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A timestamp as epoch milliseconds. Accepted: ISO-8601 with a zone (`Z` or `±hh:mm`) — a
 * zone-less time is refused rather than guessed, since the hourly curve depends on it — or epoch
 * seconds / milliseconds (a number of at most 11 digits is seconds, otherwise milliseconds).
 */
export function toTimestamp(raw: unknown): Converted<number> {
  const expected = "an ISO-8601 timestamp with a zone (2026-05-25T09:30:00Z, …+02:00) or epoch seconds/milliseconds";
  if (typeof raw === "number") return Number.isFinite(raw) && raw >= 0 ? { ok: true, value: raw < 1e11 ? raw * 1000 : raw } : { ok: false, expected };
  if (typeof raw !== "string") return { ok: false, expected };
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    return { ok: true, value: text.split(".")[0]!.length <= 11 ? n * 1000 : n };
  }
  if (!ISO_WITH_ZONE.test(text)) return { ok: false, expected };
  const ms = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isFinite(ms) ? { ok: true, value: ms } : { ok: false, expected };
}

/** A token count: a whole number ≥ 0 (`1234`, `1234.0`); empty or absent gives `fallback` when there is one. */
export function toTokens(raw: unknown, fallback: number | undefined): Converted<number> {
  const expected = "a whole number of tokens ≥ 0";
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return fallback === undefined ? { ok: false, expected } : { ok: true, value: fallback };
  }
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*\d+(\.0*)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? { ok: true, value: n } : { ok: false, expected };
}

/** Optional text: empty or absent → undefined; numbers and booleans are written as text. */
export function toText(raw: unknown): Converted<string | undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (typeof raw === "string") return { ok: true, value: raw.trim() === "" ? undefined : raw.trim() };
  if (typeof raw === "number" || typeof raw === "boolean") return { ok: true, value: String(raw) };
  return { ok: false, expected: "text, a number or a boolean" };
}

/** The value at a dotted path of a JSON object (`usage.input_tokens`); a key containing dots is tried whole first. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  let current: unknown = record;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Cut to 60 characters for error messages. */
export function shortFound(raw: unknown): string {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw) ?? String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Keys with nested objects flattened to dotted paths (`usage.input_tokens`), as JSONL mappings name them. */
export function flatKeys(object: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(object).flatMap(([key, value]) =>
    value && typeof value === "object" && !Array.isArray(value) ? flatKeys(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
