import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import { readSidecar } from "../../server/compaction/read-sidecar";
import { llmClientFromEnv } from "../../server/llm/client";
import { startLlmStub, type LlmStub } from "../helpers/llm-stub-server";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"); // cut 211: before the response at line 1084 (293 messages, 408 records)

for (const engine of ENGINES) {
  describe(`server-side policy runs on ${engine}`, () => {
    let t: TestDb;
    let sessionId: string;
    before(async () => {
      t = await createTestDb(engine);
      const outcome = await importTraceFile({ db: t.db, store: t.store, path: TRACE });
      assert.equal(outcome.status, "imported");
      sessionId = outcome.status === "imported" ? outcome.sessions[0]!.id : "";
    });
    after(async () => {
      await t.close();
    });

    test("a stored session replays with the ids and token counts it was imported with", async () => {
      const run = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "none", cut: 200 });
      assert.ok(run.ok);
      if (!run.ok) return;
      const stored = await t.db.traceMessage.aggregate({ where: { sessionId, index: { lt: 200 } }, _sum: { tokens: true } });
      assert.equal(run.result.tokensBefore, stored._sum.tokens);
      assert.equal(run.result.tokensAfter, run.result.tokensBefore);
    });

    test("every folded object restores byte for byte from its persisted sidecar", async () => {
      const run = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "oldest-turn", cut: 211 });
      assert.ok(run.ok);
      if (!run.ok) return;
      assert.ok(run.result.sidecars.length > 0, "oldest-turn folds something at cut 211");
      for (const sidecar of run.result.sidecars) {
        const restored = await readSidecar(t.db, t.store, sidecar.sha256);
        assert.ok(restored);
        assert.equal(restored.bytes.toString("utf8"), sidecar.payload);
        assert.equal(restored.bytes.length, sidecar.bytes);
      }
    });

    test("unknown sessions, policies and out-of-range cuts are refused with a reason", async () => {
      assert.deepEqual(await runSessionPolicy(t.db, t.store, { sessionId: "nope", policyId: "none" }), {
        ok: false,
        code: "not_found",
        message: "no such session",
      });
      const badPolicy = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "nope" });
      assert.equal(badPolicy.ok, false);
      const badCut = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "none", cut: 100_000 });
      assert.equal(badCut.ok, false);
      assert.equal(await readSidecar(t.db, t.store, "../../etc/passwd"), null);
    });
  });
}

describe("server-side self-gc with the LLM planner from the environment", () => {
  let t: TestDb;
  let stub: LlmStub;
  let sessionId: string;
  before(async () => {
    t = await createTestDb("sqlite");
    const outcome = await importTraceFile({ db: t.db, store: t.store, path: TRACE });
    sessionId = outcome.status === "imported" ? outcome.sessions[0]!.id : "";
    stub = await startLlmStub((request) => {
      const prompt = JSON.stringify(request.body);
      const id = /function:(read:\d+)/.exec(prompt)?.[1] ?? "read:1";
      return `<above_conversation_summary>Coding session; keep paths.</above_conversation_summary>\n<gc_plan>\n  <fold kind="function" reason="stable_artifact">${id}</fold>\n</gc_plan>`;
    });
  });
  after(async () => {
    await stub.close();
    await t.close();
  });

  test("planner=llm calls the configured endpoint and its plan goes through rehearsal", async () => {
    const llm = llmClientFromEnv({
      TRACEFOLD_LLM_PROVIDER: "openai",
      TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
      TRACEFOLD_LLM_API_KEY: "sk-test",
      TRACEFOLD_LLM_MODEL: "stub",
    });
    assert.ok(llm, "the environment configures a client");
    const run = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "self-gc", cut: 211, params: { planner: "llm" }, llm });
    assert.ok(run.ok);
    assert.equal(stub.requests.length, 1);
    assert.match(JSON.stringify(stub.requests[0]!.body), /gc_plan/);
  });

  test("without a configured endpoint planner=llm fails with a clear message", async () => {
    await assert.rejects(runSessionPolicy(t.db, t.store, { sessionId, policyId: "self-gc", cut: 211, params: { planner: "llm" } }), /TRACEFOLD_LLM/);
  });
});
