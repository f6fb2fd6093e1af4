/**
 * The review core never reads the system time: leases, label dates and queue order take a clock,
 * so tests can step time to the millisecond and a server can pass `{ now: Date.now }`.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A clock that stands still at `ms` until `advance` moves it (tests, replays). */
export function manualClock(ms: number): Clock & { advance(by: number): void; set(to: number): void } {
  let current = ms;
  return {
    now: () => current,
    advance: (by) => void (current += by),
    set: (to) => void (current = to),
  };
}
