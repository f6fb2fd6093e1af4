import type { ViewMessage, ViewPart } from "../../compaction/projection/types";
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

/**
 * Same content as the original part: every field of the original equal, and no other content field
 * (`origin`, `objectId` and `action` are annotations). Shallow: a part's fields are strings,
 * numbers and booleans, and the harness copies untouched parts field for field.
 */
function samePart(original: Part, part: ViewPart): boolean {
  const annotated = part as unknown as Record<string, unknown>;
  const plain = original as unknown as Record<string, unknown>;
  let fields = 0;
  for (const key in annotated) {
    if (key === "origin" || key === "objectId" || key === "action" || annotated[key] === undefined) continue;
    fields++;
    if (annotated[key] !== plain[key]) return false;
  }
  let originalFields = 0;
  for (const key in plain) if (plain[key] !== undefined) originalFields++;
  return fields === originalFields;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
