import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { compactSession } from "../../server/compaction/compact-session";
import { readSidecar } from "../../server/compaction/read-sidecar";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** A mini-swe-agent run whose self-gc replay folds the same payload more than once (issue 17). */
const TRACE = join(
  TRACES_DIR,
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/django__django-11099/django__django-11099.traj.json",
);

for (const engine of ENGINES) {
  describe(`the same self-gc replay fired several times at once on ${engine}`, () => {
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

    test("every run answers, each distinct payload is stored once and restores byte for byte", async () => {
      // What the page does when a replay is started while the previous request still runs on the server.
      const runs = await Promise.allSettled(Array.from({ length: 4 }, () => compactSession(t.db, t.store, { sessionId, policy: "self-gc" })));
      assert.deepEqual(
        runs.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)),
        [],
        "no run fails",
      );
      const answers = runs.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof compactSession>>>).value);
      for (const answer of answers) assert.ok(answer.ok, JSON.stringify(answer).slice(0, 300));
      const sidecars = answers[0]!.ok ? answers[0]!.data.result.sidecars : [];
      const digests = new Set(sidecars.map((s) => s.sha256));
      assert.ok(sidecars.length > digests.size, `the replay folds duplicate payloads (${sidecars.length} sidecars, ${digests.size} distinct)`);
      for (const answer of answers.slice(1)) assert.deepEqual(answer.ok ? answer.data.result.sidecars : [], sidecars, "every run answers the same");

      assert.equal(await t.db.sidecar.count({ where: { sessionId } }), digests.size, "one row per distinct payload");
      const full = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "self-gc" });
      assert.ok(full.ok);
      for (const sidecar of full.ok ? full.result.sidecars : []) {
        const restored = await readSidecar(t.db, t.store, sidecar.sha256);
        assert.equal(restored?.bytes.toString("utf8"), sidecar.payload);
      }
      const files = readdirSync(join(t.dataDir, "blobs", "sidecars"), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name);
      assert.equal(files.length, digests.size, "one blob per distinct payload");
      assert.deepEqual(
        files.filter((name) => name.endsWith(".tmp")),
        [],
        "no temp file left behind",
      );
    });
  });
}
