"use client";

import { plural } from "@/lib/util/plural";
import { fmt, type CurveDatum } from "./curve-data";

/** Tooltip of both charts: the hour's means and reduction, and the calls and accounts behind each group's point. */
export function CurveTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: CurveDatum }[] }) {
  const d = active ? payload?.[0]?.payload : undefined;
  if (!d) return null;
  return (
    <div className="card" style={{ padding: 8, fontSize: 13 }} data-testid="curve-tooltip">
      <strong>{d.hour}</strong>
      <div>
        treatment {fmt(d.treatment)} tokens/call · {plural(d.calls.treatment, "call")} · {plural(d.accounts.treatment, "account")}
      </div>
      <div>
        control {fmt(d.control)} tokens/call · {plural(d.calls.control, "call")} · {plural(d.accounts.control, "account")}
      </div>
      <div>
        reduction {fmt(d.reductionPct, 1)}%{d.band ? ` (95% band ${fmt(d.band[0], 1)} to ${fmt(d.band[1], 1)})` : ""}
      </div>
    </div>
  );
}
