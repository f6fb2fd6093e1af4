/**
 * "Low-signal" tool output for the Tool-mask+prune baseline. Seed 000 says the baseline "first
 * masks low-signal tool spans" without defining them; Tracefold judges them by length and line
 * shape, the cues seed 000 gives for masking ("a failed command log may only need its boundary
 * hints"): an output is low-signal when it is very long, or long enough to matter and either
 * repetitive (many lines repeat once digits and hex are normalised — progress bars, polling, test
 * dots) or log-like (timestamps, level tags, installer and stack-trace lines). The thresholds are
 * Tracefold's own and exposed as policy parameters.
 */
export interface LowSignalThresholds {
  /** Below this many tokens an output is never masked: the mask would save almost nothing. */
  minTokens: number;
  /** At or above this many tokens an output is low-signal whatever its shape. */
  longTokens: number;
  /** Share of non-empty lines that repeat an earlier (normalised) line. */
  repeatShare: number;
  /** Share of non-empty lines that look like log lines. */
  logShare: number;
}

export const LOW_SIGNAL_DEFAULTS: LowSignalThresholds = { minTokens: 400, longTokens: 2_000, repeatShare: 0.3, logShare: 0.5 };

/** Share-based rules need this many non-empty lines to mean anything. */
export const MIN_LINES_FOR_SHAPE = 8;

const LOG_LINE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}|\[?\s*(?:TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|FATAL|CRITICAL)\b|(?:Collecting|Downloading|Installing|Building|Compiling|Requirement already satisfied|Successfully installed|npm (?:WARN|notice|ERR!)|added \d+ packages)|at \S+ \(|File ".+", line \d+|[.FEsx]{10,}|.*\b\d{1,3}%\s*(?:\||\[|$))/;

/** Why the output is low-signal, or undefined when it carries signal (or is too short to matter). */
export function lowSignalReason(text: string, tokens: number, t: LowSignalThresholds = LOW_SIGNAL_DEFAULTS): string | undefined {
  if (tokens < t.minTokens) return undefined;
  if (tokens >= t.longTokens) return `long output (${tokens} tokens ≥ ${t.longTokens})`;
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (lines.length < MIN_LINES_FOR_SHAPE) return undefined;
  const seen = new Set<string>();
  let repeated = 0;
  let logLike = 0;
  for (const line of lines) {
    const shape = line
      .replace(/0x[0-9a-f]+/gi, "0x#")
      .replace(/\d+/g, "#")
      .replace(/\s+/g, " ");
    if (seen.has(shape)) repeated++;
    else seen.add(shape);
    if (LOG_LINE.test(line)) logLike++;
  }
  const repeatShare = repeated / lines.length;
  if (repeatShare >= t.repeatShare) return `repetitive output (${pct(repeatShare)} of ${lines.length} lines repeat)`;
  const logShare = logLike / lines.length;
  if (logShare >= t.logShare) return `log-like output (${pct(logShare)} of ${lines.length} lines)`;
  return undefined;
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}
