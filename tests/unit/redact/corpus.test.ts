import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { z } from "zod";
import { scanCorpus, type CorpusHit } from "../../helpers/scan-corpus";

/*
 * Every redaction rule (e-mail included) over every file of ../shared/traces and
 * ../shared/traces-new, compared with tests/fixtures/redaction-allow-list.json: the hits a person
 * reviewed and called a secret (or, for the e-mail rule, an address). A new hit fails until it is
 * reviewed — a hit that is ordinary data is a bug in the rule, not an entry — and a listed hit that
 * is no longer found fails too, so a rule cannot quietly stop finding what it found.
 */
const EntrySchema = z.object({
  file: z.string().regex(/^traces(-new)?\//),
  line: z.number().int().positive(),
  kind: z.string(),
  fingerprint: z.string().regex(/^[0-9a-f]{8}$/),
  count: z.number().int().min(2).optional(),
  reason: z.string().min(10, "every entry says why it is a secret"),
});
const ListSchema = z.object({ about: z.string(), entries: z.array(EntrySchema) });

const LIST = resolve(__dirname, "../../fixtures/redaction-allow-list.json");
const key = (h: { file: string; line: number; kind: string; fingerprint: string }) => `${h.file}:${h.line} ${h.kind} ${h.fingerprint}`;

test("every finding over the real traces is a reviewed secret, and every reviewed secret is still found", async () => {
  const listed = new Map(ListSchema.parse(JSON.parse(readFileSync(LIST, "utf8"))).entries.map((e) => [key(e), e]));
  const found = new Map<string, CorpusHit>((await scanCorpus()).map((h) => [key(h), h]));
  const unlisted = [...found.values()].filter((h) => !listed.has(key(h)));
  const lost = [...listed.values()].filter((e) => !found.has(key(e)));
  const miscounted = [...found.values()].filter((h) => listed.has(key(h)) && (listed.get(key(h))!.count ?? 1) !== h.count);
  const describe = (h: CorpusHit) =>
    JSON.stringify({
      file: h.file,
      line: h.line,
      kind: h.kind,
      fingerprint: h.fingerprint,
      ...(h.count > 1 ? { count: h.count } : {}),
      reason: "…why a person calls this a secret",
    });
  assert.deepEqual(
    unlisted.map(describe),
    [],
    "findings nobody reviewed: read each line; fix the rule unless it really is a secret, then list it with its reason",
  );
  assert.deepEqual(
    lost.map((e) => key(e)),
    [],
    "reviewed secrets the rules no longer find",
  );
  assert.deepEqual(
    miscounted.map((h) => `${key(h)} found ${h.count} times`),
    [],
  );
});
