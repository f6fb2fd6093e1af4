import { AB_JUDGE_CONTRACT, JUDGE_CONTRACT } from "@/lib/evaluation/llm-judge";
import { PLANNER_CONTRACT } from "@/lib/compaction/planner/contract";
import type { Db } from "../../db/client";
import { getRunAggregates } from "../get-run-aggregates";
import { loadSuiteSessions } from "../load-suite-sessions";
import { inRunOrder } from "../run-records";
import { EvalSettingsSchema } from "../run-settings";
import { sanitizedFixtures } from "./package-fixtures";
import { regeneratePatches } from "./package-patches";
import { packageReadme } from "./package-readme";
import { RECOMPUTE_SCRIPT } from "./recompute-script";
import { ValueRedactor } from "./redact-value";
import { writeZip, type ZipEntry } from "./zip-writer";

export type ExportOutcome =
  { ok: true; filename: string; chunks: Uint8Array[]; entries: string[] } | { ok: false; code: "not_found" | "conflict"; message: string };

/**
 * The reproduction package of a finished run (zip): sanitized fixtures, planner outputs,
 * candidate patches, token estimates, prompt templates, judge outputs, the stored settings, the
 * aggregates and a dependency-free script that recomputes them, with a README. Only `done` runs
 * export: a partial run's aggregates are not the run's. Every file lives under one folder named
 * after the run, so extracting never scatters files.
 */
export async function buildReproductionPackage(db: Db, runId: string, now = new Date()): Promise<ExportOutcome> {
  const run = await db.evalRun.findUnique({ where: { id: runId } });
  if (!run) return { ok: false, code: "not_found", message: "no such evaluation run" };
  if (run.status !== "done")
    return { ok: false, code: "conflict", message: `the run is ${run.status}; only finished runs can be exported (wait until it is done, or resume it)` };
  const parsed = EvalSettingsSchema.safeParse(JSON.parse(run.settings));
  if (!parsed.success) return { ok: false, code: "conflict", message: "the run's stored settings are invalid; it cannot be reproduced" };
  const settings = parsed.data;
  const sessionIds = JSON.parse(run.sessionIds) as string[];
  const { sessions } = await loadSuiteSessions(db, sessionIds, settings);
  // The order of loadRunRecords (the run's sessions, cut, policy): the recompute script sums and
  // draws its session bootstrap in file order.
  const rows = await inRunOrder(
    db,
    runId,
    await db.evalResult.findMany({ where: { runId }, orderBy: [{ sessionId: "asc" }, { cut: "asc" }, { policy: "asc" }] }),
  );
  const aggregates = (await getRunAggregates(db, runId))!;
  const redactor = new ValueRedactor();
  const fixtures = sanitizedFixtures(sessions, redactor);
  const tokenizerOf = new Map(sessions.map((s) => [s.session.id, s.tokenizer.id]));
  const judged = rows.filter((r) => r.error === null);
  const { patches, plannerOutputs } = await regeneratePatches(judged, sessions, settings, redactor);

  const jsonl = (items: unknown[]) => items.map((item) => `${JSON.stringify(item)}\n`).join("");
  const judgeOutputs = rows.map((r) => ({
    unitKey: r.unitKey,
    sessionId: r.sessionId,
    cut: r.cut,
    cutReason: r.cutReason,
    policy: r.policy,
    budget: r.budget,
    noImpact: r.noImpact,
    visibleNoImpact: r.visibleNoImpact,
    restorableNoImpact: r.restorableNoImpact,
    uncertain: r.uncertain,
    missingByCategory: JSON.parse(r.missingByCategory) as Record<string, number>,
    byKind: r.byKind === null ? null : (JSON.parse(r.byKind) as unknown),
    verdict: redactor.value(JSON.parse(r.verdict) as unknown),
    error: r.error === null ? null : redactor.text(r.error),
  }));
  const tokenEstimates = judged.map((r) => ({
    unitKey: r.unitKey,
    sessionId: r.sessionId,
    cut: r.cut,
    policy: r.policy,
    budget: r.budget,
    tokenizer: tokenizerOf.get(r.sessionId) ?? settings.tokenizer,
    window: r.window,
    targetTokens: r.targetTokens,
    prefixTokens: r.prefixTokens,
    tokensAfter: r.tokensAfter,
    pruneRate: r.pruneRate,
    restores: r.restores,
    restoreTokens: r.restoreTokens,
    netPruneRate: r.netPruneRate,
  }));
  const root = `tracefold-eval-${slug(redactor.text(run.name))}-${run.id.slice(0, 8)}`;
  const files: ZipEntry[] = [
    {
      name: "README.md",
      data: packageReadme({
        runId: run.id,
        name: redactor.text(run.name),
        judge: settings.judge,
        cutLevels: settings.cutLevels,
        triggerLevel: settings.triggerLevel,
        pointers: settings.pointers,
        ...(settings.sweep ? { sweep: settings.sweep } : {}),
        ...(settings.match !== undefined ? { match: settings.match } : {}),
        sessions: sessions.length,
        units: rows.length,
        failedUnits: rows.length - judged.length,
        redactions: fixtures.report.total,
        plannerOutputs: plannerOutputs.length,
        unavailablePatches: patches.filter((p) => p.unavailable).length,
        notReproduced: patches.filter((p) => !p.unavailable && !p.reproduced).length,
        exportedAt: now.toISOString(),
      }),
    },
    {
      name: "settings.json",
      data: JSON.stringify(
        {
          run: {
            id: run.id,
            name: redactor.text(run.name),
            status: run.status,
            createdAt: run.createdAt,
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
          },
          settings,
          sessionIds,
          tokenizers: Object.fromEntries(tokenizerOf),
        },
        null,
        2,
      ),
    },
    { name: "aggregates.json", data: JSON.stringify(aggregates, null, 2) },
    { name: "judge-outputs.jsonl", data: jsonl(judgeOutputs) },
    { name: "token-estimates.jsonl", data: jsonl(tokenEstimates) },
    { name: "candidate-patches.jsonl", data: jsonl(patches) },
    ...plannerOutputs.map((p) => ({
      name: `planner-outputs/${fileSafe(p.policy)}/${fileSafe(p.sessionId)}-cut${p.cut}${p.budget ? `-${fileSafe(p.budget)}` : ""}.xml`,
      data: p.xml,
    })),
    { name: "prompts/planner-contract.txt", data: PLANNER_CONTRACT },
    { name: "prompts/judge-contract.txt", data: JUDGE_CONTRACT },
    { name: "prompts/ab-judge-contract.txt", data: AB_JUDGE_CONTRACT },
    { name: "fixtures/sessions.tracefold.jsonl", data: fixtures.jsonl },
    { name: "fixtures/redaction-report.json", data: JSON.stringify(fixtures.report, null, 2) },
    { name: "recompute.mjs", data: RECOMPUTE_SCRIPT },
  ];
  const named = files.map((f) => ({ ...f, name: `${root}/${f.name}` }));
  return { ok: true, filename: `${root}.zip`, chunks: writeZip(named, now), entries: named.map((f) => f.name) };
}

/** A short ASCII slug of the run name for the folder and file name. */
function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "run"
  );
}

function fileSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, "_");
}
