import assert from "node:assert/strict";
import { test } from "node:test";
import { guessMapping } from "@/lib/online/usage/columns";
import { previewUsage } from "@/lib/online/usage/preview";
import { readUsageRows, UsageMappingError, type UsageItem } from "@/lib/online/usage/read-usage";

async function collect(chunks: string[], options: Parameters<typeof readUsageRows>[1]): Promise<UsageItem[]> {
  const out: UsageItem[] = [];
  for await (const item of readUsageRows(chunks, options)) out.push(item);
  return out;
}

/** Every way of cutting `text` into two chunks, to prove chunk boundaries never matter. */
function splits(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

const CSV =
  'ts,user_email,prompt_tokens,cached_tokens,completion_tokens,note\r\n2026-05-25T09:00:00Z,olga@x,1200,200,50,"say ""hi""\nthere"\r\n2026-05-25T09:05:00+02:00,nina@x,800,,10,plain\n';

test("CSV: guessed mapping, quotes, escaped quotes, newlines in cells, CRLF — whatever the chunking", async () => {
  for (const chunks of splits(CSV)) {
    const items = await collect(chunks, { format: "csv" });
    assert.equal(items.length, 2, JSON.stringify(chunks));
    assert.deepEqual(
      items.map((i) => (i.ok ? [i.line, i.row.account, i.row.inputTokens, i.row.cachedInputTokens] : i.issue)),
      [
        [2, "olga@x", 1200, 200],
        [4, "nina@x", 800, 0],
      ],
    );
  }
  const [, second] = await collect([CSV], { format: "csv" });
  assert.ok(second!.ok && second!.row.timestamp === Date.parse("2026-05-25T07:05:00Z"));
});

test("CSV errors are located by line and column with what was expected", async () => {
  const text = [
    "timestamp,account,input_tokens,cached_input_tokens",
    "2026-05-25T09:00:00Z,a@x,100,0",
    "2026-05-25 09:00:00,a@x,100,0",
    "2026-05-25T09:00:00Z,a@x,12.5,0",
    "2026-05-25T09:00:00Z,,100,0",
    "2026-05-25T09:00:00Z,a@x,100,150",
    "2026-05-25T09:00:00Z,a@x,100",
    '2026-05-25T09:00:00Z,"a@x"z,100,0',
    '2026-05-25T09:00:00Z,"open,100,0',
  ].join("\n");
  const items = await collect([text], { format: "csv" });
  const issues = items.filter((i) => !i.ok).map((i) => (i.ok ? null : i.issue));
  assert.equal(items.filter((i) => i.ok).length, 1);
  assert.deepEqual(
    issues.map((i) => [i!.line, i!.column ?? null]),
    [
      [3, "timestamp"],
      [4, "input_tokens"],
      [5, "account"],
      [6, "cached_input_tokens"],
      [7, null],
      [8, "#2"],
      [9, "#2"],
    ],
  );
  assert.match(issues[0]!.message, /ISO-8601 timestamp with a zone/);
  assert.equal(issues[0]!.found, "2026-05-25 09:00:00");
  assert.match(issues[1]!.expected, /whole number of tokens/);
  assert.match(issues[3]!.message, /cachedInputTokens \+ cacheWriteTokens ≤ inputTokens/);
  assert.match(issues[4]!.message, /expected 4 cells as in the header, found 3/);
  assert.match(issues[6]!.message, /closing quote/);
});

test("JSONL: dotted paths, overrides, bad JSON and missing values located", async () => {
  const text = [
    '{"time":"2026-05-25T10:00:00Z","email":"olga@x","usage":{"input_tokens":900,"output_tokens":9},"arm":"B"}',
    "{not json",
    '{"time":"2026-05-25T10:00:00Z","email":"nina@x","usage":{"output_tokens":9}}',
    "[1,2]",
  ].join("\n");
  const items = await collect([text], { format: "jsonl", overrides: { inputTokens: "usage.input_tokens", outputTokens: "usage.output_tokens", group: "arm" } });
  assert.ok(items[0]!.ok && items[0]!.row.inputTokens === 900 && items[0]!.row.group === "B" && items[0]!.row.outputTokens === 9);
  assert.deepEqual(
    items.slice(1).map((i) => (i.ok ? null : [i.issue.line, i.issue.column ?? null])),
    [
      [2, null],
      [3, "usage.input_tokens"],
      [4, null],
    ],
  );
});

test("an unusable mapping fails before the first row, naming the missing field or column", async () => {
  await assert.rejects(
    collect(["when,who\n1,a\n"], { format: "csv" }),
    (e: unknown) => e instanceof UsageMappingError && /no column mapped to timestamp, account, inputTokens/.test(e.message),
  );
  await assert.rejects(
    collect(["timestamp,account,input_tokens\n"], { format: "csv", overrides: { inputTokens: "tokens_in" } }),
    /"tokens_in" not in the header/,
  );
  await assert.rejects(collect(["timestamp,account,input_tokens\n"], { format: "csv", overrides: { inputs: "x" } }), /unknown usage field "inputs"/);
});

test("preview: guessed mapping, overrides, first rows, and a line cut by the sample end dropped", async () => {
  assert.deepEqual(guessMapping(["Created At", "Account Email", "Prompt Tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "Arm"]), {
    timestamp: "Created At",
    account: "Account Email",
    group: "Arm",
    inputTokens: "Prompt Tokens",
    cachedInputTokens: "cache_read_input_tokens",
    cacheWriteTokens: "cache_creation_input_tokens",
  });
  const preview = await previewUsage("when,user,in\n2026-05-25T10:00:00Z,a@x,5\n2026-05-25T11:00:00Z,b@x,7\n2026-05-25T12:0", {
    format: "csv",
    overrides: { timestamp: "when", inputTokens: "in" },
  });
  assert.deepEqual(preview.missing, []);
  assert.equal(preview.guessed.timestamp, undefined);
  assert.equal(preview.rows.length, 2);
  const missing = await previewUsage("when,user\n", { format: "csv" });
  assert.deepEqual(missing.missing, ["timestamp", "inputTokens"]);
});
