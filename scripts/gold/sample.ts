/**
 * Samples the units of the judge's gold set (issue 16) from ../shared/traces and writes, for each
 * sampled cut, a blind labelling packet: the real future, and for each distinct view of that cut
 * its full text, what it changed and the sidecars it names — never the policy or a judge verdict.
 *
 *   npx tsx scripts/gold/sample.ts [--traces DIR] [--out DIR] [--cuts N] [--pool main|rest]
 *
 * `--pool rest` samples a held-out set instead: sessions outside the Hard Set with fewer than 200
 * messages (none of the main gold set's), to measure the judge on units no rule was chosen on.
 *
 * Units: the Hard Set and every session of ≥ 200 messages, at the replay protocol's cuts where
 * self-gc committed; at each, self-gc and four baselines compacted to self-gc's view size (matched
 * budgets), plus codex and recent-token-fraction at their own settings (summaries); identical
 * views of one cut are one unit. Cuts are taken in a hash order of their key, so the sample is
 * deterministic and not chosen by looking at any verdict.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join, relative, resolve } from "node:path";
import { loadSessions, type LoadedSuite } from "../../cli/evaluation/load-sessions";
import { evaluateSuite, type JudgedUnitView } from "../../lib/evaluation/runner/evaluate-suite";
import { selectSuite } from "../../lib/evaluation/suites/suites";
import { findPolicy } from "../../lib/compaction/policies/registry";
import { findSidecarSource } from "../../lib/evaluation/calibration/sidecar-source";
import { viewDigest, type GoldUnit } from "../../lib/evaluation/calibration/gold";
import { compactView } from "../../lib/evaluation/views/compact-view";
import { budgetKey } from "../../lib/evaluation/cuts/budget";
import { renderChanges, renderFuture, renderPart, renderView } from "./render";

const MATCHED = ["self-gc", "oldest-turn", "tool-prune", "tool-mask-prune", "hybrid"];
const OWN = ["codex", "recent-token-fraction"];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

async function main(): Promise<void> {
  const traces = resolve(arg("--traces", resolve(__dirname, "../../../shared/traces")));
  const out = resolve(arg("--out", "/tmp/gold"));
  const maxCuts = Number(arg("--cuts", "40"));
  const loaded = await loadSessions([traces]);
  const hard = new Set(selectSuite(loaded.sessions, { kind: "hard" }).map((s) => s.session.id));
  const main = (s: (typeof loaded.sessions)[number]) => hard.has(s.session.id) || s.session.messages.length >= 200;
  const rest = arg("--pool", "main") === "rest";
  const chosen = loaded.sessions.filter((s) => (rest ? !main(s) : main(s)));
  console.error(rest ? `${chosen.length} sessions outside the main gold set's pool` : `${chosen.length} sessions (${hard.size} Hard Set, the rest ≥ 200 messages)`);

  const byCut = new Map<string, JudgedUnitView[]>();
  const collect = (view: JudgedUnitView) => {
    const key = `${view.session.id}#${view.cut.cut}`;
    byCut.set(key, [...(byCut.get(key) ?? []), view]);
  };
  const common = { sessions: chosen, tokenizerFor: loaded.tokenizerFor, onView: collect };
  for await (const item of evaluateSuite({ ...common, policies: MATCHED.map((id) => ({ policy: findPolicy(id)! })), ownSettings: false, match: "self-gc" })) {
    if (item.kind === "error") console.error(`failed ${item.key}: ${item.message}`);
  }
  for await (const item of evaluateSuite({ ...common, policies: OWN.map((id) => ({ policy: findPolicy(id)! })) })) {
    if (item.kind === "error") console.error(`failed ${item.key}: ${item.message}`);
  }

  const committed = [...byCut.entries()].filter(([, units]) => {
    const reference = units.find((u) => u.evaluation.policy === "self-gc");
    return reference && reference.result.tokensAfter < reference.result.tokensBefore;
  });
  const cuts = committed.sort(([a], [b]) => (hash(a) < hash(b) ? -1 : 1)).slice(0, maxCuts);
  console.error(`${committed.length} cuts where self-gc committed; sampling ${cuts.length}`);

  mkdirSync(join(out, "packets"), { recursive: true });
  const candidates: GoldUnit[] = [];
  for (const [key, units] of cuts) {
    const first = units[0]!;
    const session = first.session;
    const path = (loaded.sessions.find((s) => s.session.id === session.id) as LoadedSuite["sessions"][number]).path;
    const cutId = `c-${hash(key).slice(0, 8)}`;
    const dir = join(out, "packets", cutId);
    mkdirSync(join(dir, "parts"), { recursive: true });
    writeFileSync(join(dir, "future.txt"), renderFuture(session.messages, first.cut.cut));
    for (let m = first.cut.cut; m < session.messages.length; m++) {
      session.messages[m]!.parts.forEach((part, p) => writeFileSync(join(dir, "parts", `${m}.${p}.txt`), renderPart(part)));
    }
    writeFileSync(join(dir, "cut.txt"), `session ${session.title}\nformat ${session.format}\ncut ${first.cut.cut} of ${session.messages.length} messages (prefix = messages 0..${first.cut.cut - 1}, future = ${first.cut.cut}..${session.messages.length - 1})\nprefix tokens ${first.cut.prefixTokens}\n`);
    const seen = new Set<string>();
    for (const unit of units) {
      const compact = compactView(session.messages, unit.result.view);
      const digest = viewDigest(compact);
      if (seen.has(digest)) continue;
      seen.add(digest);
      const id = `g-${hash(`${unit.key}`).slice(0, 10)}`;
      const unitDir = join(dir, id);
      mkdirSync(join(unitDir, "sidecars"), { recursive: true });
      writeFileSync(join(unitDir, "view.txt"), renderView(unit.result.view));
      writeFileSync(join(unitDir, "changes.txt"), renderChanges(session.messages.slice(0, first.cut.cut), unit.result.view));
      for (const s of unit.result.sidecars) writeFileSync(join(unitDir, "sidecars", `${s.sha256.slice(0, 12)}.txt`), s.payload);
      writeFileSync(join(unitDir, "summary.txt"), `view tokens ${unit.result.tokensAfter} of ${unit.result.tokensBefore} (${(100 * unit.result.pruneRate).toFixed(1)}% removed)\nsidecars: ${unit.result.sidecars.map((s) => `${s.sha256.slice(0, 12)} (${s.target})`).join(", ") || "none"}\n`);
      candidates.push({
        id,
        trace: { path: relative(traces, path).split("\\").join("/"), sha256: await fileSha(path) },
        sessionId: session.id.replace(/#\d+$/, ""),
        cut: first.cut.cut,
        policy: unit.evaluation.policy,
        params: unit.evaluation.params,
        budget: unit.evaluation.budget ? budgetKey(unit.evaluation.budget) : null,
        pointers: "semantic",
        tokensBefore: unit.result.tokensBefore,
        tokensAfter: unit.result.tokensAfter,
        viewDigest: digest,
        view: compact,
        sidecars: unit.result.sidecars.map((s) => {
          const source = findSidecarSource(session.messages, first.cut.cut, s);
          return { digest: s.sha256, objectId: s.target, ...(source ? { source } : { payload: s.payload }) };
        }),
      });
    }
  }
  writeFileSync(join(out, "candidates.jsonl"), candidates.map((c) => JSON.stringify(c)).join("\n") + "\n");
  console.error(`${candidates.length} units in ${cuts.length} cuts → ${out}`);
}

const shaCache = new Map<string, string>();
async function fileSha(path: string): Promise<string> {
  const known = shaCache.get(path);
  if (known) return known;
  const { readFile } = await import("node:fs/promises");
  const digest = createHash("sha256").update(await readFile(path)).digest("hex");
  shaCache.set(path, digest);
  return digest;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
