import type { ContextIndex } from "../../../context/objects";
import type { Message, Session } from "../../../../trace/model";
import { messageChars } from "./history";
import { truncatePart, objectAt } from "./stage1-truncate";
import { compressPart, lastPassEnd } from "./stage2-compress";

/**
 * GA's own reading of C_H for `fires`, which cut selection calls at many cuts of one session: each
 * message's size after stage 1, and after stages 1+2, depends only on the message, so it is
 * computed once and memoised per message object (a WeakMap: no state a caller can observe, and
 * nothing kept alive once the session is dropped). Protection is ignored here — the trigger is
 * GA's, not the harness's; `decide` then measures exactly.
 */
interface MessageSizes {
  stage1: number;
  stage2: number;
}

const sizes = new WeakMap<Message, MessageSizes>();

function sizesOf(session: Session, index: ContextIndex, m: number): MessageSizes {
  const message = session.messages[m]!;
  const known = sizes.get(message);
  if (known) return known;
  const afterStage1 = message.parts.map((part, p) => truncatePart(part, objectAt({ index }, m, p)) ?? part);
  const afterStage2 = afterStage1.map((part) => compressPart(part) ?? part);
  const computed = { stage1: messageChars(message.role, afterStage1), stage2: messageChars(message.role, afterStage2) };
  sizes.set(message, computed);
  return computed;
}

/** C_H at `cut` as GA would measure it before deciding to evict (stage 1 everywhere, stage 2 up to its last pass). */
export function projectedHistoryChars(session: Session, index: ContextIndex, cut: number, interval: number, keepRecent: number): number {
  const entries: { role: Message["role"]; m: number }[] = [];
  for (let m = 0; m < cut; m++) if (session.messages[m]!.role !== "system") entries.push({ role: session.messages[m]!.role, m });
  const { end } = lastPassEnd(entries, interval, keepRecent);
  let chars = 0;
  entries.forEach((e, i) => {
    const s = sizesOf(session, index, e.m);
    chars += i < end ? s.stage2 : s.stage1;
  });
  return chars;
}
