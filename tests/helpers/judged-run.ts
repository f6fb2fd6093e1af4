import assert from "node:assert/strict";
import { join } from "node:path";
import { createRun } from "../../server/evaluation/create-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, type TestDb } from "./test-db";
import { TRACES_DIR } from "./traces";

/** A small real SWE-agent trajectory: a few cuts, so a queue over it is quick to make and label. */
export const JUDGED_RUN_TRACE = "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj";

/**
 * A fresh test database holding real traces (default: JUDGED_RUN_TRACE) and a finished,
 * dependency-judged evaluation run over them (default policies: none and tool-prune; default cut
 * levels unless `cutLevels` says otherwise): what the
 * review tests make their queues from.
 */
export async function createJudgedRun(
  engine: "sqlite" | "postgres",
  name: string,
  options: { traces?: readonly string[]; policies?: readonly string[]; cutLevels?: readonly number[] } = {},
): Promise<{ t: TestDb; runId: string }> {
  const t = await createTestDb(engine);
  for (const path of options.traces ?? [JUDGED_RUN_TRACE])
    assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported", path);
  const settings = {
    suite: { kind: "all" },
    policies: (options.policies ?? ["none", "tool-prune"]).map((id) => ({ id })),
    judge: "dependency",
    triggerLevel: 0.9,
    ...(options.cutLevels ? { cutLevels: [...options.cutLevels] } : {}),
  };
  const created = await createRun(t.db, { settings, name });
  assert.ok(created.ok, JSON.stringify(created));
  assert.equal(await runEvaluation(t.db, created.runId, { workerId: "test", llm: null }), "done");
  return { t, runId: created.runId };
}
