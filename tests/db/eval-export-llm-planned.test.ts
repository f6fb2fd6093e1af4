import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createRun } from "../../server/evaluation/create-run";
import { buildReproductionPackage } from "../../server/evaluation/export/build-package";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { createLlmClient } from "../../server/llm/client";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { promptOf, startLlmStub, type LlmStub, type RecordedRequest } from "../helpers/llm-stub-server";
import { readZip } from "../helpers/read-zip";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * The reproduction export replays a run through the one suite engine, and never calls a model: in a
 * run matched to a Self-GC planned by an LLM, the model-planned units are marked unavailable while
 * every other policy's matched units are compacted again to the stored reference size and
 * reproduce their stored tokens (the engine would otherwise have to re-plan the reference).
 */
const TRACE = "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl";
const SETTINGS = {
  suite: { kind: "all" },
  policies: [{ id: "self-gc", params: { planner: "llm" } }, { id: "oldest-turn" }, { id: "tool-prune" }],
  judge: "dependency",
  match: "self-gc",
};

/** A plan folding the first function turn the planner's prompt shows. */
function plan(request: RecordedRequest): string {
  const id = /<turn id="function:([a-z_]+:\d+)"/.exec(promptOf(request).messages.at(-1)?.content ?? "")?.[1];
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${id ? `<fold kind="function" reason="stable_artifact">${id}</fold>` : ""}</gc_plan>`;
}

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub(plan);
});
after(() => stub.close());

for (const engine of ENGINES) {
  describe(`reproduction package of an LLM-planned, matched run on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, TRACE) })).status, "imported");
    });
    after(() => t.close());

    test("model-planned units are unavailable; the rest regenerate at the stored reference size without a model call", async () => {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      const llm = createLlmClient({
        provider: "openai",
        baseUrl: `${stub.baseUrl}/v1`,
        model: "stub-planner",
        timeoutMs: 10_000,
        maxRetries: 0,
        reasoning: "auto",
      });
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "export-llm", llm }), "done");
      const calls = stub.requests.length;
      assert.ok(calls > 0, "the run planned with the stub");

      const outcome = await buildReproductionPackage(t.db, created.runId, new Date("2026-11-27T12:00:00Z"));
      assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome));
      assert.equal(stub.requests.length, calls, "the export called no model");
      const root = outcome.filename.replace(/\.zip$/, "");
      const patches = readZip(Buffer.concat(outcome.chunks))
        .get(`${root}/candidate-patches.jsonl`)!
        .toString("utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { unitKey: string; policy: string; reproduced: boolean; unavailable?: string });
      const rows = await t.db.evalResult.findMany({ where: { runId: created.runId, error: null }, select: { unitKey: true, budget: true } });
      assert.deepEqual(new Set(patches.map((p) => p.unitKey)), new Set(rows.map((r) => r.unitKey)), "one patch per judged unit");
      const planned = patches.filter((p) => p.policy === "self-gc");
      assert.ok(planned.length > 0 && planned.every((p) => /planned by an LLM/.test(p.unavailable ?? "")));
      const others = patches.filter((p) => p.policy !== "self-gc");
      const matched = others.filter((p) => p.unitKey.endsWith("#match-self-gc"));
      assert.ok(matched.length > 0, "matched units of the other policies are in the package");
      assert.deepEqual(
        others.filter((p) => !p.reproduced || p.unavailable).map((p) => `${p.unitKey}: ${p.unavailable ?? "not reproduced"}`),
        [],
      );
    });
  });
}
