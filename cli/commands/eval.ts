import { aggregatePolicies, comparePolicies, recordsAt, toRecord, type EvaluationRecord } from "@/lib/evaluation/aggregate/aggregate";
import { budgetKey } from "@/lib/evaluation/cuts/budget";
import { aggregateCurves } from "@/lib/evaluation/aggregate/curves";
import { aggregateMatched } from "@/lib/evaluation/aggregate/matched";
import { judgeSensitivity, type SensitivityReport } from "@/lib/evaluation/aggregate/sensitivity";
import { replayCuts } from "@/lib/evaluation/cuts/cut-protocol";
import { evaluateSuite, type SuiteItem } from "@/lib/evaluation/runner/evaluate-suite";
import { createLlmJudge, type LlmJudge } from "@/lib/evaluation/llm-judge/judge";
import { judgeUnitsWith } from "@/lib/evaluation/runner/llm-judge-unit";
import { selectSuite } from "@/lib/evaluation/suites/suites";
import { existsSync } from "node:fs";
import { databaseUrl, engineOf, sqlitePath } from "@/server/db/engine";
import { LlmError } from "@/server/llm/errors";
import { recordUsage } from "@/server/llm/usage-recorder";
import { withSignal } from "@/server/llm/with-signal";
import { clientIdFor, type LlmClient } from "@/lib/llm/types";
import { contractBreakdown, formatBreakdown, groupLabels } from "../evaluation/breakdown";
import { loadForCommand } from "../evaluation/load-for-command";
import { parseEvalOptions, suiteSpec, type EvalOptions } from "../evaluation/options";
import { calibrateAgainst, GoldFileError, readGoldFile } from "../evaluation/calibrate";
import { createProgress } from "../progress";
import { createViewsExport, type ViewsExport } from "../evaluation/views-export";
import { contractComparison, contractPolicy, formatTable, formatUsage, type EvalReport } from "../evaluation/report";

/** Messages of units that failed, printed before a count of the rest. */
const SHOWN_ERRORS = 20;

/**
 * Replays policies at the protocol's cut points over trace files and judges every cut: the
 * `tracefold eval` command. Prints one JSON object (`--json`, the README contract) or a table.
 * Exit 0 only when every file loaded and every unit was judged; files or units that fail are
 * reported on stderr and the rest is still evaluated and printed (exit 1).
 */
export async function runEval(argv: string[]): Promise<number> {
  const options = parseEvalOptions(argv);
  // Ctrl-C stops the suite and aborts every model call in flight; a second one kills the process.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.once("SIGINT", onInterrupt);
  try {
    return await evaluate(options, interrupt.signal);
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

async function evaluate(options: EvalOptions, interrupt: AbortSignal): Promise<number> {
  const usesLlm = options.judge === "llm" || options.planner === "llm";
  const endpoint = usesLlm ? await llmInEffect() : undefined;
  if (usesLlm && !endpoint) {
    const flags = [options.judge === "llm" ? "--judge llm" : "", options.planner === "llm" ? "--planner llm" : ""].filter(Boolean);
    console.error(
      `tracefold eval: ${flags.join(" and ")} need${flags.length === 1 ? "s" : ""} a model endpoint and none is configured: set TRACEFOLD_LLM_PROVIDER (openai, openai-responses, anthropic, openai-compatible, azure, amazon-bedrock or google) and TRACEFOLD_LLM_MODEL, plus TRACEFOLD_LLM_BASE_URL and TRACEFOLD_LLM_API_KEY as your endpoint needs, or have an admin store one on the studio's Admin → settings (see README, LLM endpoints)`,
    );
    return 1;
  }
  // Every answered call's tokens and cost per purpose (the report's llmUsage); every call carries the interrupt.
  const recorder = endpoint ? recordUsage(endpoint) : undefined;
  const llm = recorder ? withSignal(recorder.client, interrupt) : undefined;
  const judge = options.judge === "llm" && llm ? createLlmJudge(llm, { repairAttempts: 1 }) : undefined;
  let gold;
  try {
    gold = options.calibrate ? await readGoldFile(options.calibrate) : undefined;
  } catch (error) {
    if (!(error instanceof GoldFileError)) throw error;
    console.error(`tracefold eval: ${error.message}`);
    return 2;
  }
  const progress = createProgress(process.stderr, { lines: !options.json });
  const loaded = await loadForCommand(
    { command: "eval", verb: "evaluate" },
    options.inputs,
    { ...(options.format ? { format: options.format } : {}), ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) },
    progress,
    process.stderr.isTTY,
  );
  if (!loaded) return 1;

  const sessions = selectSuite(loaded.sessions, suiteSpec(options));
  if (sessions.length === 0) {
    console.error(`tracefold eval: the suite selects none of the ${loaded.sessions.length} sessions loaded${options.filter ? " (check --filter)" : ""}`);
    return 1;
  }
  const cuts = sessions.reduce((n, s) => n + replayCuts(s.session, s.index, { levels: options.cutLevels }).length, 0);
  const exporter = options.exportViews ? createViewsExport(options.exportViews, loaded.tokenizerFor) : undefined;
  let replayed;
  try {
    replayed = await replay(options, sessions, loaded.tokenizerFor, { judge, llm }, progress, exporter, interrupt);
  } catch (error) {
    await exporter?.close(false);
    throw error;
  }
  if (interrupt.aborted) {
    await exporter?.close(false);
    // No report: a part of the suite's figures is not the suite's.
    console.error(
      `tracefold eval: interrupted after ${replayed.units} unit${replayed.units === 1 ? "" : "s"}; the model calls in flight were cancelled and no report is printed`,
    );
    return 130;
  }
  await exporter?.close(true);
  const { records, failed } = replayed;
  const ids = options.policies.map((p) => p.id);
  const own = recordsAt(records, undefined);
  const matched = options.match ? aggregateMatched(records, options.match, ids) : undefined;
  const report: EvalReport = {
    suite: { sessions: sessions.length, cuts },
    judge: judge?.id ?? "dependency",
    pointers: options.pointers,
    policies: aggregatePolicies(own, ids).map(contractPolicy),
    ...(options.sweep ? { curves: aggregateCurves(records, ids) } : {}),
    ...(matched ? { matched } : {}),
    ...(options.sensitivity ? { sensitivity: sensitivityReports(records, options.match) } : {}),
    ...(gold ? { calibration: calibrateAgainst(gold, loaded) } : {}),
    ...(options.compare ? { comparison: contractComparison(...options.compare, comparePolicies(own, ...options.compare)) } : {}),
    ...(options.by ? { breakdown: contractBreakdown(own, groupLabels(sessions, options.by), options.by, ids) } : {}),
    ...(recorder ? { llmUsage: recorder.snapshot() } : {}),
  };
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    console.log(formatTable(report));
    if (report.llmUsage && llm) console.log(`\n${formatUsage(report.llmUsage, (purpose) => clientIdFor(llm, purpose))}`);
    if (report.breakdown && options.by) console.log(`\n${formatBreakdown(report.breakdown, options.by)}`);
  }
  return loaded.failed.length === 0 && failed === 0 ? 0 : 1;
}

/**
 * The endpoints the studio would use (one per purpose): the TRACEFOLD_LLM_* variables, else the ones
 * an admin stored (read from DATABASE_URL only when that database exists: `eval` never creates
 * one). Loaded here, not at start-up: only `--judge llm` and `--planner llm` need the database client.
 */
async function llmInEffect(): Promise<LlmClient | undefined> {
  const { envConfiguresLlm, getLlmClient } = await import("@/server/llm/effective-config");
  const url = databaseUrl();
  const hasDatabase = engineOf(url) === "postgres" || existsSync(sqlitePath(url));
  return envConfiguresLlm() || hasDatabase ? await getLlmClient() : undefined;
}

/** Rankings under judge variants, for the policies' own settings and, with `--match`, the matched units. */
function sensitivityReports(records: readonly EvaluationRecord[], match: string | undefined): SensitivityReport[] {
  const reports = [judgeSensitivity(recordsAt(records, undefined), "own")];
  if (match) reports.push(judgeSensitivity(recordsAt(records, budgetKey({ kind: "match", reference: match })), "matched"));
  return reports.filter((r): r is SensitivityReport => r !== undefined);
}

async function replay(
  options: EvalOptions,
  sessions: Parameters<typeof evaluateSuite>[0]["sessions"],
  tokenizerFor: Parameters<typeof evaluateSuite>[0]["tokenizerFor"],
  models: { judge: LlmJudge | undefined; llm: LlmClient | undefined },
  progress: ReturnType<typeof createProgress>,
  exporter: ViewsExport | undefined,
  signal: AbortSignal,
): Promise<{ records: EvaluationRecord[]; failed: number; units: number }> {
  const { judge, llm } = models;
  const planWithLlm = options.planner === "llm" && llm !== undefined;
  const suite = {
    sessions,
    // --planner llm: Self-GC's own `planner` parameter, so the unit keys and figures are those of a studio run with planner=llm.
    policies: options.policies.map((policy) => (planWithLlm && policy.id === "self-gc" ? { policy, params: { planner: "llm" } } : { policy })),
    ...(planWithLlm ? { llm } : {}),
    tokenizerFor,
    triggerLevel: options.triggerLevel,
    levels: options.cutLevels,
    pointers: options.pointers,
    ...(options.sweep ? { sweep: options.sweep } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(exporter ? { onView: exporter.write } : {}),
    signal,
  };
  // One engine for both judges: when a model is called (judge or planner), up to --concurrency units
  // in flight, and a model endpoint that fails (after the client's retries) ends the run — every
  // later unit would too.
  const calling = llm ? { concurrency: options.concurrency, isFatal: (error: unknown) => error instanceof LlmError } : {};
  const items: AsyncGenerator<SuiteItem> = evaluateSuite({ ...suite, ...calling, ...(judge ? { judge: judgeUnitsWith(judge) } : {}) });
  const records: EvaluationRecord[] = [];
  let failed = 0;
  let units = 0;
  for await (const item of items) {
    if (item.kind === "result") records.push(toRecord(item.evaluation));
    else if (++failed <= SHOWN_ERRORS) progress.note(`failed ${item.policy} on ${item.sessionId} at cut ${item.cut}: ${item.message}`);
    progress.update("replaying", item.progress.done, item.progress.total);
    units = item.progress.done;
  }
  progress.finish();
  if (failed > SHOWN_ERRORS) console.error(`… ${failed - SHOWN_ERRORS} more units failed (${failed} in all)`);
  return { records, failed, units };
}
