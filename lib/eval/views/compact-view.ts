import type { ViewMessage, ViewPart } from "../../projection/types";
import type { Message, Part } from "../../trace/model";

/**
 * Views written compactly (the views export and the gold set, docs/views.schema.json): a view is
 * mostly the retained prefix verbatim, so a part that equals its original prefix part exactly is
 * written `{"same": {"message": m, "part": p}}` and read back from the prefix; every other part
 * (a fold pointer, a mask, a summary, a reminder) is written in full. `expandView` restores the
 * exact view `compactView` was given (up to the annotation fields `origin` / `objectId`, which a
 * `same` part takes from its reference).
 */
export interface SamePart {
  same: { message: number; part: number };
}

export type CompactPart = SamePart | (Part & { origin?: { message: number; part: number }; action?: ViewPart["action"]; objectId?: string });

export interface CompactMessage {
  role: ViewMessage["role"];
  origin: ViewMessage["origin"];
  parts: CompactPart[];
}

export function compactView(prefix: readonly Message[], view: readonly ViewMessage[]): CompactMessage[] {
  return view.map((message) => ({
    role: message.role,
    origin: message.origin,
    parts: message.parts.map((part) => {
      const original = part.origin && part.action === undefined ? prefix[part.origin.message]?.parts[part.origin.part] : undefined;
      return original && samePart(original, part) ? { same: { ...part.origin! } } : stripUndefined(part);
    }),
  }));
}

export function expandView(prefix: readonly Message[], compact: readonly CompactMessage[]): ViewMessage[] {
  return compact.map((message) => ({
    role: message.role,
    origin: message.origin,
    parts: message.parts.map((part) => {
      if (!("same" in part)) return part as ViewPart;
      const original = prefix[part.same.message]?.parts[part.same.part];
      if (!original) throw new RangeError(`view part refers to message ${part.same.message} part ${part.same.part}, which the prefix does not have`);
      return { ...original, origin: { ...part.same } };
    }),
  }));
}

/** Same content as the original part: every field of the original equal, and no other content field. */
function samePart(original: Part, part: ViewPart): boolean {
  const { origin: _origin, objectId: _objectId, action: _action, ...rest } = part;
  return canonical(rest) === canonical(original);
}

function canonical(value: object): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
