"use client";

import { RedactionPreview } from "./redaction-preview";
import { formatSize, progressView, statusOf, type UploadItem } from "./upload-item";
import { UploadResult } from "./upload-result";

/**
 * One file: name, size; while picked, what will be redacted from it (and a Remove button); then its
 * own progress bar while sending (a busy bar while a job worker imports a large file), then the
 * server's verdict (a refused file's bar turns to a failed state).
 */
export function UploadRow({ item, onRemove }: { item: UploadItem; onRemove?: (() => void) | undefined }) {
  const status = statusOf(item);
  const bar = progressView(item);
  return (
    <li className="upload-item" data-testid="upload-row" data-status={status.label} aria-label={item.file.name}>
      <div className="upload-head">
        <span className="upload-name" title={item.file.name}>
          {item.file.name}
        </span>
        <span className="faint">{formatSize(item.file.size)}</span>
        {bar.kind === "failed" ? (
          <span className="progress progress-failed" role="img" aria-label={`${item.file.name} failed: nothing was imported`} data-testid="upload-failed-bar" />
        ) : bar.kind === "busy" ? (
          // The worker reports no fraction: an indeterminate bar says "still working" where a full
          // one (the bytes are all sent) would read as finished.
          <progress className="progress" max={1} aria-label={`Import progress of ${item.file.name}`} />
        ) : (
          <progress className="progress" max={1} value={bar.value} aria-label={`Upload progress of ${item.file.name}`} />
        )}
        <span className={`status status-${status.tone === "pending" ? "pending" : status.tone}`} role="status">
          {status.label}
        </span>
        {onRemove ? (
          <button type="button" className="btn btn-sm" onClick={onRemove} aria-label={`Remove ${item.file.name}`}>
            Remove
          </button>
        ) : null}
      </div>
      {item.phase === "picked" ? <RedactionPreview preview={item.preview} /> : null}
      {item.response ? <UploadResult response={item.response} /> : null}
    </li>
  );
}
