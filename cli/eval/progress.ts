/**
 * Progress of `tracefold eval` on stderr, so stdout keeps only the result. On a terminal: one bar
 * redrawn in place at most every 100 ms. Elsewhere (a log file, CI): a line at each tenth of the
 * run, and only when asked (`--json` runs stay quiet apart from errors).
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

export function createProgress(sink: Sink, options: { lines: boolean; now?: () => number }): Progress {
  const now = options.now ?? Date.now;
  let drawn = false;
  let lastDraw = 0;
  let lastTenth = -1;
  const clear = () => {
    if (drawn) sink.write("\r\x1b[K");
    drawn = false;
  };
  return {
    update(label, done, total) {
      if (sink.isTTY) {
        const t = now();
        if (done < total && t - lastDraw < 100) return;
        lastDraw = t;
        const width = Math.max(10, Math.min(40, (sink.columns ?? 80) - label.length - 30));
        const filled = total === 0 ? width : Math.round((width * done) / total);
        const pct = total === 0 ? 100 : Math.floor((100 * done) / total);
        sink.write(`\r\x1b[K${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${pct}%`);
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
    },
  };
}
