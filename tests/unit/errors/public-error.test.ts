import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { mock, test } from "node:test";
import { PolicyParamError } from "../../../lib/compaction/policies/params";
import { publicMessage, PublicError } from "../../../server/errors/public-error";
import { LlmError } from "../../../server/llm/errors";
import { BlobNotFoundError } from "../../../server/storage/blob-key";

/** Calls publicMessage with console.error captured: what the user sees, and what the log got. */
function shown(error: unknown, context = "test") {
  const log = mock.method(console, "error", () => undefined);
  try {
    const message = publicMessage(error, context);
    return { message, logged: log.mock.calls.map((call) => call.arguments) };
  } finally {
    log.mock.restore();
  }
}

test("a Node ENOENT error is shown as an internal error with a ref, its path and stack only in the log", async () => {
  const path = "/srv/tracefold/data/sidecars/70/70aa.4242.1795681797136.tmp";
  const error = await readFile(path).catch((e: unknown) => e);
  assert.match(String((error as Error).message), /ENOENT/, "a real system error");
  const { message, logged } = shown(error, "compact s1");
  assert.match(message, /^internal error \(ref [0-9a-f]{8}\)$/);
  assert.ok(!message.includes("/srv") && !message.includes("ENOENT") && !message.includes(" at "), message);
  const ref = /ref ([0-9a-f]{8})/.exec(message)![1]!;
  assert.equal(logged.length, 1, "logged once");
  assert.equal(logged[0]![0], `compact s1 [ref ${ref}]:`, "the log line carries the ref the user sees");
  assert.equal(logged[0]![1], error, "the whole error (path, stack) goes to the log");
});

test("unexpected errors of any shape are hidden, each under its own ref", () => {
  const prismaLike = Object.assign(new Error("Invalid `db.sidecar.upsert()` invocation in\n/work/server/policies/run-session-policy.ts:63:22"), {
    code: "P2002",
  });
  const refs = new Set<string>();
  for (const error of [
    new TypeError("Cannot read properties of undefined (reading 'x')"),
    prismaLike,
    "a thrown string /etc/passwd",
    { message: "/a/path" },
    undefined,
  ]) {
    const { message, logged } = shown(error);
    assert.match(message, /^internal error \(ref [0-9a-f]{8}\)$/);
    assert.equal(logged.length, 1);
    refs.add(message);
  }
  assert.equal(refs.size, 5, "refs differ");
});

test("domain errors keep their own messages and are not logged as internal", () => {
  const errors = [
    new PublicError("judge=llm needs an LLM endpoint"),
    new PolicyParamError("budget: must be a number"),
    new LlmError("http_error", "openai answered HTTP 500", { provider: "openai", attempts: 1, status: 500, retryable: true }),
    new BlobNotFoundError(`sidecars/ab/ab${"0".repeat(62)}`),
  ];
  for (const error of errors) {
    const { message, logged } = shown(error);
    assert.equal(message, error.message);
    assert.deepEqual(logged, []);
  }
});
