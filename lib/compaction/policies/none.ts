import { emptyPlan } from "../projection/types";
import { withTargetReport } from "./shared/target";
import type { Policy } from "./types";

/**
 * The control: the prefix as recorded. Pruning rate 0, and by construction no impact. It ignores a
 * harness target (matched budgets, sweeps) on purpose — it is the no-compaction reference every
 * curve is read against — and says so in its target report.
 */
export const nonePolicy: Policy = {
  id: "none",
  family: "baseline",
  source: "control (no context management)",
  description: "Keeps the whole prefix unchanged.",
  params: [],
  decide: (ctx) =>
    withTargetReport(
      ctx,
      { plan: emptyPlan(), actions: [], log: ["no compaction: the prefix is kept as is"] },
      ctx.prefixTokens,
      "none",
      "the control never compacts; it ignores harness targets by design",
    ),
  fires: () => false,
};
