"use client";

/** Every shortcut of the labeling screen, per queue kind (the `?` overlay). */
const COMMON: [string, string][] = [
  ["j", "next item"],
  ["k", "previous item"],
  ["u", "undo your last label on this item; right after Enter, the save you just made (its item opens again)"],
  ["Enter", "submit the verdict for this item (also from the rationale, culprit and comment fields; Shift+Enter: a new line)"],
  ["?", "show / hide this list"],
  ["Esc", "close this list; clear a pending selection; leave a text field"],
];
const BY_KIND: Record<string, [string, string][]> = {
  dependency: [
    ["↓ / ↑", "focus the next / previous judge candidate"],
    ["y", "confirm the focused candidate"],
    ["n", "reject the focused candidate"],
    ["1–5", "dependency type: of the pending added dependency (saves it) or of the focused candidate"],
    ["select text", "in the future, then in the prefix: adds a dependency"],
  ],
  failure: [["1–6", "failure category (the focus moves to the culprit id)"]],
  calibration: [
    ["1", "no impact: everything the future needs is visible in the view"],
    ["2", "restorable: some of it only in sidecars the view names (the focus moves to the restores)"],
    ["3", "impact: something the future needs is lost (the focus moves to the lost values)"],
  ],
  ab: [
    ["a", "A is better (the focus moves to the rationale)"],
    ["b", "B is better (the focus moves to the rationale)"],
    ["t", "tie (the focus moves to the rationale)"],
  ],
};

export function ShortcutOverlay({ kind, onClose }: { kind: string; onClose: () => void }) {
  return (
    <div className="review-overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div className="card card-body" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table className="review-shortcuts">
          <tbody>
            {[...(BY_KIND[kind] ?? []), ...COMMON].map(([key, what]) => (
              <tr key={key}>
                <th scope="row">
                  <kbd>{key}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" className="btn btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
