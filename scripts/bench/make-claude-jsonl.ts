import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";

/**
 * Builds a large Claude Code session JSONL by repeating a real session's records with rewritten
 * ids (so call/result links stay one-to-one), until `targetBytes` is reached. A `salt` goes into
 * every rewritten id, so files made with different salts differ byte-wise (distinct uploads).
 */
export async function makeClaudeJsonl(sourcePath: string, outPath: string, targetBytes: number, salt = ""): Promise<number> {
  const lines = (await readFile(sourcePath, "utf8")).split("\n").filter(Boolean);
  const out = createWriteStream(outPath);
  let written = 0;
  for (let round = 0; written < targetBytes; round++) {
    for (const line of lines) {
      const rewritten = line.replaceAll("toolu_", `toolu_${salt}r${round}_`).replaceAll('"uuid":"', `"uuid":"${salt}r${round}-`);
      written += Buffer.byteLength(rewritten) + 1;
      if (!out.write(`${rewritten}\n`)) await once(out, "drain");
      if (written >= targetBytes) break;
    }
  }
  out.end();
  await once(out, "finish");
  return written;
}
