import type { ViewVerdict } from "./label-schema";

/**
 * The labeling screen's blind verdict form (calibration queues) turned into a label draft — the
 * label's own fields; the server adds the thread, the reviewer, the date and the view it is about.
 * Kept here, framework-free, so the rules a reviewer meets are tested: impact needs what was lost
 * (one value per line, all of the category picked), restorable needs the sidecars restored.
 */
export interface ViewVerdictForm {
  verdict: ViewVerdict | "";
  /** Impact: the lost values, one per line, all of `category`. */
  lost: string;
  category: string;
  /** Restorable: the sidecars the future would restore, digests (or their first 12+ characters), one per line. */
  restores: string;
  comment: string;
}

/** An empty form (no verdict picked). */
export const EMPTY_VIEW_VERDICT: ViewVerdictForm = { verdict: "", lost: "", category: "", restores: "", comment: "" };

/**
 * The labels a form holds, or what is missing (the message the screen shows). Lost values and
 * restores are lines of text; empty lines are ignored.
 */
export function viewVerdictDraft(form: ViewVerdictForm): { draft: ViewVerdictDraft } | { missing: string } {
  const lines = (text: string) =>
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  const comment = form.comment.trim() ? { comment: form.comment.trim() } : {};
  if (form.verdict === "no_impact") return { draft: { kind: "view_verdict", verdict: "no_impact", ...comment } };
  if (form.verdict === "restorable") {
    const restores = lines(form.restores)
      .flatMap((l) => l.split(/[\s,]+/))
      .filter(Boolean);
    if (restores.length === 0) return { missing: "Restorable: write the sidecars the future would restore (their digests, one per line)." };
    return { draft: { kind: "view_verdict", verdict: "restorable", restores, ...comment } };
  }
  if (form.verdict === "impact") {
    const lost = lines(form.lost);
    if (lost.length === 0 || !form.category) return { missing: "Impact: write what the future needed and the view lost (one per line) and pick its category." };
    return { draft: { kind: "view_verdict", verdict: "impact", lost: lost.map((value) => ({ value, category: form.category })), ...comment } };
  }
  return { missing: "Pick 1 (no impact), 2 (restorable) or 3 (impact)." };
}

/** A view_verdict label's own fields, as the labeling screen sends them. */
export interface ViewVerdictDraft {
  kind: "view_verdict";
  verdict: ViewVerdict;
  lost?: { value: string; category: string }[];
  restores?: string[];
  comment?: string;
}
