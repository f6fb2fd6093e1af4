"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import "./review.css";
import { importLabelsAction } from "@/app/_actions/review";
import { ImportResult, type ImportResultState } from "./import-result";

/** Export every label version (JSONL, CSV; a calibration queue also as a gold file); admins import labels back (all or nothing, errors located). */
export function TransferPanel({ queueId, canImport, gold = false }: { queueId: string; canImport: boolean; gold?: boolean }) {
  const router = useRouter();
  const [result, setResult] = useState<ImportResultState | null>(null);
  async function onFile(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const format = file.name.toLowerCase().endsWith(".csv") ? "csv" : "jsonl";
    const outcome = await importLabelsAction({ queueId, format, text: await file.text() });
    event.target.value = "";
    if (!outcome.ok) return setResult({ tone: "error", text: outcome.message, lines: outcome.fieldErrors?.file ?? [] });
    setResult({ tone: "ok", text: `Imported ${outcome.data.imported} label versions (${outcome.data.skipped} already stored).` });
    router.refresh();
  }
  return (
    <section className="card card-body stack review-form" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">Export and import</h2>
      <p className="muted">Every label version, as JSONL (the raw format) or spreadsheet-safe CSV.</p>
      <div className="actions">
        <a className="btn btn-sm" href={`/api/review/${queueId}/export?format=jsonl`} download>
          Export JSONL
        </a>
        <a className="btn btn-sm" href={`/api/review/${queueId}/export?format=csv`} download>
          Export CSV
        </a>
        {gold ? (
          <a className="btn btn-sm" href={`/api/review/${queueId}/export?format=gold`} download>
            Export gold JSONL
          </a>
        ) : null}
        {canImport ? (
          <label className="btn btn-sm review-file">
            Import labels (.jsonl or .csv)
            <input type="file" className="visually-hidden" accept=".jsonl,.csv,.json,text/csv" onChange={onFile} />
          </label>
        ) : null}
      </div>
      {canImport ? (
        <span className="hint">An import is all or nothing: a file with any bad line stores nothing and lists every problem by line and field.</span>
      ) : null}
      {result ? <ImportResult result={result} /> : null}
    </section>
  );
}
