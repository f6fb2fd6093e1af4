/**
 * The one way the studio writes a date and time: `2026-05-29 18:04 UTC` (with `seconds`,
 * `2026-05-29 18:04:09 UTC`). Always in UTC and always naming the zone, so a time reads the same
 * on every page, for every viewer, and in the server's HTML and the browser's (no hydration
 * mismatch, no guessing which zone a bare time is in).
 *
 * Accepts a Date, epoch milliseconds or an ISO-8601 string. A string date-time that carries no
 * zone (Aider writes its local wall-clock time, `2024-08-05T19:33:51`) cannot be placed in UTC:
 * it is shown as written with `(no zone)` rather than silently read in some machine's zone.
 * Anything unparsable is returned as given.
 */
export function formatDateTime(value: Date | number | string, options: { seconds?: boolean } = {}): string {
  const length = options.seconds ? 19 : 16;
  if (typeof value === "string") {
    const bare = ZONELESS.exec(value.trim());
    if (bare) return `${`${bare[1]} ${bare[2]}`.slice(0, length)} (no zone)`;
  }
  const ms = instantOf(value);
  if (ms === null) return String(value);
  return `${new Date(ms).toISOString().slice(0, length).replace("T", " ")} UTC`;
}

/** `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]` with nothing after it: a wall-clock time without a zone. */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/;

/**
 * Epoch milliseconds of a date for ordering (a sortable column), `null` when it has none. A
 * zone-less date-time is read as UTC here: only its order among others matters, never its zone.
 */
export function instantOf(value: Date | number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  const text = value.trim();
  const bare = ZONELESS.exec(text);
  const ms = Date.parse(bare ? `${bare[1]}T${bare[2]}Z` : text);
  return Number.isFinite(ms) ? ms : null;
}
