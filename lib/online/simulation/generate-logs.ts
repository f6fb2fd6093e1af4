import { Rng } from "../../scenario/prng";
import { assignByEmailPivot, assignByHash, type AssignRule } from "../assignment/assign";
import { createLocalClock } from "../assignment/local-time";
import type { UsageRow } from "../usage/schema";

export interface GenerateLogsOptions {
  seed: number;
  accounts: number;
  days: number;
  /** First day, UTC midnight (`2026-05-25`). */
  start: string;
  /** Zone of the diurnal pattern (people work in local time). */
  timeZone?: string;
  /** The true reduction applied to treatment prompts, in percent (seed 000 reports 10–15%). */
  trueReductionPct: number;
  /** How accounts are split; the e-mail pivot by default (letters are drawn independently of volume). */
  rule?: AssignRule;
  /** Mean calls per account per day before the heavy-tailed account multiplier (default 30). */
  callsPerAccountDay?: number;
  /** Lognormal σ of per-account volume (default 1.2: a few accounts carry much of the traffic). */
  volumeSigma?: number;
  /** Median prompt size (default 18,000 tokens) and the lognormal σ between accounts (default 0.8). */
  medianInputTokens?: number;
  accountSizeSigma?: number;
  /** Days before the rollout (no reduction yet), for difference-in-differences (default 0). */
  preDays?: number;
}

/**
 * Synthetic usage logs with a known true reduction, for tests, benchmarks and the studio's demo.
 * Heavy tails on purpose: per-account volume and prompt size are lognormal, per-call sizes vary
 * around the account's, and there is a diurnal rhythm in both volume and prompt size — the
 * conditions under which a call-level interval is too narrow and the account-clustered one is not.
 * Treatment prompts are multiplied by (1 − r), so the population ratio of means is exactly 1 − r.
 * Rows come out hour by hour (sorted within an hour): streaming, bounded memory.
 */
export function* generateUsageLogs(options: GenerateLogsOptions): Generator<UsageRow> {
  const rng = new Rng(options.seed);
  const rule = options.rule ?? { kind: "email-pivot", pivot: "o" };
  const clock = createLocalClock(options.timeZone ?? "UTC");
  const r = options.trueReductionPct / 100;
  const accounts = Array.from({ length: options.accounts }, (_, i) => {
    const email = `${randomLocalPart(rng)}${i}@example.com`;
    const group =
      rule.kind === "hash" ? assignByHash(email, rule.salt, rule.treatmentShare) : assignByEmailPivot(email, rule.kind === "email-pivot" ? rule.pivot : "o")!;
    return {
      email,
      group,
      rate: ((options.callsPerAccountDay ?? 30) * lognormal(rng, 0, options.volumeSigma ?? 1.2)) / Math.exp((options.volumeSigma ?? 1.2) ** 2 / 2),
      size: (options.medianInputTokens ?? 18_000) * lognormal(rng, 0, options.accountSizeSigma ?? 0.8),
      cacheShare: 0.5 + 0.4 * rng.next(),
      surface: rng.chance(0.7) ? "context-gc" : "skill-gc",
    };
  });
  const start = Date.parse(`${options.start}T00:00:00Z`);
  const preEnd = start + (options.preDays ?? 0) * 86_400_000;
  for (let h = 0; h < options.days * 24; h++) {
    const hourStart = start + h * 3_600_000;
    const local = clock(hourStart).hour;
    const rows: UsageRow[] = [];
    for (const a of accounts) {
      const n = poisson(rng, (a.rate / 24) * DIURNAL[local]!);
      for (let c = 0; c < n; c++) {
        const timestamp = hourStart + Math.floor(rng.next() * 3_600_000);
        const factor = a.group === "treatment" && timestamp >= preEnd ? 1 - r : 1;
        const input = Math.max(1, Math.round(a.size * SIZE_BY_HOUR[local]! * lognormal(rng, -0.125, 0.5) * factor));
        const cached = Math.round(input * a.cacheShare);
        const write = Math.round((input - cached) * 0.5);
        rows.push({
          timestamp,
          account: a.email,
          group: a.group,
          surface: a.surface,
          inputTokens: input,
          cachedInputTokens: cached,
          cacheWriteTokens: write,
          outputTokens: Math.round(200 + 600 * rng.next()),
          model: "claude-sonnet-4",
        });
      }
    }
    rows.sort((x, y) => x.timestamp - y.timestamp);
    yield* rows;
  }
}

/** Relative call volume by local hour: quiet nights, a morning and an afternoon peak. */
const DIURNAL = [0.15, 0.1, 0.08, 0.08, 0.1, 0.2, 0.4, 0.8, 1.3, 1.7, 1.9, 1.8, 1.4, 1.6, 1.9, 1.9, 1.7, 1.5, 1.2, 1.0, 0.8, 0.6, 0.4, 0.25];
/** Prompts grow through the working day as sessions get longer (a curve, not a flat line). */
const SIZE_BY_HOUR = Array.from({ length: 24 }, (_, h) => 0.8 + 0.4 * Math.max(0, Math.sin(((h - 7) / 16) * Math.PI)));

const FIRST = "abcdefghijklmnopqrstuvwxyz";
function randomLocalPart(rng: Rng): string {
  const first = rng.chance(0.04) ? String(rng.int(0, 9)) : rng.chance(0.05) ? FIRST[rng.int(0, 25)]!.toUpperCase() : FIRST[rng.int(0, 25)]!;
  return `${first}${rng.hex(5)}`;
}

function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

function lognormal(rng: Rng, mu: number, sigma: number): number {
  return Math.exp(mu + sigma * normal(rng));
}

function poisson(rng: Rng, lambda: number): number {
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal(rng)));
  const limit = Math.exp(-lambda);
  let k = 0;
  for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  return k;
}
