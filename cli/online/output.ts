import type { OnlineReport } from "@/lib/online/estimation/estimate";
import type { Group } from "@/lib/online/usage/schema";

const round = (x: number | null, digits = 2) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/**
 * The documented `online --json` object (issue #6):
 * `{"groups":{"treatment":{"calls","accounts","meanInputTokens"},"control":{…}},"reductionPct",
 * "ci95":[low,high],"peakReductionPct","hourly":[{"hour","treatment","control","reductionPct"}]}`,
 * plus `assignment` ({rule, randomised}) because a non-randomised split must be said plainly.
 */
export function toOnlineContract(report: OnlineReport) {
  const group = (g: Group) => ({
    calls: report.groups[g].calls,
    accounts: report.groups[g].accounts,
    meanInputTokens: round(report.groups[g].meanInputTokens),
  });
  return {
    groups: { treatment: group("treatment"), control: group("control") },
    reductionPct: round(report.reductionPct),
    ci95: [round(report.ci95[0]), round(report.ci95[1])],
    peakReductionPct: round(report.peakReductionPct),
    hourly: report.hourly.map((h) => ({ hour: h.hour, treatment: round(h.treatment), control: round(h.control), reductionPct: round(h.reductionPct) })),
    assignment: { rule: report.assignment.rule, randomised: report.assignment.randomised },
  };
}

const n = (x: number | null, digits = 0) =>
  x === null || !Number.isFinite(x) ? "—" : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The human table: groups, the reduction with its interval, the hourly curve with its band and counts. */
export function printOnlineTable(report: OnlineReport): void {
  const { groups: g } = report;
  console.log(`assignment: ${report.assignment.rule}`);
  if (!report.assignment.randomised) console.log(`  note: ${report.assignment.note}`);
  console.log(
    `window ${report.window.start}–${report.window.end} ${report.window.timeZone}; ${n(report.counts.used)} of ${n(report.counts.rows)} calls used (outside window ${n(report.counts.outsideWindow)}, volatile ${n(report.counts.volatile)}, other surface ${n(report.counts.otherSurface)}, unassigned ${n(report.counts.unassigned)})`,
  );
  for (const name of ["treatment", "control"] as const) {
    console.log(
      `  ${name.padEnd(9)} ${n(g[name].calls).padStart(10)} calls ${n(g[name].accounts).padStart(7)} accounts   mean input ${n(g[name].meanInputTokens).padStart(8)}   $${n(g[name].costPerCallUsd, 4)}/call`,
    );
  }
  console.log(
    `reduction ${n(report.reductionPct, 1)}%  (95% CI ${n(report.ci95[0], 1)} to ${n(report.ci95[1], 1)}, accounts resampled)   peak ${n(report.peakReductionPct, 1)}% at ${report.peakHour ?? "—"}h`,
  );
  console.log(`billed cost per call: ${n(report.cost.reductionPct, 1)}% lower (95% CI ${n(report.cost.ci95[0], 1)} to ${n(report.cost.ci95[1], 1)})`);
  if (report.did)
    console.log(
      `pre-rollout difference ${n(report.did.preReductionPct, 1)}%; difference-in-differences ${n(report.did.didPct, 1)}% (95% CI ${n(report.did.ci95[0], 1)} to ${n(report.did.ci95[1], 1)})`,
    );
  console.log(`hour   treatment     control   reduction   95% band          calls T/C         accounts T/C`);
  for (const h of report.hourly) {
    const band = h.ci95 ? `${n(h.ci95[0], 1)} to ${n(h.ci95[1], 1)}` : "—";
    console.log(
      `${String(h.hour).padStart(2, "0")}:00 ${n(h.treatment).padStart(11)} ${n(h.control).padStart(11)} ${`${n(h.reductionPct, 1)}%`.padStart(11)}   ${band.padEnd(16)} ${`${n(h.calls.treatment)}/${n(h.calls.control)}`.padStart(17)} ${`${h.accounts.treatment}/${h.accounts.control}`.padStart(16)}`,
    );
  }
}
