import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OnlineCharts } from "@/components/online/online-charts";
import { OnlineControls } from "@/components/online/online-controls";
import { OnlineSummary } from "@/components/online/online-summary";
import { exampleInstants } from "@/lib/online/estimation/example-instants";
import { formatMinute } from "@/lib/online/assignment/local-time";
import { formatDateTime } from "@/lib/util/format-date-time";
import { plural } from "@/lib/util/plural";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getOnlineReport } from "@/server/online/online-report";
import { OnlineQuerySchema, queryObject } from "@/server/online/report-query";

export const metadata: Metadata = { title: "Online A/B report" };
export const dynamic = "force-dynamic";

type Params = Record<string, string | string[] | undefined>;

/** One usage log's report under the controls in the URL, recomputed from its stored slot sums. */
export default async function OnlineReportPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Params> }) {
  await requireUser("viewer");
  const { id } = await params;
  const raw = queryObject(await searchParams);
  const parsed = OnlineQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : OnlineQuerySchema.parse({});
  const result = await getOnlineReport(getDb(), id, query);
  if (!result) notFound();
  const { log, report, surfaces, warning } = result;
  const csvParams = new URLSearchParams(
    Object.entries(parsed.success ? raw : {}).flatMap(([k, v]) => (k === "day" ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x]))),
  );
  const values = {
    assign: result.assign,
    window: `${formatMinute(query.window.startMinute)}-${formatMinute(query.window.endMinute)}`,
    tz: query.tz,
    surface: query.surface,
    volatile: parsed.success ? [raw.volatile ?? []].flat() : [],
    rollout: parsed.success && typeof raw.rollout === "string" ? raw.rollout : "",
    prices: query.prices,
  };
  return (
    <>
      <div className="page-header">
        <p className="faint">
          <Link href="/online">Online A/B</Link> /
        </p>
        <h1>{log.fileName}</h1>
        <p>
          {plural(log.rowCount, "call")}
          {log.firstAt && log.lastAt ? ` from ${formatDateTime(log.firstAt)} to ${formatDateTime(log.lastAt)}` : ""}, stored as{" "}
          {plural(log.slotCount, "account × 15-minute slot sum")}
          {log.errorCount > 0 ? `; ${plural(log.errorCount, "row")} skipped at import` : ""}.
        </p>
      </div>
      <div className="stack">
        {!parsed.success ? (
          <p className="alert alert-error" role="alert">
            {parsed.error.issues.map((i) => i.message).join("; ")} — showing the defaults.
          </p>
        ) : null}
        <OnlineControls values={values} surfaces={surfaces} groupColumn={log.mapping.group} examples={exampleInstants(log.firstAt, log.lastAt)} />
        {report ? (
          <>
            <OnlineSummary report={report} />
            <OnlineCharts report={report} csvHref={`/api/online/${log.id}/hourly?${csvParams.toString()}`} baseName={log.fileName.replace(/\.[^.]*$/, "")} />
          </>
        ) : (
          <p className="alert alert-error" role="alert" data-testid="online-group-warning">
            {warning}
          </p>
        )}
      </div>
    </>
  );
}
