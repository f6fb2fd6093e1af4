import { aggregatePolicies, comparePolicies, recordsAt, toRecord, type EvaluationRecord } from "@/lib/eval/aggregate";
import { budgetKey } from "@/lib/eval/budget";
import { aggregateCurves } from "@/lib/eval/curves";
import { aggregateMatched } from "@/lib/eval/matched";
import { judgeSensitivity, type SensitivityReport } from "@/lib/eval/sensitivity";
import { replayCuts } from "@/lib/eval/cut-protocol";
import { evaluateSuite, type SuiteItem } from "@/lib/eval/evaluate-suite";
import { createLlmJudge, type LlmJudge } from "@/lib/eval/llm-judge/judge";
import { judgeUnitsWith } from "@/lib/eval/llm-judge-unit";
import { selectSuite } from "@/lib/eval/suites";
import { existsSync } from "node:fs";
import { databaseUrl, engineOf, sqlitePath } from "@/server/db/engine";
import { LlmError } from "@/server/llm/errors";
import { withSignal } from "@/server/llm/with-signal";
import { contractBreakdown, formatBreakdown, groupLabels } from "../eval/breakdown";
import { loadSessions, NoTraceFilesError } from "../eval/load-sessions";
import { evalUsage, parseEvalOptions, suiteSpec, type EvalOptions } from "../eval/options";
import { calibrateAgainst, GoldFileError, readGoldFile } from "../eval/calibrate";
import { createProgress } from "../eval/progress";
import { createViewsExport, type ViewsExport } from "../eval/views-export";
import { contractComparison, contractPolicy, formatTable, type EvalReport } from "../eval/report";

export { evalUsage };

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
  const judge = options.judge === "llm" ? await llmJudgeInEffect(interrupt) : undefined;
  if (options.judge === "llm" && !judge) {
    console.error(
      "tracefold eval: --judge llm needs a model endpoint and none is configured: set TRACEFOLD_LLM_PROVIDER (openai, openai-responses, anthropic, openai-compatible, azure, amazon-bedrock or google) and TRACEFOLD_LLM_MODEL, plus TRACEFOLD_LLM_BASE_URL and TRACEFOLD_LLM_API_KEY as your endpoint needs, or have an admin store one on the studio's Admin → settings (see README, LLM endpoints)",
    );
    return 1;
  }
  let gold;
  try {
    gold = options.calibrate ? await readGoldFile(options.calibrate) : undefined;
  } catch (error) {
    if (!(error instanceof GoldFileError)) throw error;
    console.error(`tracefold eval: ${error.message}`);
    return 2;
  }
  const progress = createProgress(process.stderr, { lines: !options.json });
  let loaded;
  try {
    loaded = await loadSessions(options.inputs, {
      ...(options.format ? { format: options.format } : {}),
      ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
      onFile: (_, i, total) => process.stderr.isTTY && progress.update("loading", i + 1, total),
    });
  } catch (error) {
    if (!(error instanceof NoTraceFilesError)) throw error;
    console.error(`tracefold eval: ${error.message}`);
    return 1;
  }
  progress.finish();
  for (const file of loaded.failed) {
    progress.note(`skipped ${file.path}: ${file.problems.length} error${file.problems.length === 1 ? "" : "s"}`);
    for (const problem of file.problems.slice(0, 5)) progress.note(`  ${problem}`);
    if (file.problems.length > 5) progress.note(`  … ${file.problems.length - 5} more`);
  }
  if (loaded.sessions.length === 0) {
    console.error(`tracefold eval: no sessions to evaluate in ${loaded.files} file${loaded.files === 1 ? "" : "s"}`);
    return 1;
  }

  const sessions = selectSuite(loaded.sessions, suiteSpec(options));
  if (sessions.length === 0) {
    console.error(`tracefold eval: the suite selects none of the ${loaded.sessions.length} sessions loaded${options.filter ? " (check --filter)" : ""}`);
    return 1;
  }
  const cuts = sessions.reduce((n, s) => n + replayCuts(s.session, s.index, { levels: options.cutLevels }).length, 0);
  const exporter = options.exportViews ? createViewsExport(options.exportViews, loaded.tokenizerFor) : undefined;
  let replayed;
  try {
    replayed = await replay(options, sessions, loaded.tokenizerFor, judge, progress, exporter, interrupt);
  } catch (error) {
    await exporter?.close(false);
    throw error;
  }
  if (interrupt.aborted) {
    await exporter?.close(false);
    // No report: a part of the suite's figures is not the suite's.
    console.error(`tracefold eval: interrupted after ${replayed.units} unit${replayed.units === 1 ? "" : "s"}; the model calls in flight were cancelled and no report is printed`);
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
  };
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    console.log(formatTable(report));
    if (report.breakdown && options.by) console.log(`\n${formatBreakdown(report.breakdown, options.by)}`);
  }
  return loaded.failed.length === 0 && failed === 0 ? 0 : 1;
}

/**
 * The endpoint the studio would use: the TRACEFOLD_LLM_* variables, else the one an admin stored
 * (read from DATABASE_URL only when that database exists: `eval` never creates one). Loaded here,
 * not at start-up: only `--judge llm` needs the database client. Every call carries `interrupt`.
 */
async function llmJudgeInEffect(interrupt: AbortSignal): Promise<LlmJudge | undefined> {
  const { envConfiguresLlm, getLlmClient } = await import("@/server/llm/effective-config");
  const url = databaseUrl();
  const hasDatabase = engineOf(url) === "postgres" || existsSync(sqlitePath(url));
  const client = envConfiguresLlm() || hasDatabase ? await getLlmClient() : undefined;
  return client ? createLlmJudge(withSignal(client, interrupt), { repairAttempts: 1 }) : undefined;
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
  judge: LlmJudge | undefined,
  progress: ReturnType<typeof createProgress>,
  exporter: ViewsExport | undefined,
  signal: AbortSignal,
): Promise<{ records: EvaluationRecord[]; failed: number; units: number }> {
  const suite = {
    sessions,
    policies: options.policies.map((policy) => ({ policy })),
    tokenizerFor,
    triggerLevel: options.triggerLevel,
    levels: options.cutLevels,
    pointers: options.pointers,
    ...(options.sweep ? { sweep: options.sweep } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(exporter ? { onView: exporter.write } : {}),
    signal,
  };
  // One engine for both judges: with the LLM judge, up to --concurrency units in flight, and a
  // model endpoint that fails (after the client's retries) ends the run — every later unit would too.
  const items: AsyncGenerator<SuiteItem> = evaluateSuite(judge ? { ...suite, judge: judgeUnitsWith(judge), concurrency: options.concurrency, isFatal: (error) => error instanceof LlmError } : suite);
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
