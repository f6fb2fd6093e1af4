"use client";

import { Fragment, useState, type ReactNode } from "react";
import viewerRow from "@/components/ui/viewer-row.module.css";
import panelStyles from "@/components/ui/panel.module.css";
import tableStyles from "@/components/ui/table.module.css";
import decisionStyles from "./decisions.module.css";
import rowStyles from "./replay-row.module.css";
import { detailLabel } from "./detail-labels";

/**
 * A policy's free-form `details` rendered readably without knowing its shape: objects as
 * key/value tables, arrays of records as tables, XML and long texts as preformatted text, numbers
 * formatted by what their key says (rates as %, costs as USD, counts with separators), statuses as
 * pills. Targets are links that scroll the columns. Everything renders as text.
 */
export function DetailsView({ details, onTarget }: { details: Record<string, unknown>; onTarget(target: string): void }) {
  return (
    <>
      {Object.entries(details).map(([key, value]) => (
        <div key={key} className={panelStyles.section} data-testid={`details-${key}`}>
          <h3>{detailLabel(key)}</h3>
          <Value name={key} value={value} onTarget={onTarget} depth={0} />
        </div>
      ))}
    </>
  );
}

interface ValueProps {
  name: string;
  value: unknown;
  onTarget(target: string): void;
  depth: number;
}

function Value({ name, value, onTarget, depth }: ValueProps): ReactNode {
  if (value === null || value === undefined) return <span className={panelStyles.none}>—</span>;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return <span title={String(value)}>{formatNumber(name, value)}</span>;
  if (typeof value === "string") return <TextValue name={name} text={value} onTarget={onTarget} />;
  if (Array.isArray(value)) return <ArrayValue name={name} items={value} onTarget={onTarget} depth={depth} />;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <span className={panelStyles.none}>none</span>;
    return (
      <table className={decisionStyles.kv}>
        <tbody>
          {entries.map(([k, v]) =>
            isBlock(k, v) ? (
              <Fragment key={k}>
                <tr>
                  <th scope="rowgroup" colSpan={2} className={decisionStyles.kvBlockHead}>
                    {detailLabel(k)}
                  </th>
                </tr>
                <tr>
                  <td colSpan={2} className={decisionStyles.kvBlock}>
                    <Value name={k} value={v} onTarget={onTarget} depth={depth + 1} />
                  </td>
                </tr>
              </Fragment>
            ) : (
              <tr key={k}>
                <th scope="row">{detailLabel(k)}</th>
                <td>
                  <Value name={k} value={v} onTarget={onTarget} depth={depth + 1} />
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    );
  }
  return String(value);
}

function TextValue({ name, text, onTarget }: { name: string; text: string; onTarget(target: string): void }) {
  if (name === "xml" || (text.trimStart().startsWith("<") && text.includes("</"))) {
    return (
      <pre className={decisionStyles.xml} data-testid="planner-xml">
        {text}
      </pre>
    );
  }
  if (name === "status") {
    return (
      <span className={decisionStyles.status} data-status={text}>
        {text}
      </span>
    );
  }
  if (name === "target" || /^(function|conversation):[\w.-]+:\d+$/.test(text)) {
    return (
      <button type="button" className={tableStyles.targetButton} onClick={() => onTarget(text)}>
        {text}
      </button>
    );
  }
  if (text.includes("\n") || text.length > 240) return <pre className={decisionStyles.longText}>{text}</pre>;
  return <span className={tableStyles.reason}>{text}</span>;
}

/** Values that need the table's full width: tables, nested records, lists, long or multi-line text. */
function isBlock(name: string, value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && (value.some((v) => typeof v === "object" && v !== null) || value.length > 3);
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  if (typeof value === "string") return name === "xml" || value.includes("\n") || value.length > 240;
  return false;
}

const PREVIEW_ITEMS = 6;

function ArrayValue({ name, items, onTarget, depth }: { name: string; items: unknown[]; onTarget(target: string): void; depth: number }) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return <span className={panelStyles.none}>none</span>;
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const more =
    items.length > PREVIEW_ITEMS ? (
      <button type="button" className={`${viewerRow.toggle} ${rowStyles.toggle}`} onClick={() => setAll(!all)} aria-expanded={all}>
        {all ? "show fewer" : `show all ${items.length}`}
      </button>
    ) : null;
  if (items.every(isRecord)) {
    const keys = [...new Set(items.flatMap((item) => Object.keys(item)))];
    const rows = all || items.length <= PREVIEW_ITEMS * 3 ? items : items.slice(0, PREVIEW_ITEMS);
    return (
      <>
        <div className={decisionStyles.tableScroll}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                {keys.map((k) => (
                  <th key={k}>{detailLabel(k)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((item, i) => (
                <tr key={i}>
                  {keys.map((k) => (
                    <td key={k} className={k === "reason" || k === "message" ? tableStyles.reason : undefined}>
                      <Value name={k} value={item[k]} onTarget={onTarget} depth={depth + 1} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {items.length > PREVIEW_ITEMS * 3 ? more : null}
      </>
    );
  }
  const shown = all ? items : items.slice(0, PREVIEW_ITEMS);
  return (
    <>
      <ul className={decisionStyles.list}>
        {shown.map((item, i) => (
          <li key={i}>
            <Value name={name} value={item} onTarget={onTarget} depth={depth + 1} />
          </li>
        ))}
      </ul>
      {more}
    </>
  );
}

/** Numbers by what their key names: shares as %, money as USD, token/char counts with separators. */
export function formatNumber(key: string, value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (/(rate|ratio|share|threshold|fraction)$/i.test(key) && value >= -1 && value <= 1) return `${(value * 100).toFixed(1)}%`;
  if (/(cost|benefit|savings|loss|usd|price)/i.test(key)) return `${value < 0 ? "−" : ""}$${Math.abs(value).toFixed(4)}`;
  if (/ms$/i.test(key)) return `${value.toLocaleString("en-US", { maximumFractionDigits: 0 })} ms`;
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  return value.toLocaleString("en-US", { maximumSignificantDigits: 4 });
}
