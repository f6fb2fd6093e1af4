"use client";

import { useEffect, useRef } from "react";
import dialogStyles from "./dialog.module.css";
import kbdStyles from "./kbd.module.css";
import styles from "./shortcuts-overlay.module.css";

/** One shortcut: the key(s) as shown, and what it does. */
export type Shortcut = [key: string, what: string];

/** The keyboard shortcut list of a page, as a modal dialog (`?` opens it on the replay and session pages). */
export function ShortcutsOverlay({ onClose, shortcuts }: { onClose(): void; shortcuts: Shortcut[] }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    <dialog ref={ref} className={dialogStyles.dialog} style={{ width: 400 }} aria-labelledby="shortcuts-title" onClose={onClose} data-testid="shortcuts">
      <div className={dialogStyles.dialogHead}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="btn btn-sm" onClick={() => ref.current?.close()} autoFocus>
          Close
        </button>
      </div>
      <div className={dialogStyles.dialogBody}>
        <dl className={styles.shortcuts}>
          {shortcuts.map(([key, what]) => (
            <div key={key} style={{ display: "contents" }}>
              <dt>
                <kbd className={kbdStyles.kbd}>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </dialog>
  );
}
