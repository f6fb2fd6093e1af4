import assert from "node:assert/strict";
import type { PolicyResult } from "../../../../lib/compaction/policies/types";
import { countViewMessage } from "../../../../lib/compaction/projection/materialize";
import { protectedSet } from "../../../../lib/compaction/projection/protect";
import { cachedTokenizer } from "../../../../lib/tokens";
import type { AnalyzedSession } from "../../../../lib/analysis/analyze";
import { sha256Hex } from "../../../../lib/util/sha256";

const tokenizer = cachedTokenizer("o200k");

/**
 * The harness invariants every policy result must hold (o200k sessions): the protected latest turn
 * appears unchanged, every tool result keeps its call and every call its results, folded payloads
 * restore byte for byte, the reported size is the view's size, summaries respect the cap, and the
 * view does not grow. Shared by the untargeted and the harness-target invariant tests.
 */
export function checkInvariants(s: AnalyzedSession, result: PolicyResult, where: string): void {
  const { session } = s;
  // The protected latest turn appears unchanged, in order.
  const protect = protectedSet(session.messages, s.index, result.cut);
  const byOrigin = new Map(result.view.filter((v) => typeof v.origin === "number").map((v) => [v.origin as number, v]));
  for (const m of protect.messages) {
    const viewed = byOrigin.get(m);
    assert.ok(viewed, `${where}: protected message ${m} missing from the view`);
    assert.deepEqual(
      viewed.parts.map(({ origin: _o, objectId: _id, action: _a, ...part }) => part),
      session.messages[m]!.parts,
      `${where}: protected message ${m} changed`,
    );
  }
  // Every tool result keeps its call, and every call keeps its results.
  const callsSeen = new Set<string>();
  const resultsSeen = new Set<string>();
  for (const message of result.view) {
    for (const part of message.parts) {
      if (part.type === "tool_call") callsSeen.add(part.id);
      if (part.type === "tool_result" && !part.orphan) {
        assert.ok(callsSeen.has(part.callId), `${where}: tool result ${part.callId} without its call`);
        resultsSeen.add(part.callId);
      }
    }
  }
  const answeredInPrefix = new Set<string>();
  session.messages.slice(0, result.cut).forEach((m) => m.parts.forEach((p) => p.type === "tool_result" && answeredInPrefix.add(p.callId)));
  for (const id of callsSeen) if (answeredInPrefix.has(id)) assert.ok(resultsSeen.has(id), `${where}: tool call ${id} lost its result`);
  // Folded payloads restore byte for byte.
  for (const sidecar of result.sidecars) assert.equal(sha256Hex(sidecar.payload), sidecar.sha256, `${where}: sidecar ${sidecar.target} digest`);
  // Accounting: the reported size is the view's size; summaries respect the cap.
  const recount = result.view.reduce((sum, m) => sum + countViewMessage(m, tokenizer), 0);
  assert.equal(result.tokensAfter, recount, `${where}: tokensAfter differs from the view's tokens`);
  if (result.summary) assert.ok(tokenizer.count(result.summary) <= 2_000, `${where}: summary over its cap`);
  assert.ok(result.tokensAfter <= result.tokensBefore * 1.02 + 200, `${where}: the view grew (${result.tokensBefore} → ${result.tokensAfter})`);
}
