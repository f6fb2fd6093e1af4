import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DEMO_SUITE, seedDemoTraces } from "../../server/demo/seed-demo-traces";
import { compactSession } from "../../server/compaction/compact-session";
import { createTestDb, type TestDb } from "../helpers/test-db";
import { TRACES_DIR, TRACES_NEW_DIR } from "../helpers/traces";
import { NEW_TRACE_COUNTS, REFUSED_NEW_TRACES } from "../helpers/traces-new";

/*
 * Issue 17, item 1, over the whole demo: `npm run studio` seeds the generated suite, every file of
 * ../shared/traces and the files of ../shared/traces-new that import; self-gc replayed on each of those sessions, as the replay page runs it (twice at
 * once, as the issue also did), must answer (never throw) with a projected view, the same both times.
 * With the blob store before the fix (temp names `<target>.<pid>.<ms>.tmp`) this fails with the
 * issue's own `ENOENT … rename '…/sidecars/70/….tmp'`. Empty sessions (item 6: an Aider "chat
 * started" block with no message) have no replay in the studio: they are only refused as a bad request.
 * The e2e walk (e2e/new-user-walk.spec.ts) does this through the browser for the generated suite and
 * a few uploaded files; this is the same replay on every demo session, which a browser cannot do in
 * a test's time. SQLite only: the engine does not matter to the blob store the item was about.
 */
describe("self-gc replayed on every demo session (the studio's seed)", () => {
  let t: TestDb;
  let saved: string | undefined;
  before(async () => {
    t = await createTestDb("sqlite");
    saved = process.env.TRACEFOLD_DATA_DIR;
    process.env.TRACEFOLD_DATA_DIR = t.dataDir; // the seed's redaction scratch files go there too
  });
  after(async () => {
    if (saved === undefined) delete process.env.TRACEFOLD_DATA_DIR;
    else process.env.TRACEFOLD_DATA_DIR = saved;
    await t.close();
  });

  test("every session with messages answers with a projected view; an empty one is refused as a bad request", async () => {
    const reports = await seedDemoTraces(t.db, t.store, { dataDir: t.dataDir, sharedTraces: TRACES_DIR, sharedTracesNew: TRACES_NEW_DIR });
    assert.deepEqual(
      reports.filter((r) => r.status === "failed").map((r) => r.file),
      [],
      "the whole demo imports",
    );
    const seededNew = reports.filter((r) => r.file.startsWith(TRACES_NEW_DIR)).map((r) => r.file.slice(TRACES_NEW_DIR.length + 1));
    for (const path of Object.keys(NEW_TRACE_COUNTS)) assert.ok(seededNew.includes(path), `${path} is seeded`);
    for (const path of Object.keys(REFUSED_NEW_TRACES)) assert.ok(!seededNew.includes(path), `${path} is left out`);
    const sessions = await t.db.traceSession.findMany({ select: { id: true, title: true, format: true, messageCount: true }, orderBy: { id: "asc" } });
    assert.ok(sessions.length > DEMO_SUITE.sessions, `the shared traces are seeded too (${sessions.length} sessions)`);

    const failures: string[] = [];
    for (const session of sessions) {
      // Twice at once, as a page does when `r` is pressed again while the first run is on the server.
      const replay = () => compactSession(t.db, t.store, { sessionId: session.id, policy: "self-gc" });
      const [outcome, again] = await Promise.all([replay(), replay()]);
      assert.deepEqual(again, outcome, `the same replay answers the same (${session.title})`);
      const name = `${session.format} "${session.title}"`;
      if (session.messageCount === 0) {
        if (outcome.ok || outcome.code !== "invalid_request") failures.push(`${name} (empty): ${outcome.ok ? "replayed" : outcome.code}`);
      } else if (!outcome.ok) failures.push(`${name}: ${outcome.code} ${outcome.message}`);
      else if (outcome.data.result.view.length === 0) failures.push(`${name}: empty projected view`);
    }
    assert.deepEqual(failures, []);
  });
});
