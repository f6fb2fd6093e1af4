import type { ContextIndex, ContextObject } from "../context/objects";
import type { Session } from "../../trace/model";
import { semanticRoute } from "./route";

/**
 * The harness's one pointer writer (issue 16: "pointers belong to the harness"). Every fold of
 * every policy leaves the text written here, which depends only on the folded object, the fold's
 * granularity (a tool result, a call's body, a whole user turn) and the harness setting
 * `pointers` — never on which policy asked. So the same fold of the same object by two policies
 * yields byte-identical pointer text, and no policy can write pointers a judge likes better.
 *
 * Styles (one setting for the whole run, every policy alike):
 * - `semantic` (default) — seed 000's "compact semantic routing": the pointer says what the folded
 *   thing was about (the call's tool and argument leaves, the locators its output introduced; for
 *   a whole turn, the request's opening words and the subject of each call inside), capped at 600
 *   characters (`lib/compaction/projection/route.ts`).
 * - `plain` — only the object id, the sidecar digest and the size; the agent learns that something
 *   was folded, not what.
 * Either way the pointer names the sidecar by its full sha256 and the reminder by its first 12 hex
 * digits, which is what makes a payload restorable.
 */
export const POINTER_STYLES = ["semantic", "plain"] as const;
export type PointerStyle = (typeof POINTER_STYLES)[number];
export const DEFAULT_POINTER_STYLE: PointerStyle = "semantic";

export interface PointerTarget {
  sha256: string;
  bytes: number;
}

/** The pointer that replaces a folded tool result or a folded whole turn. */
export function foldPointer(session: Session, index: ContextIndex, object: ContextObject, sidecar: PointerTarget, style: PointerStyle): string {
  const body = style === "semantic" ? semanticRoute(session, index, object) : plainLabel(object);
  return `<folded id="${object.id}" sidecar="sha256:${sidecar.sha256}" bytes="${sidecar.bytes}">${body}</folded>`;
}

/**
 * How long a tool call's arguments must be (in characters) for a fold of its span to fold its body
 * too (policies/shared/fold-call-body.ts); the rule-based planner counts such bodies by the same
 * measure (planner/rule-based/facts.ts).
 */
export const CALL_BODY_MIN_CHARS = 1_200;

/** The pointer that replaces one long leaf of a folded call's arguments (a Write's body). */
export function callBodyPointer(object: ContextObject, sidecar: PointerTarget, body: string, style: PointerStyle): string {
  const text = style === "semantic" ? opening(body) : `${body.length} characters`;
  return `<folded id="${object.id}" part="arguments" sidecar="sha256:${sidecar.sha256.slice(0, 16)}" chars="${body.length}">${text}</folded>`;
}

/** Lines of a previewed fold are cut to this many characters (Deep Agents cuts preview lines at 1,000). */
export const PREVIEW_LINE_CHARS = 1_000;

/**
 * The in-view text of a fold that keeps a preview (`foldWithPreview`): the first `lines` lines of
 * the folded text, each cut to PREVIEW_LINE_CHARS, a line saying how many lines the sidecar holds
 * beyond them, then the harness's pointer. Written here, like every pointer, so any policy asking
 * for a preview of the same object gets the same bytes.
 */
export function previewBeforePointer(text: string, pointer: string, lines: number): string {
  const all = text.split("\n");
  const shown = all.slice(0, Math.max(0, lines)).map((line) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line));
  const hidden = all.length - shown.length;
  const more = hidden > 0 ? `[… ${hidden.toLocaleString("en-US")} more lines in the sidecar …]\n` : "";
  return `${shown.join("\n")}\n${more}${pointer}`;
}

/**
 * The control-plane reminder on a user message naming the folds of its turn (seed 000: "fold
 * reminders are attached to the relevant user turn ... plus sidecar location"). Several folds of
 * one message are merged into one reminder (`mergeReminders`).
 */
export function foldReminder(objectId: string, sha256: string): string {
  return `[fold] ${objectId} is in sidecar ${sha256.slice(0, 12)} — recover it before quoting or editing it.`;
}

const REMINDER = /^\[fold\] (\S+) is in sidecar ([0-9a-f]{12}) — recover it before quoting or editing it\.$/;

/**
 * One reminder per user message: several fold reminders become `[fold] a is in sidecar 3140f6f11550,
 * b in ab66bc5a5e54 — recover each before quoting or editing it.` Every 12-digit digest stays, so
 * each sidecar is still named where the model reads it; other texts are left as they are.
 */
export function mergeReminders(texts: readonly string[]): string[] {
  if (texts.length < 2) return [...texts];
  const parsed = texts.map((t) => REMINDER.exec(t));
  if (parsed.some((m) => !m)) return [...texts];
  const [first, ...rest] = parsed as RegExpExecArray[];
  const tail = rest.map((m) => `, ${m[1]} in ${m[2]}`).join("");
  return [`[fold] ${first![1]} is in sidecar ${first![2]}${tail} — recover each before quoting or editing it.`];
}

function plainLabel(object: ContextObject): string {
  if (object.kind === "function") return `${object.rawTool ?? object.tool ?? "tool"} result`;
  return `user turn ${object.ordinal}`;
}

function opening(body: string): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length <= 160 ? flat : `${flat.slice(0, 160)}…`;
}
