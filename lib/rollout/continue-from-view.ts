import type { ViewMessage } from "../compaction/projection/types";
import type { Message, Part, Session } from "../trace/model";

/** The committed view as plain trace messages: what a harness keeps in place of the prefix it compacted. */
export function headFromView(work: Session, view: readonly ViewMessage[]): Message[] {
  return view.map((vm, i) => {
    const origin = typeof vm.origin === "number" ? work.messages[vm.origin] : undefined;
    return {
      index: i,
      role: vm.role,
      parts: vm.parts.map(plainPart),
      source: origin?.source ?? { file: `tracefold:simulate:${vm.origin}`, line: 1 },
      ...(origin?.timestamp ? { timestamp: origin.timestamp } : {}),
      ...(origin?.model ? { model: origin.model } : {}),
    };
  });
}

/** `head` followed by the original messages `from`..`to` (exclusive), re-indexed: a working session. */
export function withHead(session: Session, head: readonly Message[], from: number, to: number): Session {
  const tail = session.messages.slice(from, to).map((m, i) => ({ ...m, index: head.length + i }));
  return { ...session, messages: [...head, ...tail], compactions: [] };
}

function plainPart(part: ViewMessage["parts"][number]): Part {
  const { origin: _origin, action: _action, objectId: _objectId, ...rest } = part;
  return rest as Part;
}

/**
 * Model calls of a session: message indexes where an assistant step starts (the first assistant
 * message after a non-assistant one). The call's prompt is every message before it.
 */
export function callStarts(session: Session): number[] {
  const out: number[] = [];
  session.messages.forEach((m, k) => {
    if (m.role === "assistant" && (k === 0 || session.messages[k - 1]!.role !== "assistant")) out.push(k);
  });
  return out;
}
