"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import "./review.css";
import { plural } from "@/lib/util/plural";
import { ImportResult, type ImportResultState } from "./import-result";

/** What POST /api/review/gold answers. */
type GoldImportAnswer =
  | { ok: true; data: { queueId: string; items: number; labels: number; duplicate: boolean } }
  | { ok: false; code: string; message: string; errors?: { line: number; field: string; expected: string; message: string }[] };

/**
 * Import a gold file (the judge's calibration set: one `{unit, label}` per line) as a calibration
 * queue: its units become items people label blind, its labels the gold labels the judge is
 * measured against. All or nothing, every problem listed by line and field; a unit whose trace is
 * not uploaded names the file to upload.
 */
export function GoldImportForm() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<(ImportResultState & { queueId?: string }) | null>(null);
  async function onFile(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      const response = await fetch("/api/review/gold", { method: "POST", body: file, headers: { "content-type": "application/x-ndjson" } });
      event.target.value = "";
      const outcome = (await response.json()) as GoldImportAnswer;
      if (!outcome.ok)
        return setResult({
          tone: "error",
          text: outcome.message,
          lines: (outcome.errors ?? []).slice(0, 50).map((e) => `line ${e.line}, ${e.field}: ${e.message} (expected ${e.expected})`),
        });
      const { queueId, items, labels, duplicate } = outcome.data;
      setResult({
        tone: "ok",
        queueId,
        text: duplicate
          ? `This file was imported before: its queue holds ${plural(items, "item")} and ${plural(labels, "label version")}.`
          : `Imported ${plural(items, "gold unit")} with ${plural(labels, "label")}.`,
      });
      router.refresh();
    } catch {
      setResult({ tone: "error", text: "The studio could not be reached; nothing was imported. Try again." });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card card-body stack review-form" aria-labelledby="gold-import-heading">
      <h2 id="gold-import-heading">Calibrate the judge: import a gold file</h2>
      <p className="muted">
        A gold file (<code>gold/judge-gold.jsonl</code>: one view of a cut and its careful label per line) becomes a calibration queue. People label each view
        blind — no policy, no judge — and the queue shows the dependency judge&apos;s agreement with the labels. Upload the traces the units come from first.
      </p>
      <div className="actions">
        <label className="btn btn-sm review-file">
          {busy ? "Importing…" : "Import gold file (.jsonl)"}
          <input type="file" className="visually-hidden" accept=".jsonl,.json,application/x-ndjson" onChange={onFile} disabled={busy} data-testid="gold-file" />
        </label>
      </div>
      {result ? <ImportResult result={result}>{result.queueId ? <Link href={`/review/${result.queueId}`}>Open the queue</Link> : null}</ImportResult> : null}
    </section>
  );
}
