import { createReadStream } from "node:fs";
import { defaultAssignRule, labelToGroup, parseAssignRule, type AssignRule } from "@/lib/online/assignment/assign";
import { UsageAggregator, type AggregateOptions } from "@/lib/online/assignment/aggregate";
import type { ColumnMapping } from "@/lib/online/usage/columns";
import { parsePrices } from "@/lib/rollout/billed-cost";
import { estimateOnline } from "@/lib/online/estimation/estimate";
import { describeGroupBalance, groupBalance } from "@/lib/online/estimation/group-balance";
import { checkTimeZone, DEFAULT_WINDOW, parseWindow } from "@/lib/online/assignment/local-time";
import { readUsageBatches, UsageMappingError, type UsageFormat } from "@/lib/online/usage/read-usage";
import { formatUsageIssue } from "@/lib/online/usage/schema";
import { parseCommandArgs, UsageError } from "../args";
import { onlineCommand } from "../usage";
import { printOnlineTable, toOnlineContract } from "../online/output";

/**
 * Reads a usage log (CSV or JSONL, streamed), splits accounts into treatment and control, and
 * prints the online reduction with its account-clustered 95% interval. Without `--assign` the log's
 * own group column decides when its first row carries a group label, else the e-mail pivot
 * (`defaultAssignRule`). Exit 1 when some rows could not be read (they are listed on stderr; the
 * estimate uses the others) or a group is left empty (warned on stderr), 2 for a bad command line.
 */
export async function runOnline(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, onlineCommand);
  if (positionals.length !== 1) throw new UsageError("online takes exactly one usage log (CSV or JSONL)");
  const file = positionals[0]!;
  const chosen: AssignRule | undefined = values.assign === undefined ? undefined : usage(() => parseAssignRule(values.assign!));
  const window = values.window ? usage(() => parseWindow(values.window!)) : DEFAULT_WINDOW;
  const timeZone = usage(() => checkTimeZone(values.tz));
  const prices = values.prices ? usage(() => parsePrices(values.prices!)) : undefined;
  const format = (values.format ?? (/\.(jsonl|ndjson)$/i.test(file) ? "jsonl" : "csv")) as UsageFormat;
  if (format !== "csv" && format !== "jsonl") throw new UsageError(`--format must be csv or jsonl, got ${JSON.stringify(values.format)}`);
  const overrides = Object.fromEntries(
    (values.map ?? []).map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new UsageError(`--map takes field=column, got ${JSON.stringify(pair)}`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
  if (chosen?.kind === "column") overrides.group = chosen.column;
  const seed = wholeNumber(values.seed, "--seed");
  const iterations = wholeNumber(values.iterations, "--iterations");

  const filters: Omit<AggregateOptions, "rule"> = {
    timeZone,
    window,
    ...(values.surface ? { surfaces: values.surface } : {}),
    ...(values.volatile ? { volatile: values.volatile.map(parseInterval) } : {}),
    ...(values.rollout ? { rolloutAt: instant(values.rollout, "--rollout") } : {}),
  };
  let mapping: ColumnMapping = {};
  let aggregator: UsageAggregator | undefined;
  /** Whether any row carried a label naming a group (only then is the group column offered as the fix). */
  let labelled = false;
  let errors = 0;
  try {
    for await (const batch of readUsageBatches(createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 }), {
      format,
      overrides: usage(() => overrides),
      onMapping: (m) => void (mapping = m),
    })) {
      for (const item of batch) {
        if (item.ok) {
          aggregator ??= new UsageAggregator({ ...filters, rule: chosen ?? defaultAssignRule(mapping.group, item.row.group) });
          aggregator.add(item.row);
          if (!labelled && item.row.group !== undefined && labelToGroup(item.row.group) !== null) labelled = true;
        } else if (++errors <= 10) console.error(`${file}: ${formatUsageIssue(item.issue)}`);
      }
    }
  } catch (error) {
    if (error instanceof UsageMappingError || error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  if (errors > 10) console.error(`${file}: ${errors - 10} more rows with errors`);
  if (!aggregator || aggregator.counts.used === 0) {
    console.error(`${file}: no usable calls in the window ${values.window ?? "08:00-22:00"}${aggregator ? ` (${JSON.stringify(aggregator.counts)})` : ""}`);
    return 1;
  }
  const balance = groupBalance(aggregator);
  const warning = describeGroupBalance(balance, {
    rule: aggregator.options.rule,
    groupColumn: labelled ? mapping.group : undefined,
    unassigned: aggregator.counts.unassigned,
  });
  if (warning) console.error(`${file}: warning: ${warning}`);
  const report = estimateOnline(aggregator, { seed, iterations, ...(prices ? { prices } : {}) });
  if (values.json) process.stdout.write(`${JSON.stringify(toOnlineContract(report))}\n`);
  else printOnlineTable(report);
  return errors > 0 || warning ? 1 : 0;
}

function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function wholeNumber(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

function instant(text: string, flag: string): number {
  const ms = Date.parse(text);
  if (!/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || !Number.isFinite(ms))
    throw new UsageError(`${flag} must be an ISO-8601 instant with a zone (2026-05-29T18:00:00Z), got ${JSON.stringify(text)}`);
  return ms;
}

function parseInterval(text: string): { start: number; end: number } {
  const [a, b] = text.split("/");
  if (!a || !b) throw new UsageError(`--volatile takes START/END instants, got ${JSON.stringify(text)}`);
  const start = instant(a, "--volatile start");
  const end = instant(b, "--volatile end");
  if (end <= start) throw new UsageError(`--volatile end must come after its start, got ${JSON.stringify(text)}`);
  return { start, end };
}
