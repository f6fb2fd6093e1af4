/**
 * Coalesces the rebuilds of long OTLP sessions in one studio process. A request that stored spans
 * for a session past TRACEFOLD_OTLP_SYNC_SPANS marks it dirty (in the database, with its spans) and
 * calls schedule(); each key then gets at most one rebuild running and one pending, and pauses
 * between rebuilds for max(interval, factor × the last rebuild's time). A session growing at a
 * steady rate is therefore rebuilt at lengths growing geometrically: its total rebuild work stays
 * linear in its final length, however many batches it arrived in, and a request never waits for it.
 * Rebuilds run `concurrency` at a time. A failed rebuild is logged and left to the sweep (the mark
 * stays in the database), which also picks up keys a stopped studio left marked.
 */
export interface RebuildSchedulerOptions {
  /** Rebuilds one key (throws on failure). */
  rebuild: (sessionKey: string) => Promise<unknown>;
  /** The least pause, ms, read at each pause (TRACEFOLD_OTLP_REBUILD_MS). */
  intervalMs: () => number;
  /** The pause is at least this many times the last rebuild's duration. */
  factor?: number;
  concurrency?: number;
  onError?: (sessionKey: string, error: unknown) => void;
}

export class OtlpRebuildScheduler {
  private readonly pending = new Map<string, { again: boolean }>();
  private readonly idleWaiters: (() => void)[] = [];
  private running = 0;
  private readonly slotWaiters: (() => void)[] = [];
  /** Rebuilds started (all keys), for the bench and tests. */
  rebuilds = 0;

  constructor(private readonly options: RebuildSchedulerOptions) {}

  /** Asks for a rebuild of each key after the pause; a key already waiting or rebuilding is rebuilt once more at most. */
  schedule(keys: Iterable<string>): void {
    for (const key of keys) {
      const state = this.pending.get(key);
      if (state) {
        state.again = true;
        continue;
      }
      const fresh = { again: true };
      this.pending.set(key, fresh);
      void this.run(key, fresh);
    }
  }

  /** Whether a key is waiting or rebuilding here. */
  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** Resolves once no key is waiting or rebuilding. */
  idle(): Promise<void> {
    return this.pending.size === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(key: string, state: { again: boolean }): Promise<void> {
    let pause = this.options.intervalMs();
    try {
      while (state.again) {
        await sleep(pause);
        await this.acquire();
        state.again = false;
        const started = performance.now();
        try {
          this.rebuilds++;
          await this.options.rebuild(key);
        } finally {
          this.release();
        }
        pause = Math.max(this.options.intervalMs(), (this.options.factor ?? 2) * (performance.now() - started));
      }
    } catch (error) {
      (this.options.onError ?? defaultOnError)(key, error);
    } finally {
      this.pending.delete(key);
      if (this.pending.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async acquire(): Promise<void> {
    while (this.running >= (this.options.concurrency ?? 1)) await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    this.running++;
  }

  private release(): void {
    this.running--;
    this.slotWaiters.shift()?.();
  }
}

function defaultOnError(sessionKey: string, error: unknown): void {
  console.error(`OTLP session ${sessionKey}: the rebuild failed, left to the sweep: ${error instanceof Error ? error.message : String(error)}`);
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
