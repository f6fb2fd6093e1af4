import type { Sidecar, ViewMessage } from "../../compaction/projection/types";
import { readableText } from "./part-texts";
import type { Dependency } from "./types";
import { ValueForms } from "./value-forms";

/**
 * The texts of a projected view and of sidecar payloads, read the same way the prefix was read
 * (`readableText`), and one automaton over the dependency values and their other forms
 * (value-forms.ts) to search them. The matcher is built once per cut and shared by every policy
 * evaluated there.
 */
export interface ViewText {
  text: string;
  /** Source message of the view message, or what the harness inserted (`summary`, `reminder`). */
  origin: ViewMessage["origin"];
}

export function viewTexts(view: readonly ViewMessage[]): ViewText[] {
  const out: ViewText[] = [];
  for (const message of view) for (const part of message.parts) out.push({ text: readableText(part), origin: message.origin });
  return out;
}

export interface DependencyMatcher {
  /** Indexes (into the dependency list) of values found in any of `texts`. */
  findIn(texts: Iterable<string>, into?: Set<number>): Set<number>;
}

export function createDependencyMatcher(dependencies: readonly Dependency[]): DependencyMatcher {
  const forms = new ValueForms(
    dependencies.map((d) => d.value),
    dependencies.map((d) => d.kind),
  );
  return { findIn: (texts, into) => forms.findIn(texts, into) };
}

/**
 * What a sidecar payload holds, as text: a function fold stores the result itself; a conversation
 * fold stores the span as JSON `[{ role, parts }]`, decoded here so escaped quotes and newlines
 * match the prefix.
 */
export function sidecarTexts(sidecar: Sidecar): string[] {
  if (!sidecar.payload.startsWith('[{"role"')) return [sidecar.payload];
  try {
    const messages = JSON.parse(sidecar.payload) as { parts?: unknown }[];
    return messages.flatMap((m) => (Array.isArray(m.parts) ? m.parts.map((p) => readableText(p as never)) : []));
  } catch {
    return [sidecar.payload];
  }
}

/**
 * The sidecars some view text names by digest: fold pointers carry `sha256:<64 hex>`, fold
 * reminders and pre-trim spill markers the 12-digit prefix. One regex pass over the view; a name
 * is the first 12 hex digits of a run of 12–64 hex digits.
 */
export function namedSidecars(sidecars: readonly Sidecar[], texts: readonly ViewText[]): Set<Sidecar> {
  if (sidecars.length === 0) return new Set();
  const names = new Set<string>();
  for (const { text } of texts) for (const m of text.matchAll(/[0-9a-f]{12,64}/g)) names.add(m[0].slice(0, 12));
  return new Set(sidecars.filter((s) => names.has(s.sha256.slice(0, 12))));
}
