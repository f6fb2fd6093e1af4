import { z } from "zod";
import { parseAssignRule } from "@/lib/online/assignment/assign";
import { DEFAULT_PRICES, parsePrices } from "@/lib/rollout/billed-cost";
import { checkTimeZone, parseWindow } from "@/lib/online/assignment/local-time";
import { isSlotAligned, isWindowSlotAligned } from "@/lib/online/assignment/slots";

/** Runs a lib parser inside zod, turning its RangeError into the issue message. */
function parsed<T>(parse: (text: string) => T) {
  return (text: string, ctx: z.RefinementCtx): T => {
    try {
      return parse(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  };
}

const ZONED = /[zZ]|[+-]\d{2}:?\d{2}$/;

/** An ISO-8601 instant with a zone, on a quarter hour (stored slots are 15 minutes long). */
function quarterInstant(label: string) {
  return (text: string): number => {
    const ms = Date.parse(text);
    if (!ZONED.test(text) || !Number.isFinite(ms))
      throw new RangeError(`${label} must be an ISO-8601 instant with a zone (2026-05-29T18:00:00Z), got ${JSON.stringify(text)}`);
    if (!isSlotAligned(ms)) throw new RangeError(`${label} must fall on a quarter hour (:00, :15, :30, :45), got ${JSON.stringify(text)}`);
    return ms;
  };
}

const volatileWindow = (text: string) => {
  const [a, b] = text.split("/");
  if (!a || !b) throw new RangeError(`a volatile window takes START/END instants, got ${JSON.stringify(text)}`);
  const start = quarterInstant("a volatile window start")(a.trim());
  const end = quarterInstant("a volatile window end")(b.trim());
  if (end <= start) throw new RangeError(`a volatile window must end after it starts, got ${JSON.stringify(text)}`);
  return { start, end };
};

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean));

/**
 * The report's controls, as they travel in the page URL and the CSV route's query string (the same
 * spellings as `tracefold online`'s flags). Windows and instants must fall on quarter hours because
 * the studio stores 15-minute slots; finer cuts need the rows (the CLI).
 */
export const OnlineQuerySchema = z.object({
  /** Absent: the log's default (`defaultAssignRule`: its group column when it has one, else the e-mail pivot). */
  assign: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === "" ? undefined : parsed(parseAssignRule)(v.trim(), ctx))),
  window: z
    .string()
    .default("08:00-22:00")
    .transform(
      parsed((text) => {
        const window = parseWindow(text);
        if (!isWindowSlotAligned(window))
          throw new RangeError(`the window must start and end on quarter hours (08:00-22:00, 09:15-17:45), got ${JSON.stringify(text)}`);
        return window;
      }),
    ),
  tz: z.string().default("UTC").transform(parsed(checkTimeZone)),
  surface: list,
  volatile: list.transform((items, ctx) => items.map((item) => parsed(volatileWindow)(item, ctx))),
  rollout: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === "" ? undefined : parsed(quarterInstant("the rollout"))(v.trim(), ctx))),
  prices: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === "" ? DEFAULT_PRICES : parsed((t) => parsePrices(t))(v, ctx))),
});
export type OnlineQuery = z.output<typeof OnlineQuerySchema>;

/** URLSearchParams (or Next's searchParams object) → the raw object the schema reads, repeated keys as arrays. */
export function queryObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const entries =
    params instanceof URLSearchParams
      ? [...params.entries()]
      : Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, x] as const) : [[k, v] as const]));
  for (const [key, value] of entries) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
