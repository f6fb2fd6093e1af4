const QUARTER = 15 * 60_000;
const HOUR = 60 * 60_000;

/** The rollout and volatile-window examples shown in empty report fields. */
export interface ExampleInstants {
  rollout: string;
  volatile: string;
}

/** What the fields show when the log has no known range: the shape, no date that could mislead. */
export const NEUTRAL_EXAMPLES: ExampleInstants = { rollout: "YYYY-MM-DDTHH:MM:00Z", volatile: "START/END, e.g. YYYY-MM-DDT18:00:00Z/YYYY-MM-DDT20:00:00Z" };

/**
 * Placeholders taken from the log's own time range (its first and last call, ISO-8601): a rollout
 * on the hour at the middle of the range and a two-hour volatile window from there, both on quarter hours as
 * the studio requires. An example from another log (the demo week) would read as a suggestion
 * that points outside this one; without a range the examples are neutral.
 */
export function exampleInstants(firstAt: string | null, lastAt: string | null): ExampleInstants {
  const first = firstAt === null ? Number.NaN : Date.parse(firstAt);
  const last = lastAt === null ? Number.NaN : Date.parse(lastAt);
  if (!Number.isFinite(first) || !Number.isFinite(last) || last < first) return NEUTRAL_EXAMPLES;
  const middle = first + (last - first) / 2;
  const hour = Math.floor(middle / HOUR) * HOUR;
  const start = hour >= Math.floor(first / QUARTER) * QUARTER ? hour : Math.floor(middle / QUARTER) * QUARTER;
  const end = Math.max(start + QUARTER, Math.min(start + 2 * HOUR, Math.ceil(last / QUARTER) * QUARTER));
  return { rollout: iso(start), volatile: `${iso(start)}/${iso(end)}` };
}

/** `2026-05-27T12:00:00Z`: what the fields accept, without milliseconds. */
function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
