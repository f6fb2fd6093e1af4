/**
 * Replay report over real traces: runs lib/evaluation/evaluateSuite (the replay protocol and the
 * deterministic dependency judge, unchanged) for a list of policies and prints, per policy, the
 * mean pruning rate and the no-impact rate with its Wilson 95% interval (lib/evaluation/aggregate/aggregate.ts),
 * plus the Table 7 failure counts. A stop-gap until `tracefold eval` lands; same numbers.
 *
 *   npx tsx scripts/eval-report.ts [file|dir]... [--policies a,b] [--long | --hard] [--param k=v]...
 *                                  [--by-format] [--diagnose] [--json]
 *
 * - default input: ../shared/traces; default policies: none and the seed 000 set;
 * - `--long`: only Claude Code sessions of at least 400 source records (the long-traces report's suite);
 * - `--hard`: the Hard Set, with the per-model tokenizer — the same sessions and cuts as
 *   `tracefold eval --suite hard`;
 * - `--param k=v`: parameters for self-gc (e.g. `--param cacheAware=false`);
 * - `--by-format`: the same table for each trace format as well;
 * - `--diagnose`: one line per self-gc cut — rehearsal and commit decision, accepted actions by
 *   reason code, dropped edits, the missing dependencies with the action that lost them, and where
 *   the prefix tokens sit (protected, kept by each keep rule, offered for action, assistant text).
 */
import { resolve } from "node:path";
import { aggregatePolicies, toRecord, type EvaluationRecord } from "../lib/evaluation/aggregate/aggregate";
import { evaluateSuite, type SuiteSession } from "../lib/evaluation/runner/evaluate-suite";
import type { CutEvaluation } from "../lib/evaluation/runner/evaluate-cut";
import { findPolicy } from "../lib/compaction/policies/registry";
import { runPolicy } from "../lib/compaction/policies/run-policy";
import type { PolicyParams } from "../lib/compaction/policies/types";
import { selectSuite } from "../lib/evaluation/suites/suites";
import { createAnalyzer } from "../lib/analysis/analyze";
import { tokenBreakdown } from "./eval-report-breakdown";
import { parseTrace } from "../lib/trace/parse-trace";
import { recordCount } from "../lib/trace/source-records";
import { sourceFromFile } from "../server/trace/files/file-source";
import { listTraceFiles } from "../server/trace/files/list-trace-files";

const DEFAULT_POLICIES = ["none", "oldest-turn", "tool-prune", "tool-mask-prune", "hybrid", "self-gc"];

interface Options {
  inputs: string[];
  policies: string[];
  long: boolean;
  hard: boolean;
  params: PolicyParams;
  diagnose: boolean;
  json: boolean;
  byFormat: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { inputs: [], policies: DEFAULT_POLICIES, long: false, hard: false, params: {}, diagnose: false, json: false, byFormat: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--policies") options.policies = argv[++i]!.split(",").filter(Boolean);
    else if (arg === "--long") options.long = true;
    else if (arg === "--hard") options.hard = true;
    else if (arg === "--diagnose") options.diagnose = true;
    else if (arg === "--json") options.json = true;
    else if (arg === "--by-format") options.byFormat = true;
    else if (arg === "--param") {
      const [name, raw = ""] = argv[++i]!.split("=");
      options.params[name!] = raw === "true" ? true : raw === "false" ? false : Number.isFinite(Number(raw)) && raw !== "" ? Number(raw) : raw;
    } else options.inputs.push(arg);
  }
  if (options.inputs.length === 0) options.inputs.push(resolve(__dirname, "../../shared/traces"));
  return options;
}

async function loadSessions(
  inputs: string[],
  long: boolean,
  hard: boolean,
): Promise<{ sessions: SuiteSession[]; analyzer: ReturnType<typeof createAnalyzer> }> {
  const analyzer = createAnalyzer(hard ? {} : { tokenizer: "o200k" });
  const sessions: SuiteSession[] = [];
  for (const path of await listTraceFiles(inputs)) {
    const parsed = await parseTrace(await sourceFromFile(path, path));
    if (long && parsed.format !== "claude_code_jsonl") continue;
    for (const session of parsed.sessions) {
      if (long && session.messages.reduce((n, m) => n + recordCount(m), 0) < 400) continue;
      const { index } = analyzer.analyze(session);
      sessions.push({ session, index });
    }
  }
  return { sessions: hard ? selectSuite(sessions, { kind: "hard" }) : sessions, analyzer };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const { sessions, analyzer } = await loadSessions(options.inputs, options.long, options.hard);
  const policies = options.policies.map((id) => {
    const policy = findPolicy(id);
    if (!policy) throw new Error(`unknown policy ${id}`);
    return { policy, ...(id === "self-gc" && Object.keys(options.params).length > 0 ? { params: options.params } : {}) };
  });
  const byId = new Map(sessions.map((s) => [s.session.id, s]));
  const records: EvaluationRecord[] = [];
  let cuts = 0;
  let errors = 0;
  const started = performance.now();
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: analyzer.tokenizerFor })) {
    if (item.kind === "error") {
      errors++;
      console.error(`error ${item.key}: ${item.message}`);
      continue;
    }
    const { evaluation } = item;
    records.push(toRecord(evaluation));
    if (evaluation.policy === policies[0]!.policy.id) cuts++;
    if (options.diagnose && evaluation.policy === "self-gc")
      console.log(await diagnoseLine(evaluation, byId.get(evaluation.sessionId)!, analyzer, options.params));
  }
  const seconds = (performance.now() - started) / 1000;
  const aggregates = aggregatePolicies(records, options.policies);
  if (options.json) {
    console.log(JSON.stringify({ suite: { sessions: sessions.length, cuts, long: options.long }, seconds, errors, policies: aggregates }));
    return;
  }
  console.log(`${sessions.length} sessions, ${cuts} cuts${options.long ? " (long Claude Code sessions)" : ""}, ${seconds.toFixed(1)} s, ${errors} errors`);
  printTable(aggregates);
  if (!options.byFormat) return;
  const formatOf = new Map(sessions.map((s) => [s.session.id, s.session.format]));
  for (const format of [...new Set(formatOf.values())].sort()) {
    const subset = records.filter((r) => formatOf.get(r.sessionId) === format);
    console.log(`\n${format}: ${new Set(subset.map((r) => r.sessionId)).size} sessions, ${subset.length / options.policies.length} cuts`);
    printTable(aggregatePolicies(subset, options.policies));
  }
}

function printTable(aggregates: ReturnType<typeof aggregatePolicies>): void {
  console.log(`${"policy".padEnd(17)}${"prune%".padStart(8)}${"tokPrune%".padStart(11)}${"no-impact%".padStart(12)}  ${"95% CI".padEnd(16)} n    failures`);
  for (const a of aggregates) {
    const ci = `[${a.ci95[0].toFixed(1)}, ${a.ci95[1].toFixed(1)}]`;
    console.log(
      `${a.id.padEnd(17)}${a.prunePct.toFixed(1).padStart(8)}${a.tokenPrunePct.toFixed(1).padStart(11)}${a.noImpactPct.toFixed(1).padStart(12)}  ${ci.padEnd(16)} ${String(a.n).padEnd(4)} ${JSON.stringify(a.failures)}`,
    );
  }
}

/**
 * One self-gc cut, re-run to read its details (evaluateCut keeps only the verdict): rehearsal and
 * commit decision, accepted actions by reason code, dropped edits, and each missing dependency
 * with the rule that lost it.
 */
async function diagnoseLine(evaluation: CutEvaluation, s: SuiteSession, analyzer: ReturnType<typeof createAnalyzer>, params: PolicyParams): Promise<string> {
  const result = await runPolicy(findPolicy("self-gc")!, {
    session: s.session,
    index: s.index,
    cut: evaluation.cut,
    window: evaluation.window,
    tokenizer: analyzer.tokenizerFor(s.session),
    params,
  });
  const details = result.details as {
    rehearsal?: { status: string; pruneRate: number; accepted: { action: string; reason: string }[]; dropped: unknown[] };
    commit?: { status: string; reason: string };
  };
  const byCode = new Map<string, number>();
  for (const a of details.rehearsal?.accepted ?? []) {
    const key = `${a.action}/${a.reason.split(":")[0]}`;
    byCode.set(key, (byCode.get(key) ?? 0) + 1);
  }
  const missing = (evaluation.verdict.evidence?.dependencies ?? []).filter((d) => d.status === "lost");
  const lost = missing.map((d) => `${d.kind}:${d.category}${d.lostBy ? `<${d.lostBy.rule}` : ""}`);
  const rehearsal = details.rehearsal ? `${details.rehearsal.status} ${(100 * details.rehearsal.pruneRate).toFixed(1)}%` : "-";
  return [
    `self-gc ${s.session.id.slice(0, 8)}#${evaluation.cut} (${evaluation.prefixTokens} tok) rehearsal ${rehearsal} commit ${details.commit?.status ?? "-"} prune ${(100 * evaluation.pruneRate).toFixed(1)}% noImpact ${evaluation.noImpact}`,
    `  actions ${JSON.stringify(Object.fromEntries(byCode))} dropped ${details.rehearsal?.dropped.length ?? 0}`,
    `  tokens ${tokenBreakdown(s, evaluation.cut, analyzer.tokenizerFor(s.session))}`,
    details.commit?.status === "committed" ? "" : `  commit: ${details.commit?.reason ?? ""}`,
    missing.length ? `  missing [${lost.join(" ")}]` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
