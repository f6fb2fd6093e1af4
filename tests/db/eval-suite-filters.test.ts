import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadSessions } from "../../cli/evaluation/load-sessions";
import { suiteSpec } from "../../cli/evaluation/options";
import { replayCuts } from "../../lib/evaluation/cuts/cut-protocol";
import { formatSuiteFilterText, parseSuiteFilterText } from "../../lib/evaluation/suites/suite-filter-text";
import { selectSuite } from "../../lib/evaluation/suites/suites";
import { createRun } from "../../server/evaluation/create-run";
import { parseStoredSettings } from "../../server/evaluation/run-settings";
import { resolveSuite } from "../../server/evaluation/suites/resolve-suite";
import { deleteSuiteFilter, saveSuiteFilter } from "../../server/evaluation/suites/save-suite-filter";
import { findSavedFilter } from "../../server/evaluation/suites/saved-filters";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** Three formats; workloads file, shell and mixed; 9 to 208 messages. */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/short.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/sqlfluff__sqlfluff-1763/sqlfluff__sqlfluff-1763.traj.json",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/django__django-12125/django__django-12125.traj.json",
].map((p) => join(TRACES_DIR, p));
const BASE = { suite: { kind: "all" }, policies: [{ id: "tool-prune" }], judge: "dependency", triggerLevel: 0.9 };

for (const engine of ENGINES) {
  describe(`saved suite filters on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path })).status, "imported", path);
    });
    after(async () => {
      await t.close();
    });

    /** What `tracefold eval <TRACES> --filter <text> [--suite hard]` selects: trace ids and replay cuts. */
    async function cliSelection(text: string, suite: "all" | "hard") {
      const loaded = await loadSessions(TRACES);
      const chosen = selectSuite(loaded.sessions, suiteSpec({ suite, filter: parseSuiteFilterText(text) }));
      return { ids: chosen.map((s) => s.session.id), cuts: chosen.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0) };
    }

    async function externalIds(sessionIds: string[]): Promise<string[]> {
      const rows = await t.db.traceSession.findMany({ where: { id: { in: sessionIds } }, select: { id: true, externalId: true } });
      return sessionIds.map((id) => rows.find((r) => r.id === id)!.externalId);
    }

    test("a run created with a saved filter resolves the same sessions and cuts as the CLI's --filter", async () => {
      const saved = await saveSuiteFilter(t.db, { name: "Long file or shell work", filter: { workloads: ["shell", "file"], minMessages: 30 } });
      assert.ok(saved.ok, JSON.stringify(saved));
      const text = formatSuiteFilterText((await findSavedFilter(t.db, saved.id))!.filter);
      assert.equal(text, "workload=shell,workload=file,minMessages=30");

      for (const kind of ["all", "hard"] as const) {
        const created = await createRun(t.db, { settings: { ...BASE, suite: { kind } }, savedFilterId: saved.id });
        assert.ok(created.ok, JSON.stringify(created));
        const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
        const settings = parseStoredSettings(run.settings);
        assert.deepEqual(
          settings.suite,
          { kind: kind === "hard" ? "hard" : "filter", filter: { workloads: ["shell", "file"], minMessages: 30 }, name: "Long file or shell work" },
          "the resolved filter is stored",
        );
        const cli = await cliSelection(text, kind);
        assert.deepEqual(await externalIds(JSON.parse(run.sessionIds) as string[]), cli.ids, kind);
        assert.equal(run.total, cli.cuts, `${kind}: one policy, so total = cuts`);
        assert.ok(cli.ids.length > 0 && cli.ids.length < TRACES.length, `${kind} selects a strict subset (${cli.ids.length})`);
      }
      assert.deepEqual((await cliSelection(text, "all")).ids.length, 3);
    });

    test("editing or deleting the saved filter leaves a created run's settings alone", async () => {
      const saved = await saveSuiteFilter(t.db, { name: "claude", filter: { formats: ["claude_code_jsonl"] } });
      assert.ok(saved.ok);
      const created = await createRun(t.db, { settings: BASE, savedFilterId: saved.id });
      assert.ok(created.ok);
      const again = await saveSuiteFilter(t.db, { name: "claude", filter: { formats: ["claude_code_jsonl"], maxMessages: 10 } });
      assert.deepEqual(again, { ok: true, id: saved.id }, "saving under the same name replaces the filter");
      assert.equal(await deleteSuiteFilter(t.db, saved.id), true);
      assert.equal(await deleteSuiteFilter(t.db, saved.id), false);
      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual(parseStoredSettings(run.settings).suite, { kind: "filter", filter: { formats: ["claude_code_jsonl"] }, name: "claude" });
      assert.deepEqual(await createRun(t.db, { settings: BASE, savedFilterId: saved.id }), {
        ok: false,
        code: "unknown_filter",
        message: "the saved filter no longer exists; pick another suite",
        fieldErrors: { suite: ["the saved filter no longer exists"] },
      });
    });

    test("filters are validated with located messages; an empty result is refused", async () => {
      const bad = await saveSuiteFilter(t.db, { name: " ", filter: { minTokens: -1, workloads: ["gpu"] } });
      assert.equal(bad.ok, false);
      assert.deepEqual(!bad.ok && bad.fieldErrors, {
        name: ["give the filter a name"],
        "filter.workloads.0": ["workload must be one of browser, shell, web, file, code, other, mixed, none"],
        "filter.minTokens": ["minTokens must be 0 or more"],
      });
      const inverted = await saveSuiteFilter(t.db, { name: "inverted", filter: { minMessages: 50, maxMessages: 10 } });
      assert.deepEqual(!inverted.ok && inverted.fieldErrors, { "filter.maxMessages": ["maxMessages (10) is below minMessages (50)"] });
      const empty = await createRun(t.db, { settings: { ...BASE, suite: { kind: "filter", filter: { workloads: ["browser"] } } } });
      assert.deepEqual(empty, { ok: false, code: "empty_suite", message: "the suite selects no sessions" });
    });

    test("custom policy parameters are stored; wrong ones are refused by field", async () => {
      const created = await createRun(t.db, {
        settings: {
          ...BASE,
          policies: [
            { id: "tool-prune", params: { targetRatio: 0.5 } },
            { id: "hybrid", params: { keepRecentTurns: 4 } },
          ],
        },
      });
      assert.ok(created.ok, JSON.stringify(created));
      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual(parseStoredSettings(run.settings).policies, [
        { id: "tool-prune", params: { targetRatio: 0.5 } },
        { id: "hybrid", params: { keepRecentTurns: 4 } },
      ]);
      const bad = await createRun(t.db, {
        settings: { ...BASE, policies: [{ id: "none" }, { id: "hybrid", params: { keepRecentTurns: "four", keepEverything: true } }] },
      });
      assert.equal(bad.ok, false);
      assert.deepEqual(!bad.ok && bad.fieldErrors, {
        "policies.1.params.keepRecentTurns": ['policy hybrid parameter keepRecentTurns must be a number, got "four"'],
        "policies.1.params.keepEverything": ["policy hybrid has no parameter keepEverything (parameters: targetRatio, triggerRatio, keepRecentTurns)"],
      });
    });

    test("suites resolve from cached summaries: a cached row is what selection reads", async () => {
      const all = await resolveSuite(t.db, { kind: "all" });
      const rows = await t.db.sessionSummaryRow.findMany({ where: { tokenizer: "session" } });
      assert.equal(rows.length, all.sessionIds.length, "one summary per stored session");
      // Mark one session's cached summary; a filter only the marked summary satisfies must find it, so nothing re-parsed the trace.
      const marked = rows[0]!;
      await t.db.sessionSummaryRow.update({
        where: { sessionId_tokenizer: { sessionId: marked.sessionId, tokenizer: "session" } },
        data: { summary: JSON.stringify({ ...JSON.parse(marked.summary), messages: 99_999 }) },
      });
      assert.deepEqual((await resolveSuite(t.db, { kind: "filter", filter: { minMessages: 99_999 } })).sessionIds, [marked.sessionId]);
      await t.db.sessionSummaryRow.update({ where: { sessionId_tokenizer: { sessionId: marked.sessionId, tokenizer: "session" } }, data: { version: 0 } });
      assert.deepEqual(
        (await resolveSuite(t.db, { kind: "filter", filter: { minMessages: 99_999 } })).sessionIds,
        [],
        "a row of another version is recomputed",
      );
      const chars4 = await resolveSuite(t.db, { kind: "all" }, "chars4");
      assert.deepEqual(chars4.sessionIds, all.sessionIds);
      assert.equal(await t.db.sessionSummaryRow.count({ where: { tokenizer: "chars4" } }), all.sessionIds.length, "summaries are per tokenizer");
    });
  });
}
