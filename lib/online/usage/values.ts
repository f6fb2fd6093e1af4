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
  const fast = parseIsoFast(text);
  if (fast !== undefined) return Number.isFinite(fast) ? { ok: true, value: fast } : { ok: false, expected };
  if (!ISO_WITH_ZONE.test(text)) return { ok: false, expected };
  const ms = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isFinite(ms) ? { ok: true, value: ms } : { ok: false, expected };
}

/** Epoch ms of `YYYY-MM-DD[T ]HH:00:00<zone>`, per date-hour-zone key: a log's rows share a few thousand. */
const hourStarts = new Map<string, number>();
const HOUR_CACHE_LIMIT = 100_000;
let lastHour = { prefix: "", zone: "", start: Number.NaN };

const digit = (code: number) => code >= 48 && code <= 57;
const twoDigits = (text: string, i: number) => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;

/**
 * The common shape `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±hh:mm|±hhmm)`, parsed by hand: the hour's start
 * comes from `Date.parse` once per (date, hour, zone) and is cached; minutes, seconds and the first
 * three fraction digits are added (truncated, as `Date.parse` does). Gives exactly what the general
 * path gives — NaN for minutes or seconds ≥ 60 — and `undefined` for any other shape (hour 24,
 * no seconds, …), which the general path then reads.
 */
function parseIsoFast(text: string): number | undefined {
  const n = text.length;
  if (n < 20) return undefined;
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]) if (!digit(text.charCodeAt(i))) return undefined;
  const t = text.charCodeAt(10);
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (t !== 84 && t !== 116 && t !== 32) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58)
    return undefined;
  let i = 19;
  let fraction = 0;
  if (text.charCodeAt(i) === 46) {
    let scale = 100;
    i++;
    const start = i;
    while (i < n && digit(text.charCodeAt(i))) {
      if (scale >= 1) fraction += (text.charCodeAt(i) - 48) * scale;
      scale /= 10;
      i++;
    }
    if (i === start) return undefined;
  }
  const zone = text.slice(i);
  if (!(zone === "Z" || zone === "z" || /^[+-]\d{2}:?\d{2}$/.test(zone))) return undefined;
  if (twoDigits(text, 11) >= 24) return undefined;
  const minutes = twoDigits(text, 14);
  const seconds = twoDigits(text, 17);
  if (minutes >= 60 || seconds >= 60) return Number.NaN;
  // Logs are mostly in time order: the previous row's hour is the usual hit, with no key to build.
  if (zone === lastHour.zone && text.startsWith(lastHour.prefix)) return lastHour.start + minutes * 60_000 + seconds * 1000 + fraction;
  const key = `${text.slice(0, 10)}T${text.slice(11, 13)}${zone}`;
  let hour = hourStarts.get(key);
  if (hour === undefined) {
    hour = Date.parse(`${text.slice(0, 10)}T${text.slice(11, 13)}:00:00${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`);
    if (hourStarts.size >= HOUR_CACHE_LIMIT) hourStarts.clear();
    hourStarts.set(key, hour);
  }
  lastHour = { prefix: text.slice(0, 13), zone, start: hour };
  return hour + minutes * 60_000 + seconds * 1000 + fraction;
}

/** A token count: a whole number ≥ 0 (`1234`, `1234.0`); empty or absent gives `fallback` when there is one. */
export function toTokens(raw: unknown, fallback: number | undefined): Converted<number> {
  if (typeof raw === "string" && raw.length > 0 && raw.length <= 15 && isDigits(raw)) return { ok: true, value: Number(raw) };
  const expected = "a whole number of tokens ≥ 0";
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return fallback === undefined ? { ok: false, expected } : { ok: true, value: fallback };
  }
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*\d+(\.0*)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? { ok: true, value: n } : { ok: false, expected };
}

/** Only ASCII digits (the usual token cell: read without a regular expression). */
function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!digit(text.charCodeAt(i))) return false;
  return true;
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
  const text = typeof raw === "string" ? raw : (JSON.stringify(raw) ?? String(raw));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Keys with nested objects flattened to dotted paths (`usage.input_tokens`), as JSONL mappings name them. */
export function flatKeys(object: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(object).flatMap(([key, value]) =>
    value && typeof value === "object" && !Array.isArray(value) ? flatKeys(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
