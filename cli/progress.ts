/**
 * Progress of a long command (`eval`, `push`) on stderr, so stdout keeps only the result. On a
 * terminal: one line redrawn in place at most every 100 ms — a bar, the count, the rate and the
 * time left. Elsewhere (a log file, CI): a plain line at each tenth of the run, and only when asked
 * (`--json` runs stay quiet apart from errors).
 */
export interface Progress {
  update(label: string, done: number, total: number): void;
  /** Prints a message without tearing the bar. */
  note(message: string): void;
  finish(): void;
}

interface Sink {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** `42s`, `3m05s`, `1h02m`: short enough for the end of a terminal line. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The rate since the first update and the time left at that rate; blank until something is done. */
function rateAndEta(done: number, total: number, elapsedMs: number): string {
  if (done === 0 || elapsedMs <= 0) return "";
  const perSecond = (done * 1000) / elapsedMs;
  const rate = perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(1);
  return ` ${rate}/s ETA ${formatEta((total - done) / perSecond)}`;
}

export function createProgress(sink: Sink, options: { lines: boolean; now?: () => number }): Progress {
  const now = options.now ?? Date.now;
  let drawn = false;
  let lastDraw = 0;
  let lastTenth = -1;
  let startedAt: number | undefined;
  const clear = () => {
    if (drawn) sink.write("\r\x1b[K");
    drawn = false;
  };
  return {
    update(label, done, total) {
      const t = now();
      startedAt ??= t;
      if (sink.isTTY) {
        if (done < total && drawn && t - lastDraw < 100) return;
        lastDraw = t;
        const width = Math.max(10, Math.min(40, (sink.columns ?? 80) - label.length - 45));
        const filled = total === 0 ? width : Math.round((width * done) / total);
        const pct = total === 0 ? 100 : Math.floor((100 * done) / total);
        const tail = done < total ? rateAndEta(done, total, t - startedAt) : "";
        sink.write(`\r\x1b[K${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${pct}%${tail}`);
        drawn = true;
      } else if (options.lines) {
        const tenth = total === 0 ? 10 : Math.floor((10 * done) / total);
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        sink.write(`${label}: ${done}/${total}\n`);
      }
    },
    note(message) {
      clear();
      sink.write(`${message}\n`);
    },
    finish() {
      clear();
      lastTenth = -1;
      startedAt = undefined;
    },
  };
}
