import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { after } from "node:test";
import type { z } from "zod";
import { EvalReportSchema } from "../../lib/evaluation/aggregate/report-contract";
import { TRACES_DIR } from "./traces";

/**
 * `tracefold eval` end to end through the real binary, on a handful of real traces of five
 * formats (the whole ../shared/traces run is the README's timing, not a unit test): what
 * tests/unit/cli/eval-*.test.ts share.
 */
export const BIN = resolve(__dirname, "../../cli/bin.mjs");
export const SUBSET = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/short.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
  "aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md",
];
export const TOOL_HEAVY = join(TRACES_DIR, SUBSET[0]!);

/** The documented contract (lib/evaluation/aggregate/report-contract.ts, strict) plus the ranges every figure keeps. */
const pctIn = (x: number | null) => x === null || (x >= 0 && x <= 100);
export const ReportSchema = EvalReportSchema.superRefine((report, ctx) => {
  for (const [i, p] of report.policies.entries()) {
    for (const key of ["prunePct", "noImpactPct", "visibleNoImpactPct", "restorableNoImpactPct"] as const) {
      if (!pctIn(p[key])) ctx.addIssue({ code: "custom", path: ["policies", i, key], message: `out of 0–100: ${p[key]}` });
    }
    if (!pctIn(p.ci95[0]) || !pctIn(p.ci95[1])) ctx.addIssue({ code: "custom", path: ["policies", i, "ci95"], message: "out of 0–100" });
  }
});
export type Report = z.infer<typeof ReportSchema>;

/**
 * The CLI's environment without LLM settings; DATABASE_URL names a database that does not exist, so
 * an endpoint an admin saved in the developer's own studio database cannot leak into these tests.
 */
export function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TRACEFOLD_LLM_")));
  return { ...clean, DATABASE_URL: "file:./data/no-such-workspace-for-cli-tests.db", ...extra } as unknown as NodeJS.ProcessEnv;
}

export function tracefold(args: string[], extra: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, "eval", ...args], { encoding: "utf8", env: env(extra), maxBuffer: 16 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Asynchronous, so a stub server in this process can answer while the CLI runs. */
export function tracefoldAsync(args: string[], extra: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return tracefoldCommandAsync("eval", args, extra);
}

/** Any `tracefold <command>` in a child process, asynchronous (a stub in this process answers it), without the developer's LLM settings. */
export function tracefoldCommandAsync(
  command: string,
  args: string[],
  extra: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, command, ...args], { env: env(extra) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Exactly one line on stdout, one JSON object in the contract's shape. */
export function parseReport(stdout: string): Report {
  const lines = stdout.split("\n").filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `expected exactly one line of JSON, got ${lines.length}`);
  return ReportSchema.parse(JSON.parse(lines[0]!));
}

/** Copies (listTraceFiles skips symlinks) each file into its own folder, names kept. */
export function copyTraces(paths: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-eval-"));
  paths.forEach((path, i) => {
    mkdirSync(join(dir, String(i)));
    copyFileSync(join(TRACES_DIR, path), join(dir, String(i), basename(path)));
  });
  return dir;
}

/** A copy of SUBSET for one test file, removed after its tests. */
export function copySubsetForFile(): string {
  const dir = copyTraces(SUBSET);
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
