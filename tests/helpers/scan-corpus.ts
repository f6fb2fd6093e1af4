import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { redactLines, type LineRedaction, type RedactOptions } from "../../lib/redact";
import { TRACES_DIR, TRACES_NEW_DIR } from "./traces";

/** One finding in the real traces: `traces/<path>` or `traces-new/<path>`, 1-based line, kind, fingerprint, how often on that line. */
export interface CorpusHit {
  file: string;
  line: number;
  kind: string;
  fingerprint: string;
  count: number;
}

/** Every rule, e-mail addresses included (an admin may turn that rule on). */
export const EVERY_RULE: RedactOptions = { emails: true };

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Runs the redactor over every file of both trace sets, line by line as an upload is redacted
 * (lines split at `\n`, a `\r` before it dropped), and groups the findings by file, line, kind and
 * fingerprint. The secrets themselves never leave this function.
 */
export async function scanCorpus(options: RedactOptions = EVERY_RULE): Promise<CorpusHit[]> {
  const hits = new Map<string, CorpusHit>();
  for (const [name, root] of [
    ["traces", TRACES_DIR],
    ["traces-new", TRACES_NEW_DIR],
  ] as const) {
    for (const path of filesUnder(root)) {
      const file = `${name}/${relative(root, path).split("\\").join("/")}`;
      const lines = readFileSync(path, "utf8")
        .split("\n")
        .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
      const report: LineRedaction[] = [];
      for await (const _ of redactLines(lines, report, options)) void _;
      for (const r of report) {
        const key = `${file}|${r.line}|${r.kind}|${r.fingerprint}`;
        const hit = hits.get(key);
        if (hit) hit.count += 1;
        else hits.set(key, { file, line: r.line, kind: r.kind, fingerprint: r.fingerprint, count: 1 });
      }
    }
  }
  return [...hits.values()];
}
