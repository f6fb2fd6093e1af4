import assert from "node:assert/strict";
import { join } from "node:path";
import { createRun } from "../../server/evals/create-run";
import { runEvaluation } from "../../server/evals/run-evaluation";
import { importTraceFile } from "../../server/traces/import-trace-file";
import { createTestDb, type TestDb } from "./test-db";
import { TRACES_DIR } from "./traces";

/** A small real SWE-agent trajectory: a few cuts, so a queue over it is quick to make and label. */
export const JUDGED_RUN_TRACE = "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj";
const SETTINGS = { suite: { kind: "all" }, policies: ["none", "tool-prune"].map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };

/**
 * A fresh test database holding one real trace and a finished, dependency-judged evaluation run
 * over it (policies none and tool-prune): what the review tests make their queues from.
 */
export async function createJudgedRun(engine: "sqlite" | "postgres", name: string): Promise<{ t: TestDb; runId: string }> {
  const t = await createTestDb(engine);
  assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, JUDGED_RUN_TRACE) })).status, "imported");
  const created = await createRun(t.db, { settings: SETTINGS, name });
  assert.ok(created.ok, JSON.stringify(created));
  assert.equal(await runEvaluation(t.db, created.runId, { workerId: "test", llm: null }), "done");
  return { t, runId: created.runId };
}
