"use client";

import { useEffect, useRef, useState } from "react";
import type { SidecarRef } from "@/server/compaction/compaction-api";
import viewerRow from "@/components/ui/viewer-row.module.css";
import dialogStyles from "@/components/ui/dialog.module.css";
import rowStyles from "./replay-row.module.css";
import styles from "./restore-dialog.module.css";

type Restored =
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "done"; text: string; bytes: number; digest: string | undefined; header: string | null };

/**
 * Fetches a folded payload from `/api/sidecars/<sha>` and shows it as text with its byte count and
 * a sha256 check computed here in the browser (Web Crypto), so "byte for byte" is verified, not
 * trusted. A native modal dialog: Esc closes it and focus returns to the Restore button.
 */
export function RestoreDialog({ sidecar, onClose }: { sidecar: SidecarRef; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<Restored>({ status: "loading" });
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        const response = await fetch(`/api/sidecars/${sidecar.sha256}`, { signal: controller.signal, cache: "no-store" });
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as { message?: string } | null;
          throw new Error(body?.message ?? `the server answered ${response.status}`);
        }
        const buffer = await response.arrayBuffer();
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(buffer);
        const digest = globalThis.crypto?.subtle ? toHex(await crypto.subtle.digest("SHA-256", buffer)) : undefined;
        setState({ status: "done", text, bytes: buffer.byteLength, digest, header: response.headers.get("x-content-sha256") });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState({ status: "error", message: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => controller.abort();
  }, [sidecar.sha256]);

  const check =
    state.status !== "done"
      ? { key: "pending", text: state.status === "loading" ? "verifying…" : "not verified" }
      : state.digest === undefined
        ? { key: "error", text: "cannot verify: this page has no Web Crypto (serve the studio over HTTPS)" }
        : state.digest === sidecar.sha256 && state.bytes === sidecar.bytes
          ? { key: "match", text: "✓ matches sha256" }
          : { key: "mismatch", text: `✗ sha256 mismatch: got ${state.digest.slice(0, 16)}…` };

  return (
    <dialog ref={ref} className={dialogStyles.dialog} aria-labelledby="restore-title" onClose={onClose} data-testid="restore-dialog">
      <div className={dialogStyles.dialogHead}>
        <h2 id="restore-title">Restored {sidecar.target}</h2>
        <span className={styles.check} data-state={check.key} data-testid="restore-check">
          {check.text}
        </span>
        <button type="button" className="btn btn-sm" onClick={() => ref.current?.close()} autoFocus>
          Close
        </button>
      </div>
      <div className={dialogStyles.dialogBody}>
        <dl className={styles.facts}>
          <dt>Sidecar</dt>
          <dd>sha256:{sidecar.sha256}</dd>
          <dt>Bytes</dt>
          <dd data-testid="restore-bytes">
            {state.status === "done" ? `${state.bytes.toLocaleString("en-US")} bytes restored` : "…"} ({sidecar.bytes.toLocaleString("en-US")} folded)
          </dd>
          {state.status === "done" && state.digest ? (
            <>
              <dt>Computed</dt>
              <dd>sha256:{state.digest}</dd>
            </>
          ) : null}
        </dl>
        {state.status === "loading" ? <div className={`${viewerRow.skeleton} ${rowStyles.skeleton}`} aria-busy="true" /> : null}
        {state.status === "error" ? (
          <div className="alert alert-error" role="alert">
            Could not restore: {state.message}
          </div>
        ) : null}
        {state.status === "done" ? (
          <>
            <pre className={styles.payload} data-testid="restore-text">
              {state.text}
            </pre>
            <div className="row">
              <button type="button" className="btn btn-sm" onClick={() => void navigator.clipboard?.writeText(state.text)}>
                Copy text
              </button>
              <a className="btn btn-sm" href={`/api/sidecars/${sidecar.sha256}`} download>
                Download
              </a>
            </div>
          </>
        ) : null}
      </div>
    </dialog>
  );
}

function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
