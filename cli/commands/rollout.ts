import { readFile } from "node:fs/promises";
import { parseParamAssignments } from "@/lib/compaction/policies/params";
import type { Policy, PolicyParams } from "@/lib/compaction/policies/types";
import type { PriceChoice } from "@/lib/rollout/model-prices";
import { parseCacheTtl, parsePriceChoice, parsePriceTable } from "@/lib/rollout/price-choice";
import { rolloutSuite, type RolloutReport } from "@/lib/rollout/rollout-suite";
import { parseTriggerLevel } from "@/lib/rollout/window";
import type { LlmClient } from "@/lib/llm/types";
import { recordUsage } from "@/server/llm/usage-recorder";
import type { FormatId } from "@/lib/trace/model";
import type { TokenizerId } from "@/lib/tokens/tokenizer";
import { parseCommandArgs, UsageError } from "../args";
import { asUsage, readTraceOptions } from "../trace-options";
import { loadForCommand } from "../evaluation/load-for-command";
import { parsePolicies } from "../evaluation/options";
import { createProgress } from "../progress";
import { llmInEffect, noEndpointMessage } from "../llm-endpoint";
import { rolloutCommand } from "../usage";

export interface RolloutCommandOptions {
  inputs: string[];
  policies: Policy[];
  params: Record<string, PolicyParams>;
  trigger?: number;
  window?: number;
  /** A price choice, or a file to read one from. */
  prices?: PriceChoice | { file: string };
  cacheTtlMs: number;
  format?: FormatId;
  tokenizer?: TokenizerId;
  json: boolean;
  /** `--planner llm`: self-gc plans with the configured model (params `{planner: "llm"}`), as `eval --planner llm` does. */
  planner: "rule-based" | "llm";
  /** `--hard-limit`: the harness's hard limit (lib/rollout's `hardLimit`). */
  hardLimit: boolean;
}

/**
 * `tracefold rollout`: every policy through every session, call by call, each committed view judged
 * against the real continuation (lib/rollout). Prints one JSON object (`--json`, the README's
 * contract) or a table per policy. Exit 0 when every file loaded; 1 when some did not (each
 * reported on stderr, the rest still rolled out), nothing was left, or `--planner llm` has no
 * endpoint (the message eval gives); 2 for a bad command line.
 */
export async function runRollout(argv: string[]): Promise<number> {
  const options = parseRolloutArgs(argv);
  let llm: LlmClient | undefined;
  let recorder: ReturnType<typeof recordUsage> | undefined;
  if (options.planner === "llm") {
    const endpoint = await llmInEffect();
    if (!endpoint) {
      console.error(noEndpointMessage("rollout", ["--planner llm"]));
      return 1;
    }
    // Every answered call's tokens and cost (the report's llmUsage, which the planner figures add up to).
    recorder = recordUsage(endpoint);
    llm = recorder.client;
  }
  let prices: PriceChoice | undefined;
  if (options.prices && "file" in options.prices) {
    const file = options.prices.file;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `--prices ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file (give a JSON price table, model=NAME or input=…,output=…)" : (error as Error).message}`,
      );
    }
    try {
      prices = parsePriceTable(text, file);
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(`--prices ${error.message}`);
      throw error;
    }
  } else prices = options.prices;

  const progress = createProgress(process.stderr, { lines: !options.json });
  const loaded = await loadForCommand(
    { command: "rollout", verb: "roll out" },
    options.inputs,
    { ...(options.format ? { format: options.format } : {}), ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) },
    progress,
    process.stderr.isTTY,
  );
  if (!loaded) return 1;
  const items = loaded.sessions.map((s) => ({
    session: s.session,
    tokenizer: loaded.tokenizerFor(s.session),
    source: s.session.messages[0]?.source.file ?? "",
  }));
  const report = await rolloutSuite(items, options.policies, {
    params: options.params,
    cacheTtlMs: options.cacheTtlMs,
    ...(options.trigger !== undefined ? { trigger: options.trigger } : {}),
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(prices ? { prices } : {}),
    ...(llm ? { llm } : {}),
    ...(options.hardLimit ? { hardLimit: true } : {}),
    onProgress: (done, total) => progress.update("rolling out", done, total),
  });
  progress.finish();
  const llmUsage = recorder?.snapshot();
  if (options.json) process.stdout.write(`${JSON.stringify({ ...toRolloutContract(report), ...(llmUsage ? { llmUsage } : {}) })}\n`);
  else console.log(formatRollout(report));
  return loaded.failed.length === 0 ? 0 : 1;
}

export function parseRolloutArgs(argv: string[]): RolloutCommandOptions {
  const { values, positionals } = parseCommandArgs(argv, rolloutCommand);
  if (positionals.length === 0) throw new UsageError("rollout takes one or more trace files or directories");
  if (values.policies === undefined) throw new UsageError("rollout needs --policies all or a comma-separated list of policy ids");
  const policies = parsePolicies(values.policies);
  const trace = readTraceOptions(values);
  if (values.planner !== "rule-based" && values.planner !== "llm") throw new UsageError(`unknown --planner ${values.planner}; expected rule-based or llm`);
  if (values.planner === "llm" && !policies.some((p) => p.id === "self-gc"))
    throw new UsageError("--planner llm chooses Self-GC's planner: add self-gc to --policies");
  const params = asUsage(() => parsePolicyParams(policies, values.param ?? []));
  // --planner llm: Self-GC's own `planner` parameter, as `eval --planner llm` sets it (the flag wins over --param).
  if (values.planner === "llm") params["self-gc"] = { ...(params["self-gc"] ?? {}), planner: "llm" };
  const prices =
    values.prices === undefined ? undefined : values.prices.includes("=") ? asUsage(() => parsePriceChoice(values.prices!)) : { file: values.prices };
  return {
    inputs: positionals,
    policies,
    params,
    planner: values.planner,
    hardLimit: values["hard-limit"],
    cacheTtlMs: asUsage(() => parseCacheTtl(values["cache-ttl"])),
    json: values.json,
    ...(values.trigger !== undefined ? { trigger: asUsage(() => parseTriggerLevel(values.trigger!)) } : {}),
    ...(prices ? { prices } : {}),
    ...trace,
  };
}

/** `policy.name=value` assignments, grouped per policy (each checked against that policy's parameters). */
function parsePolicyParams(policies: readonly Policy[], assignments: readonly string[]): Record<string, PolicyParams> {
  const grouped = new Map<string, string[]>();
  for (const assignment of assignments) {
    const dot = assignment.indexOf(".");
    const id = dot > 0 ? assignment.slice(0, dot) : "";
    if (!policies.some((p) => p.id === id))
      throw new UsageError(
        `--param ${JSON.stringify(assignment)}: expected policy.name=value with a policy among --policies (${policies.map((p) => p.id).join(", ")})`,
      );
    grouped.set(id, [...(grouped.get(id) ?? []), assignment.slice(dot + 1)]);
  }
  return Object.fromEntries(
    [...grouped].map(([id, list]) => [
      id,
      parseParamAssignments(
        policies.find((p) => p.id === id)!,
        list,
      ),
    ]),
  );
}

/** The documented `rollout --json` shape: per policy the pooled figures; per session each policy's, without the per-call series. */
export function toRolloutContract(report: RolloutReport) {
  return {
    trigger: report.trigger,
    window: report.window,
    hardLimit: report.hardLimit,
    policies: report.policies,
    sessions: report.sessions.map(({ source, policies, ...rest }) => ({
      ...rest,
      ...(source ? { file: source } : {}),
      policies: policies.map(({ series: _series, ...figures }) => figures),
    })),
  };
}

function formatRollout(report: RolloutReport): string {
  const pct = (x: number | null) => (x === null ? "—" : `${x.toFixed(1)}%`);
  const usd = (x: number) => `$${x.toFixed(4)}`;
  const rows = [
    [
      "policy",
      "calls",
      "input without",
      "input with",
      "reduction",
      "cached",
      "cost without",
      "cost with",
      "commits",
      "over window",
      ...(report.hardLimit ? ["hard-limit commits"] : []),
      "restores",
      "restored tok",
      "lost /100 calls",
    ],
    ...report.policies.map((p) => [
      p.id,
      String(p.calls),
      String(p.inputTokens.without),
      String(p.inputTokens.with),
      pct(p.reductionPct),
      pct(p.cachedInputPct),
      p.cost ? usd(p.cost.without) : "—",
      p.cost ? usd(p.cost.with) : "—",
      String(p.compactions),
      String(p.overflowCalls),
      ...(report.hardLimit ? [String(p.hardLimitCommits)] : []),
      String(p.restores),
      String(p.restoredTokens),
      p.lostStepsPer100 === null ? "—" : p.lostStepsPer100.toFixed(2),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
  const unpriced = Math.max(0, ...report.policies.map((p) => p.unpricedSessions));
  const head = `${report.sessions.length} session${report.sessions.length === 1 ? "" : "s"}, trigger ${report.trigger * 100}% of the window${report.window === null ? " (window per session: the trigger first fires at 2/3 of its peak prompt)" : ` of ${report.window} tokens`}${report.hardLimit ? ", hard limit on (where a policy leaves the prompt over the window, the harness asks it to compact to the trigger share)" : ""}`;
  const notes = [
    unpriced ? `${unpriced} session${unpriced === 1 ? "" : "s"} unpriced (model not in the price table: pass --prices)` : "",
    "lost: steps that needed a value the committed view had lost, per 100 calls; restores bring a folded payload back into the prompt until the next commit",
    ...report.policies
      .filter((p) => p.planner.rounds > 0)
      .map(
        (p) =>
          `${p.id} planner: ${p.planner.rounds} model round${p.planner.rounds === 1 ? "" : "s"}, ${p.planner.inputTokens} input (${p.planner.cachedInputTokens} cached) and ${p.planner.outputTokens} output tokens, ${
            p.planner.cost === null
              ? "unpriced (the endpoint reported no cost and its model has no list price: set the endpoint's prices or pass --prices)"
              : `${usd(p.planner.cost)}, billed in cost with${p.planner.unpricedRounds ? ` (${p.planner.unpricedRounds} unpriced rounds left out)` : ""}`
          }`,
      ),
  ].filter(Boolean);
  return `${head}\n${lines.join("\n")}\n${notes.join("\n")}`;
}
