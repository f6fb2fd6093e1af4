import assert from "node:assert/strict";
import { test } from "node:test";
import { progressView, type UploadItem } from "../../../../components/trace/upload/upload-item";

const file = { name: "t.jsonl", size: 10 } as File;
const item = (patch: Partial<UploadItem>): UploadItem => ({ key: "k", file, progress: 0, phase: "queued", ...patch });

test("a refused file shows a failed state, not the full bar of a success", () => {
  const failed = item({ phase: "done", progress: 1, response: { ok: false, code: "invalid_trace", message: "bad" } as never });
  assert.deepEqual(progressView(failed), { kind: "failed" });
  const tooLarge = item({ phase: "done", progress: 0, response: { ok: false, code: "too_large", message: "big" } as never });
  assert.deepEqual(progressView(tooLarge), { kind: "failed" });
});

test("sending shows the share sent, a worker's import a busy bar, a success the full bar", () => {
  assert.deepEqual(progressView(item({ phase: "queued", progress: 0.5 })), { kind: "bar", value: 0 });
  assert.deepEqual(progressView(item({ phase: "uploading", progress: 0.5 })), { kind: "bar", value: 0.5 });
  assert.deepEqual(progressView(item({ phase: "waiting", progress: 1 })), { kind: "busy" });
  const imported = item({ phase: "done", progress: 1, response: { ok: true, data: { status: "imported" } } as never });
  assert.deepEqual(progressView(imported), { kind: "bar", value: 1 });
});
