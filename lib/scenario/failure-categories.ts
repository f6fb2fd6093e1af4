/**
 * The six future-dependency failure categories of the Self-GC paper (Table 7).
 *
 * Why a shared constant: the scenario generator plants one dependency of each kind, judges score
 * losses per category, and the studio shows the same labels. The ids are a public contract (JSON
 * output, ground-truth files); labels and descriptions are for people and may be reworded.
 * Each category asks which future action becomes unsupported, not which message type was removed.
 */
export const FAILURE_CATEGORIES = [
  {
    id: "evidence_detail",
    label: "Evidence-detail loss",
    description: "An exact row, table value, metric or stack frame seen in a tool result is needed later to reproduce or revise a result.",
  },
  {
    id: "locator_handle",
    label: "Locator / handle loss",
    description: "A file path, document id, job id, callback URL or handoff link is needed later to reopen, rerun or deliver an artifact.",
  },
  {
    id: "behavioral_contract",
    label: "Behavioral-contract loss",
    description: "A user correction, schema rule or task convention must keep governing later edits after the turn that stated it.",
  },
  {
    id: "verbatim_source",
    label: "Verbatim-source loss",
    description: "Original wording (a paragraph, footnote, template) is later requested back exactly, so a paraphrase is not enough.",
  },
  {
    id: "live_state",
    label: "Live-state loss",
    description: "The current state (the rerun that succeeded, the latest handoff) must be told apart from stale failed attempts.",
  },
  {
    id: "recovery_routing",
    label: "Recovery-routing loss",
    description: "A sparse detail inside a bulky payload that a fold would move to a sidecar is needed later, asked for only by topic.",
  },
] as const;

/** A failure category id (`"evidence_detail"`, …). */
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number]["id"];

/** The ids alone, in table order. */
export const FAILURE_CATEGORY_IDS: readonly FailureCategory[] = FAILURE_CATEGORIES.map((c) => c.id);

/** Label and description for a category id. */
export function describeFailureCategory(id: FailureCategory): (typeof FAILURE_CATEGORIES)[number] {
  const found = FAILURE_CATEGORIES.find((c) => c.id === id);
  if (!found) throw new RangeError(`unknown failure category: ${String(id)}`);
  return found;
}
