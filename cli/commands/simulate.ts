import { parsePrices, type Prices } from "@/lib/rollout/billed-cost";
import { simulateSuite, type SimSuiteReport } from "@/lib/online/simulation/simulate-suite";
import { parseTriggerLevel } from "@/lib/rollout/window";
import { parseParamAssignments } from "@/lib/compaction/policies/params";
import { findPolicy, POLICIES } from "@/lib/compaction/policies/registry";
import type { Policy } from "@/lib/compaction/policies/types";
import type { FormatId } from "@/lib/trace/model";
import type { TokenizerId } from "@/lib/tokens/tokenizer";
import { parseCommandArgs, UsageError } from "../args";
import { asUsage, readTraceOptions } from "../trace-options";
import { simulateCommand } from "../usage";
import { loadSessions, NoTraceFilesError } from "../evaluation/load-sessions";

export interface SimulateCommandOptions {
  inputs: string[];
  policy: Policy;
  trigger?: number;
  window?: number;
  params: Record<string, number | string | boolean>;
  prices?: Prices;
  format?: FormatId;
  tokenizer?: TokenizerId;
  json: boolean;
}

/**
 * The online simulator over trace files: replays every session in time order under one policy
 * (`lib/online/simulation/simulate-suite.ts`) and prints one JSON object (`--json`, the README contract) or a
 * table. Exit 0 when every file loaded; 1 when some did not (reported on stderr, the rest is still
 * simulated) or nothing was left; 2 for a bad command line.
 */
export async function runSimulate(argv: string[]): Promise<number> {
  const options = parseSimulateArgs(argv);
  let result;
  try {
    result = await simulateFiles(options);
  } catch (error) {
    if (!(error instanceof NoTraceFilesError)) throw error;
    console.error(`tracefold simulate: ${error.message}`);
    return 1;
  }
  for (const problem of result.problems) console.error(problem);
  if (result.report.sessions.length === 0) {
    console.error("tracefold simulate: no sessions to simulate");
    return 1;
  }
  if (options.json) process.stdout.write(`${JSON.stringify(toSimulateContract(result.report))}\n`);
  else console.log(formatSimulation(result.report));
  return result.problems.length === 0 ? 0 : 1;
}

export function parseSimulateArgs(argv: string[]): SimulateCommandOptions {
  const { values, positionals } = parseCommandArgs(argv, simulateCommand);
  if (positionals.length === 0) throw new UsageError("simulate takes one or more trace files or directories");
  const policy = values.policy ? findPolicy(values.policy) : undefined;
  if (!policy) throw new UsageError(`--policy must be one of ${POLICIES.map((p) => p.id).join(", ")}`);
  const trace = readTraceOptions(values);
  return {
    inputs: positionals,
    policy,
    json: values.json,
    ...(values.trigger !== undefined ? { trigger: asUsage(() => parseTriggerLevel(values.trigger!)) } : {}),
    params: asUsage(() => parseParamAssignments(policy, values.param ?? [])),
    ...(values.prices !== undefined ? { prices: asUsage(() => parsePrices(values.prices!)) } : {}),
    ...trace,
  };
}

/** Loads the files (a file with errors is left out whole and reported) and simulates the rest. */
export async function simulateFiles(options: SimulateCommandOptions): Promise<{ report: SimSuiteReport; problems: string[] }> {
  const loaded = await loadSessions(options.inputs, {
    ...(options.format ? { format: options.format } : {}),
    ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
  });
  const problems = loaded.failed.flatMap((f) => [`skipped ${f.path}: ${f.problems.length} error(s)`, ...f.problems.slice(0, 5).map((p) => `  ${p}`)]);
  const items = loaded.sessions.map((s) => ({
    session: s.session,
    tokenizer: loaded.tokenizerFor(s.session),
    source: s.session.messages[0]?.source.file ?? "",
  }));
  const report = await simulateSuite(items, options.policy, {
    params: options.params,
    ...(options.trigger !== undefined ? { trigger: options.trigger } : {}),
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
  });
  return { report, problems };
}

/** The documented `simulate --json` shape: the report without the per-call series and the curve. */
export function toSimulateContract(report: SimSuiteReport) {
  return {
    policy: report.policy,
    trigger: report.trigger,
    window: report.window,
    sessions: report.sessions.map(({ series: _series, source, ...rest }) => ({ ...rest, ...(source ? { file: source } : {}) })),
    pooled: report.pooled,
  };
}

function formatSimulation(report: SimSuiteReport): string {
  const pad = (s: string, n: number) => s.padStart(n);
  const pct = (x: number | null) => (x === null ? "—" : `${x.toFixed(2)}%`);
  const rows = [
    ["session", "calls", "window", "mean without", "mean with", "reduction", "commits", "cache breaks"],
    ...report.sessions.map((s) => [
      s.session.slice(0, 40),
      String(s.calls),
      String(s.window),
      s.meanInputTokens.without.toFixed(0),
      s.meanInputTokens.with.toFixed(0),
      pct(s.reductionPct),
      String(s.compactions),
      String(s.cacheBreaks),
    ]),
    [
      "pooled",
      String(report.pooled.calls),
      report.window === null ? "per session" : String(report.window),
      report.pooled.meanInputTokens.without.toFixed(0),
      report.pooled.meanInputTokens.with.toFixed(0),
      pct(report.pooled.reductionPct),
      String(report.pooled.compactions),
      String(report.pooled.cacheBreaks),
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : pad(c, widths[i]!))).join("  "));
  const head = `policy ${report.policy}, trigger ${report.trigger * 100}% of the window${report.window === null ? " (window per session: the trigger first fires at 2/3 of its peak prompt)" : ""}`;
  const cost = report.pooled.cost
    ? `\nbilled prompt cost: $${report.pooled.cost.without.toFixed(4)} without, $${report.pooled.cost.with.toFixed(4)} with the policy`
    : "";
  return `${head}\n${lines.join("\n")}${cost}`;
}
