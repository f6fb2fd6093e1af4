"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { previewUsageAction } from "@/app/_actions/online";
import type { ColumnMapping } from "@/lib/online/usage/columns";
import type { UsagePreview } from "@/lib/online/usage/preview";
import type { UsageFormat } from "@/lib/online/usage/read-usage";
import { formatUsageIssue, type UsageField } from "@/lib/online/usage/schema";
import { plural } from "@/lib/util/plural";
import { MappingSelects } from "./mapping-selects";
import { PreviewTable } from "./preview-table";
import { sendUsageLog, type UsageUploadResult } from "./send-usage-log";

const SAMPLE_BYTES = 64 * 1024;

type Phase = { kind: "idle" } | { kind: "mapping" } | { kind: "uploading"; label: string; fraction: number } | { kind: "done"; result: UsageUploadResult };

/**
 * Upload flow for usage logs: choose a file, check the guessed column mapping against a preview of
 * its first rows (read in the browser from the first 64 KiB only), then send it and follow the
 * import's progress. Errors come back located by line and column.
 */
export function UsageUpload() {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [sample, setSample] = useState<{ text: string; complete: boolean } | null>(null);
  const [preview, setPreview] = useState<UsagePreview | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [message, setMessage] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const format: UsageFormat = file && /\.(jsonl|ndjson)$/i.test(file.name) ? "jsonl" : "csv";

  async function runPreview(text: string, complete: boolean, overrides?: ColumnMapping, fmt: UsageFormat = format) {
    const result = await previewUsageAction({ sample: text, complete, format: fmt, ...(overrides ? { overrides: fullOverrides(overrides) } : {}) });
    if (!result.ok) return setMessage(result.message);
    setMessage(null);
    setPreview(result.data);
    setMapping(result.data.mapping);
  }

  async function choose(chosen: File | undefined) {
    if (!chosen) return;
    setFile(chosen);
    setPhase({ kind: "mapping" });
    const text = await chosen.slice(0, SAMPLE_BYTES).text();
    const complete = chosen.size <= SAMPLE_BYTES;
    setSample({ text, complete });
    await runPreview(text, complete, undefined, /\.(jsonl|ndjson)$/i.test(chosen.name) ? "jsonl" : "csv");
  }

  async function change(field: UsageField, column: string) {
    const next = { ...mapping, [field]: column || undefined };
    setMapping(next);
    if (sample) await runPreview(sample.text, sample.complete, next);
  }

  async function upload() {
    if (!file) return;
    setPhase({ kind: "uploading", label: "Sending", fraction: 0 });
    const result = await sendUsageLog(file, mapping, (event) => {
      if (event.type === "sending") setPhase({ kind: "uploading", label: "Sending", fraction: event.fraction });
      else
        setPhase({
          kind: "uploading",
          label: `Aggregating · ${plural(event.rows, "row")}`,
          fraction: event.totalBytes > 0 ? event.bytes / event.totalBytes : 1,
        });
    });
    setPhase({ kind: "done", result });
    if (result.ok && result.outcome.status !== "failed") router.refresh();
  }

  const ready = preview && preview.missing.length === 0 && preview.unknown.length === 0;
  return (
    <section className="card card-body stack" aria-label="Upload a usage log">
      <h2>Upload a usage log</h2>
      <label className="field">
        CSV or JSONL usage log
        <input type="file" accept=".csv,.jsonl,.ndjson,text/csv" onChange={(e) => void choose(e.target.files?.[0])} data-testid="usage-file" />
      </label>
      {message ? (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      ) : null}
      {phase.kind === "mapping" && preview ? (
        <div className="stack" data-testid="mapping-step">
          <p className="faint">Tracefold guessed which column holds each field. Check it against the rows below (the first rows as they will be read).</p>
          <MappingSelects headers={preview.headers} mapping={mapping} onChange={(f, c) => void change(f, c)} />
          {preview.missing.length > 0 ? (
            <p className="field-error" role="alert">
              Map a column to: {preview.missing.join(", ")}
            </p>
          ) : null}
          {preview.unknown.length > 0 ? (
            <p className="field-error" role="alert">
              Not in the file: {preview.unknown.join(", ")}
            </p>
          ) : null}
          {preview.rows.length > 0 ? <PreviewTable items={preview.rows} /> : null}
          <div className="row">
            <button type="button" className="btn btn-primary" disabled={!ready} onClick={() => void upload()}>
              Import {file?.name}
            </button>
          </div>
        </div>
      ) : null}
      {phase.kind === "uploading" ? (
        <div className="row" style={{ gap: 8, alignItems: "center" }}>
          <progress className="progress" max={1} value={phase.fraction} aria-label="Import progress" data-testid="usage-progress" />
          <span className="faint">{phase.label}</span>
        </div>
      ) : null}
      {phase.kind === "done" ? <UploadOutcome result={phase.result} /> : null}
    </section>
  );
}

/** Every field the user has seen, with "" for the unmapped ones so the guess cannot bring them back. */
function fullOverrides(mapping: ColumnMapping): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).map(([f, c]) => [f, c ?? ""]));
}

function UploadOutcome({ result }: { result: UsageUploadResult }) {
  if (!result.ok)
    return (
      <p className="alert alert-error" role="alert">
        {result.message}
      </p>
    );
  const o = result.outcome;
  if (o.status === "duplicate")
    return (
      <p className="alert alert-ok" role="status">
        This file was already uploaded as {o.fileName}: <Link href={`/online/${o.logId}`}>open it</Link>.
      </p>
    );
  const issues =
    o.errors.length > 0 ? (
      <ul className="stack" data-testid="usage-errors">
        {o.errors.slice(0, 20).map((i) => (
          <li key={`${i.line}:${i.column}`} className="issue mono">
            {formatUsageIssue(i)}
          </li>
        ))}
      </ul>
    ) : null;
  if (o.status === "failed")
    return (
      <div className="alert alert-error" role="alert">
        <p>Nothing was imported: {o.message}</p>
        {issues}
      </div>
    );
  return (
    <div className="alert alert-ok" role="status">
      <p>
        Imported {plural(o.rows, "call")} as {plural(o.slots, "slot sum")}
        {o.errorCount > 0 ? `; ${plural(o.errorCount, "row")} skipped` : ""}. <Link href={`/online/${o.logId}`}>Open the report</Link>
      </p>
      {issues}
    </div>
  );
}
