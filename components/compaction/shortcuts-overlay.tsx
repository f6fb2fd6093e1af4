"use client";

import { useEffect, useRef } from "react";
import styles from "./compaction.module.css";

const SHORTCUTS: [string, string][] = [
  ["r", "run the policy at the cut"],
  ["c", "compare with another policy"],
  ["[", "previous safe cut"],
  ["]", "next safe cut"],
  ["?", "show or hide this list"],
  ["Esc", "close a dialog"],
];

/** The keyboard shortcut list, as a modal dialog. */
export function ShortcutsOverlay({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    <dialog ref={ref} className={styles.dialog} style={{ width: 380 }} aria-labelledby="shortcuts-title" onClose={onClose} data-testid="shortcuts">
      <div className={styles.dialogHead}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="btn btn-sm" onClick={() => ref.current?.close()} autoFocus>
          Close
        </button>
      </div>
      <div className={styles.dialogBody}>
        <dl className={styles.shortcuts}>
          {SHORTCUTS.map(([key, what]) => (
            <div key={key} style={{ display: "contents" }}>
              <dt>
                <kbd className={styles.kbd}>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </dialog>
  );
}
