import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeActionResult, encodeActionArgs } from "../../../scripts/bench/load/studio-client";

describe("bench:load's server-action client", () => {
  test("strings starting with $ are escaped as React's client does, at any depth; other values are plain JSON", () => {
    const args = [{ queueId: "q1", draft: { kind: "dependency", value: "$HOME/.config", type: "path", spans: ["$1", "a$b", ""] }, version: 1 }];
    assert.equal(
      encodeActionArgs(args),
      JSON.stringify([{ queueId: "q1", draft: { kind: "dependency", value: "$$HOME/.config", type: "path", spans: ["$$1", "a$b", ""] }, version: 1 }]),
    );
    assert.equal(encodeActionArgs(["$"]), JSON.stringify(["$$"]));
  });

  test("an answer's escaped $ strings decode back to the value that was returned", () => {
    const answer = Buffer.from(`0:{"a":"$@1"}\n1:{"ok":true,"data":{"value":"$$HOME","plain":"x"}}\n`);
    assert.deepEqual(decodeActionResult(answer), { ok: true, data: { value: "$HOME", plain: "x" } });
  });
});
