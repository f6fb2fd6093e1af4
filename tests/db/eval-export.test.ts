import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseTrace } from "../../lib/trace/parse-trace";
import { sourceFromText } from "../../lib/trace/source";
import { createRun } from "../../server/evaluation/create-run";
import { buildReproductionPackage } from "../../server/evaluation/export/build-package";
import { getRunAggregates } from "../../server/evaluation/get-run-aggregates";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { readZip } from "../helpers/read-zip";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * The reproduction package of a finished run: its entries, the recompute script run with `node` on
 * the extracted files (it agrees with aggregates.json and fails on a tampered figure), candidate
 * patches that regenerate the stored tokens, and a secret planted in a session (a tool-call
 * argument, the tool's output and a later assistant quote, so it is also judge evidence) that
 * appears nowhere in the zip.
 */
const SECRET = `ghp_${"Zq7".repeat(12)}xY`;
const TRACE = "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl";
const POLICIES = ["none", "tool-prune", "self-gc"];
const CUT_LEVELS = [25, 50, 75];

/** An OpenAI chat session: eight shell rounds with long outputs; the token is read early and quoted late. */
function plantedSession(): string {
  const messages: unknown[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Set up the deploy script and push the release." },
  ];
  for (let i = 0; i < 8; i++) {
    const command = i === 1 ? `export GITHUB_TOKEN=${SECRET} && ./deploy.sh --dry-run` : `cat src/module_${i}.py`;
    const output =
      i === 1 ? `token set: ${SECRET}\n${"deploy step ok\n".repeat(60)}` : `# module ${i}\n${`def handler_${i}(x):\n    return x * ${i}\n`.repeat(40)}`;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "shell", arguments: JSON.stringify({ command }) } }],
    });
    messages.push({ role: "tool", tool_call_id: `call_${i}`, content: output });
    messages.push({ role: "assistant", content: i === 6 ? `Pushing with the token ${SECRET} from step 2.` : `Step ${i} done.` });
    messages.push({ role: "user", content: `Continue with step ${i + 2}.` });
  }
  messages.push({ role: "assistant", content: "All steps are done." });
  return JSON.stringify({ messages });
}

for (const engine of ENGINES) {
  describe(`reproduction package on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    let files: Map<string, Buffer>;
    let root: string;
    const tmp = mkdtempSync(join(tmpdir(), "tracefold-export-"));
    before(async () => {
      t = await createTestDb(engine);
      assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, TRACE) })).status, "imported");
      const planted = join(tmp, "planted.openai.json");
      writeFileSync(planted, plantedSession());
      const imported = await importTraceFile({ db: t.db, store: t.store, path: planted, format: "openai_chat" });
      assert.equal(imported.status, "imported", JSON.stringify(imported));
      // Non-default cut levels: the package must carry them, or a replay would judge other cuts.
      const created = await createRun(t.db, {
        settings: { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "dependency", cutLevels: CUT_LEVELS },
        name: `release ${SECRET}`,
      });
      assert.ok(created.ok, JSON.stringify(created));
      runId = created.runId;
      assert.equal(await runEvaluation(t.db, runId, { workerId: "export-test", llm: null }), "done");
      const outcome = await buildReproductionPackage(t.db, runId, new Date("2026-11-23T12:00:00Z"));
      assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome));
      root = outcome.filename.replace(/\.zip$/, "");
      assert.match(outcome.filename, /^tracefold-eval-release-redacted-github-token-[a-z0-9]{8}\.zip$/);
      const zip = Buffer.concat(outcome.chunks);
      assert.equal(zip.includes(SECRET), false, "the raw zip bytes do not hold the secret");
      files = readZip(zip);
      assert.deepEqual([...files.keys()], outcome.entries);
    });
    after(async () => {
      await t.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    const text = (name: string) => files.get(`${root}/${name}`)!.toString("utf8");
    const lines = (name: string) =>
      text(name)
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);

    test("holds every part of a reproduction, under one folder", async () => {
      const names = [...files.keys()].map((n) => n.slice(root.length + 1));
      for (const name of [
        "README.md",
        "settings.json",
        "aggregates.json",
        "judge-outputs.jsonl",
        "token-estimates.jsonl",
        "candidate-patches.jsonl",
        "prompts/planner-contract.txt",
        "prompts/judge-contract.txt",
        "prompts/ab-judge-contract.txt",
        "fixtures/sessions.tracefold.jsonl",
        "fixtures/redaction-report.json",
        "recompute.mjs",
      ]) {
        assert.ok(names.includes(name), `missing ${name}`);
      }
      assert.ok([...files.keys()].every((n) => n.startsWith(`${root}/`)));
      const units = await t.db.evalResult.count({ where: { runId } });
      assert.equal(lines("judge-outputs.jsonl").length, units);
      const estimates = lines("token-estimates.jsonl");
      const patches = lines("candidate-patches.jsonl");
      assert.equal(estimates.length, units, "no failed unit in this run");
      assert.deepEqual(
        patches.map((p) => p.unitKey),
        estimates.map((e) => e.unitKey),
      );
      assert.ok(
        patches.every((p) => p.reproduced === true),
        "regenerated patches have the stored tokens after",
      );
      assert.ok(patches.some((p) => (p.actions as unknown[]).length > 0));
      for (const p of patches)
        for (const a of p.actions as Record<string, unknown>[]) assert.deepEqual(Object.keys(a).slice(0, 3), ["target", "action", "rule"]);
      const selfGc = estimates.filter((e) => e.policy === "self-gc").length;
      assert.equal(names.filter((n) => n.startsWith("planner-outputs/self-gc/")).length, selfGc, "one planner XML per self-gc cut");
      assert.ok(estimates.every((e) => typeof e.tokenizer === "string" && (e.prefixTokens as number) > 0));
      const settings = JSON.parse(text("settings.json")) as { settings: { policies: { id: string }[]; judge: string; cutLevels: number[] } };
      assert.deepEqual(
        settings.settings.policies.map((p) => p.id),
        POLICIES,
      );
      assert.deepEqual(settings.settings.cutLevels, CUT_LEVELS);
      assert.ok(
        text("README.md").includes("`tracefold eval --cut-levels 25,50,75 --trigger 0.9 --pointers semantic`"),
        "the README's replay command names the levels",
      );
      const reasons = new Set(lines("judge-outputs.jsonl").map((u) => u.cutReason));
      assert.ok([...reasons].every((r) => ["native", "share-25", "share-50", "share-75"].includes(String(r))) && reasons.has("share-25"), [...reasons].join());
      assert.deepEqual(JSON.parse(text("aggregates.json")), JSON.parse(JSON.stringify(await getRunAggregates(t.db, runId))));
      // The fixtures import back: the same sessions and messages.
      const parsed = await parseTrace(sourceFromText("sessions.tracefold.jsonl", text("fixtures/sessions.tracefold.jsonl")));
      assert.equal(parsed.format, "tracefold_jsonl");
      assert.equal(parsed.sessions.length, 2);
      assert.deepEqual(
        parsed.sessions.map((s) => s.messages.length),
        JSON.parse(text("fixtures/redaction-report.json")).sessions.map((s: { messages: number }) => s.messages),
      );
    });

    test("a secret planted in a session appears nowhere in the package; the report says where it was", () => {
      for (const [name, data] of files) assert.equal(data.includes(SECRET), false, `${name} holds the secret`);
      assert.ok(text("fixtures/sessions.tracefold.jsonl").includes("[REDACTED:github_token]"));
      const report = JSON.parse(text("fixtures/redaction-report.json")) as { sessions: { redactions: { kind: string; field: string }[] }[]; total: number };
      const found = report.sessions.flatMap((s) => s.redactions);
      assert.ok(found.length >= 3 && found.every((r) => r.kind === "github_token"), JSON.stringify(found));
      assert.ok(found.some((r) => r.field.startsWith("arguments")) && found.some((r) => r.field === "content") && found.some((r) => r.field === "text"));
    });

    test("recompute.mjs run with node on the extracted files prints the aggregates and exits 0; a tampered figure exits 1", () => {
      const dir = join(tmp, `extract-${engine}`);
      for (const [name, data] of files) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), data);
      }
      const script = join(dir, root, "recompute.mjs");
      const ok = spawnSync(process.execPath, [script], { encoding: "utf8" });
      assert.equal(ok.status, 0, ok.stderr);
      const aggregates = JSON.parse(text("aggregates.json")) as {
        policies: { id: string; n: number; noImpactPct: number; prunePct: number; ci95: [number, number] }[];
      };
      for (const p of aggregates.policies) {
        const row = ok.stdout.split("\n").find((l) => l.startsWith(`${p.id} `));
        assert.ok(row, `no row for ${p.id}`);
        for (const figure of [p.noImpactPct.toFixed(2), p.prunePct.toFixed(2), `${p.ci95[0].toFixed(2)}-${p.ci95[1].toFixed(2)}`])
          assert.ok(row.includes(figure), `${row} lacks ${figure}`);
      }
      assert.match(ok.stdout, /OK: all \d+ figures of aggregates.json match/);

      const tampered = JSON.parse(readFileSync(join(dir, root, "aggregates.json"), "utf8")) as typeof aggregates;
      tampered.policies[1]!.prunePct += 0.01;
      writeFileSync(join(dir, root, "aggregates.json"), JSON.stringify(tampered));
      const bad = spawnSync(process.execPath, [script], { encoding: "utf8" });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, new RegExp(`MISMATCH ${tampered.policies[1]!.id}\\.prunePct`));
    });

    test("unfinished and unknown runs are refused with a clear message", async () => {
      const queued = await createRun(t.db, { settings: { suite: { kind: "all" }, policies: [{ id: "none" }], judge: "dependency" } });
      assert.ok(queued.ok);
      assert.deepEqual(await buildReproductionPackage(t.db, queued.runId), {
        ok: false,
        code: "conflict",
        message: "the run is queued; only finished runs can be exported (wait until it is done, or resume it)",
      });
      assert.deepEqual(await buildReproductionPackage(t.db, "no-such-run"), { ok: false, code: "not_found", message: "no such evaluation run" });
    });
  });
}
