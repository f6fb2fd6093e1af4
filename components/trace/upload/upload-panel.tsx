"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { RedactionRules } from "@/lib/redact";
import { plural } from "@/lib/util/plural";
import { DropZone } from "./drop-zone";
import { isPending, pollImport } from "./poll-import";
import { previewFile } from "./preview-file";
import { sendFile } from "./send-file";
import type { UploadItem } from "./upload-item";
import { UploadRow } from "./upload-row";

/** Files sent at once: enough to overlap network and import, few enough not to starve the server. */
const CONCURRENCY = 2;

export interface UploadPanelProps {
  formats: readonly string[];
  maxBytes: number;
  maxLabel: string;
  /** The admin's redaction rules, for the in-browser preview of what each file will lose. */
  rules: RedactionRules;
}

/**
 * The upload page's client side: picked files are first checked for secrets in the browser (each
 * row previews what will be redacted; nothing is sent), then, once the user confirms, sent with one
 * XMLHttpRequest per file (each row shows its own progress) through a small queue so a folder of
 * 300 files does not open 300 connections at once.
 */
export function UploadPanel({ formats, maxBytes, maxLabel, rules }: UploadPanelProps) {
  const formatId = useId();
  const [format, setFormat] = useState("");
  const [items, setItems] = useState<UploadItem[]>([]);
  const started = useRef(new Set<string>());
  const counter = useRef(0);

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  }, []);

  const addFiles = (files: File[]) => {
    const added = files.map((file): UploadItem => {
      const key = `${Date.now()}-${counter.current++}`;
      if (file.size > maxBytes) {
        const message = `the file is larger than the upload limit of ${maxLabel}; import it with the CLI instead`;
        return { key, file, progress: 0, phase: "done", response: { ok: false, code: "too_large", message } };
      }
      return { key, file, progress: 0, phase: "picked", preview: { status: "scanning" } };
    });
    setItems((list) => [...added, ...list]);
    for (const item of added) {
      if (item.phase !== "picked") continue;
      previewFile(item.file, rules, maxBytes).then(
        (result) => update(item.key, { preview: { status: "done", result } }),
        (error: unknown) => update(item.key, { preview: { status: "failed", message: error instanceof Error ? error.message : String(error) } }),
      );
    }
  };

  const picked = items.filter((i) => i.phase === "picked");
  const checking = picked.some((i) => i.preview?.status === "scanning");
  const confirm = () => setItems((list) => list.map((i) => (i.phase === "picked" ? { ...i, phase: "queued" } : i)));
  const remove = (key: string) => setItems((list) => list.filter((i) => i.key !== key || i.phase !== "picked"));

  useEffect(() => {
    const active = items.filter((i) => i.phase === "uploading" || i.phase === "importing").length;
    // Oldest first: new files are prepended to the list.
    const next = items
      .filter((i) => i.phase === "queued" && !started.current.has(i.key))
      .reverse()
      .slice(0, Math.max(0, CONCURRENCY - active));
    for (const item of next) {
      started.current.add(item.key);
      update(item.key, { phase: "uploading" });
      void sendFile(item.file, {
        format,
        onProgress: (fraction) => update(item.key, fraction >= 1 ? { progress: 1, phase: "importing" } : { progress: fraction }),
      })
        .then((response) => {
          if (!isPending(response)) return response;
          // A large file: a job worker imports it; keep the answer so the row says so, and follow
          // the import's state until it ends.
          update(item.key, { phase: "waiting", importStatus: response.data.status, progress: 1, response });
          return pollImport(response.data.importId, (importStatus) => update(item.key, { importStatus }));
        })
        .then((response) => update(item.key, { phase: "done", progress: 1, response }));
    }
  }, [items, format, update]);

  const done = items.filter((i) => i.phase === "done").length;
  const sent = items.filter((i) => i.phase !== "picked").length;
  return (
    <div className="stack">
      <div className="row">
        <div className="field">
          <label htmlFor={formatId}>Format</label>
          <select id={formatId} className="select" value={format} onChange={(e) => setFormat(e.target.value)}>
            <option value="">Detect automatically</option>
            {formats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DropZone
        onFiles={addFiles}
        hint={`JSONL, JSON, .traj or aider Markdown (JSON/JSONL also gzip'd), or an Inspect .eval; up to ${maxLabel} per file. Each file is checked for secrets here first, then uploaded when you confirm.`}
      />
      {picked.length > 0 ? (
        <div className="row" role="group" aria-label="Confirm the upload">
          <button type="button" className="btn btn-primary" onClick={confirm} disabled={checking}>
            Upload {plural(picked.length, "file")}
          </button>
          <button type="button" className="btn" onClick={() => setItems((list) => list.filter((i) => i.phase !== "picked"))}>
            Cancel
          </button>
          <span className="muted" aria-live="polite">
            {checking ? "Checking the files for secrets…" : "Review what will be redacted below; nothing is sent until you upload."}
          </span>
        </div>
      ) : null}
      {items.length > 0 ? (
        <section className="card" aria-label="Uploads">
          <div className="dt-footer">
            <strong>Uploads</strong>
            <span className="spacer" />
            <span aria-live="polite">{sent === 0 ? `${picked.length} to confirm` : `${done} of ${sent} done`}</span>
          </div>
          <ul className="upload-list">
            {items.map((item) => (
              <UploadRow key={item.key} item={item} onRemove={item.phase === "picked" ? () => remove(item.key) : undefined} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
