import type { EditPlan } from "../../projection/types";

/**
 * One fold reminder per user message (seed 000: fold metadata is a control-plane reminder on the
 * relevant user message). When a plan folds several results of one turn — the many steps of a
 * single long request, or a run of lookups — one reminder naming every folded object and its
 * sidecar keeps each pointer visible at a fraction of the cost of repeating the sentence per fold:
 * `[fold] function:a:1 is in sidecar 3140f6f11550, function:b:2 in ab66bc5a5e54 — recover each
 * before quoting or editing it.` Every 12-digit digest stays in the text, so each sidecar is still
 * named where the model reads it. A message with one reminder, or with reminders of another shape,
 * is left as it was.
 */
const REMINDER = /^\[fold\] (\S+) is in sidecar ([0-9a-f]{12}) — recover it before quoting or editing it\.$/;

export function mergeFoldReminders(plan: EditPlan): void {
  for (const [message, texts] of plan.reminders) {
    if (texts.length < 2) continue;
    const parsed = texts.map((t) => REMINDER.exec(t));
    if (parsed.some((m) => !m)) continue;
    const [first, ...rest] = parsed as RegExpExecArray[];
    const tail = rest.map((m) => `, ${m[1]} in ${m[2]}`).join("");
    plan.reminders.set(message, [`[fold] ${first![1]} is in sidecar ${first![2]}${tail} — recover each before quoting or editing it.`]);
  }
}
