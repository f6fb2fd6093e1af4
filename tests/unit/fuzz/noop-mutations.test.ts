import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "node:test";
import { checkParse } from "../../helpers/fuzz/check-parse";
import { loadSeeds } from "../../helpers/fuzz/seeds";
import { FUZZ_SEED, fuzzParams } from "../../helpers/fuzz/settings";

/**
 * Changes that do not change a trace — CRLF line endings, a UTF-8 BOM, a missing or extra final
 * newline — must import identically: same sessions, same messages, same issues and lines.
 */
const seeds = loadSeeds();
const NOOPS: Record<string, (text: string) => Uint8Array> = {
  crlf: (text) => encode(text.replace(/\n/g, "\r\n")),
  bom: (text) => withBom(encode(text)),
  crlfBom: (text) => withBom(encode(text.replace(/\n/g, "\r\n"))),
  noFinalNewline: (text) => encode(text.replace(/\n+$/, "")),
  extraFinalNewline: (text) => encode(text.endsWith("\n") ? text : `${text}\n`),
};

test(`no-op edits of every seed import identically (seed ${FUZZ_SEED})`, { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), fc.constantFrom(...Object.keys(NOOPS)), async (index, noop) => {
      const seed = seeds[index]!;
      const original = await checkParse(seed.name, encode(seed.text), seed.format);
      const edited = await checkParse(seed.name, NOOPS[noop]!(seed.text), seed.format);
      assert.deepEqual(edited.result, original.result, `${noop} changed the import of ${seed.name}`);
    }),
    fuzzParams(300),
  );
});

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function withBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(bytes, 3);
  return out;
}
