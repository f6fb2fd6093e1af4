/** A local wall-clock reading of an instant in one time zone. */
export interface LocalTime {
  /** Local calendar date, `YYYY-MM-DD`. */
  date: string;
  /** Days since 1970-01-01 of the local date (a sortable integer key). */
  day: number;
  hour: number;
  /** Minutes since local midnight, 0..1439. */
  minuteOfDay: number;
}

const SLOT_MS = 15 * 60_000;

/**
 * Returns a function from epoch milliseconds to local wall-clock time in `timeZone` (an IANA name
 * such as `Europe/Paris`, or `UTC`). DST-safe because every reading comes from Intl, never from a
 * fixed offset: on the spring-forward day the skipped hour simply has no calls, on the fall-back
 * day the repeated hour's calls share one local hour bucket.
 *
 * Fast for millions of rows: Intl is asked once per 15-minute UTC slot (every zone offset in use
 * is a multiple of 15 minutes, so a slot never straddles a local minute boundary differently), and
 * the rest of the slot is arithmetic. Throws RangeError for an unknown zone.
 */
export function createLocalClock(timeZone: string): (ms: number) => LocalTime {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  const cache = new Map<number, LocalTime>();
  return (ms) => {
    const slot = Math.floor(ms / SLOT_MS);
    let start = cache.get(slot);
    if (!start) {
      start = readParts(format, slot * SLOT_MS);
      if (cache.size > 100_000) cache.clear();
      cache.set(slot, start);
    }
    const minuteOfDay = start.minuteOfDay + Math.floor((ms - slot * SLOT_MS) / 60_000);
    return { date: start.date, day: start.day, hour: Math.floor(minuteOfDay / 60), minuteOfDay };
  };
}

function readParts(format: Intl.DateTimeFormat, ms: number): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(ms)) parts[p.type] = p.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const hour = Number(parts.hour);
  return {
    date,
    day: Math.round(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / 86_400_000),
    hour,
    minuteOfDay: hour * 60 + Number(parts.minute),
  };
}

/** A daily window `[start, end)` in local minutes since midnight. */
export interface DailyWindow {
  startMinute: number;
  endMinute: number;
}

export const DEFAULT_WINDOW: DailyWindow = { startMinute: 8 * 60, endMinute: 22 * 60 };

/** Parses `HH:MM-HH:MM` (start inclusive, end exclusive, `24:00` allowed as an end; start before end). */
export function parseWindow(text: string): DailyWindow {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text.trim());
  const minutes = (h: string, mm: string) => Number(h) * 60 + Number(mm);
  if (!m || Number(m[2]) > 59 || Number(m[4]) > 59) throw new RangeError(`expected a window HH:MM-HH:MM such as 08:00-22:00, got ${JSON.stringify(text)}`);
  const startMinute = minutes(m[1]!, m[2]!);
  const endMinute = minutes(m[3]!, m[4]!);
  if (startMinute >= 24 * 60 || endMinute > 24 * 60 || startMinute >= endMinute)
    throw new RangeError(`window start must come before its end within one day (00:00-24:00), got ${JSON.stringify(text)}`);
  return { startMinute, endMinute };
}

/** `480` → `"08:00"`. */
export function formatMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** Checks an IANA zone name; throws RangeError with the name when Intl does not know it. */
export function checkTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}: expected an IANA name such as UTC or Europe/Paris`);
  }
}
