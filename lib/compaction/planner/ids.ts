import type { PlanObjectKind } from "./plan-types";

/**
 * Object ids as planners may write them (seed 000, Listing 2): the short form `user:5` /
 * `read:12`, or the full form `conversation:user:5` / `function:read:12`. Tool names are the
 * normalised names of lib/compaction/context/tool-names (lower-case, `_`-separated).
 */
export type IdResolution = { ok: true; id: string; kind: PlanObjectKind } | { ok: false; problem: "bad_id" | "kind_mismatch"; message: string };

const FULL_CONVERSATION = /^conversation:user:([1-9]\d*)$/;
const FULL_FUNCTION = /^function:([a-z0-9][a-z0-9_]*):([1-9]\d*)$/;
const SHORT = /^([a-z0-9][a-z0-9_]*):([1-9]\d*)$/;

/** Which kind a written id denotes on its own (undefined when malformed). */
export function kindOfWrittenId(written: string): PlanObjectKind | undefined {
  if (FULL_CONVERSATION.test(written)) return "conversation";
  if (FULL_FUNCTION.test(written)) return written.startsWith("function:user:") ? undefined : "function";
  const short = SHORT.exec(written);
  if (!short) return undefined;
  return short[1] === "user" ? "conversation" : "function";
}

/** Canonical id for `written` under the element's `kind`, or why it cannot be one. */
export function resolveWrittenId(written: string, kind: PlanObjectKind): IdResolution {
  const own = kindOfWrittenId(written);
  if (!own) {
    return {
      ok: false,
      problem: "bad_id",
      message: `"${written}" is not an object id (expected user:<n>, <tool>:<n>, conversation:user:<n> or function:<tool>:<n>)`,
    };
  }
  if (own !== kind) {
    return { ok: false, problem: "kind_mismatch", message: `"${written}" names a ${own} object but the element says kind="${kind}"` };
  }
  if (written.startsWith("conversation:") || written.startsWith("function:")) return { ok: true, id: written, kind };
  return { ok: true, id: kind === "conversation" ? `conversation:${written}` : `function:${written}`, kind };
}

/** The short form Listing 2 uses (`conversation:user:5` → `user:5`). */
export function shortId(id: string): string {
  return id.replace(/^(conversation|function):/, "");
}
