"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useRef, useState } from "react";
import type { OnlineReport } from "@/lib/online/estimation/estimate";
import { plural } from "@/lib/util/plural";
import { toCurveData } from "./curve-data";
import { downloadBlob, svgsToPng } from "./export-png";
import { GroupCurvesChart } from "./group-curves-chart";
import { ReductionChart } from "./reduction-chart";

/**
 * The two curves and the reduction curve, pooled over days or for one local day (the `day` URL
 * parameter), with the exports: the charts as PNG (drawn in the browser) and the hourly
 * aggregates as CSV (the route handler computes them under the same controls).
 */
export function OnlineCharts({ report, csvHref, baseName }: { report: OnlineReport; csvHref: string; baseName: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const day = params.get("day") ?? "";
  const chosen = report.daily.find((d) => d.date === day);
  const data = toCurveData(chosen ? chosen.points : report.hourly);
  const scope = chosen ? chosen.date : `pooled over ${plural(report.daily.length, "day")}`;
  const charts = useRef<HTMLDivElement>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  function chooseDay(value: string) {
    const next = new URLSearchParams(params.toString());
    if (value) next.set("day", value);
    else next.delete("day");
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  }

  async function exportPng() {
    setExportError(null);
    try {
      const svgs = [...(charts.current?.querySelectorAll<SVGSVGElement>("svg.recharts-surface") ?? [])].filter((s) => s.getBoundingClientRect().height > 100);
      downloadBlob(await svgsToPng(svgs), `${baseName}-${chosen ? chosen.date : "pooled"}.png`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <section className="card card-body stack" aria-label="Curves">
      <div className="row" style={{ gap: 12, alignItems: "end", flexWrap: "wrap" }}>
        <label className="field">
          Day
          <select className="select" value={chosen?.date ?? ""} onChange={(e) => chooseDay(e.target.value)}>
            <option value="">Pooled (all days)</option>
            {report.daily.map((d) => (
              <option key={d.date} value={d.date}>
                {d.date}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn" onClick={() => void exportPng()}>
          Export PNG
        </button>
        <a className="btn" href={csvHref} download>
          Export CSV
        </a>
      </div>
      {exportError ? (
        <p className="alert alert-error" role="alert">
          {exportError}
        </p>
      ) : null}
      <div ref={charts} className="stack">
        <GroupCurvesChart data={data} title={`Mean input tokens per call by local hour (${report.window.timeZone}), ${scope}`} />
        <ReductionChart
          data={data}
          overall={report.reductionPct}
          title={`Reduction by hour, ${scope}${chosen ? " (bands on the pooled curve only)" : ", with its 95% band"}`}
        />
      </div>
    </section>
  );
}
