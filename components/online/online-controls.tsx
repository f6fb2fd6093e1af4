"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { DEFAULT_PRICES, type Prices } from "@/lib/rollout/billed-cost";
import type { ExampleInstants } from "@/lib/online/estimation/example-instants";

export interface ControlValues {
  assign: string;
  window: string;
  tz: string;
  surface: string[];
  volatile: string[];
  rollout: string;
  prices: Prices;
}

const ZONES = [
  "UTC",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Sao_Paulo",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Asia/Singapore",
  "Australia/Sydney",
  "Australia/Adelaide",
];
const PRICE_LABELS: Record<keyof Prices, string> = { input: "Input $/M", cachedInput: "Cached input $/M", cacheWrite: "Cache write $/M", output: "Output $/M" };

/**
 * The report's controls. Applying them writes them to the URL (so a view can be shared and the CSV
 * export uses the same), and the server page recomputes the report from the stored slots.
 */
export function OnlineControls({
  values,
  surfaces,
  groupColumn,
  examples,
}: {
  values: ControlValues;
  surfaces: string[];
  groupColumn: string | undefined;
  examples: ExampleInstants;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const [kind, arg] = splitRule(values.assign);
  const [ruleKind, setRuleKind] = useState(kind);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const params = new URLSearchParams();
    const k = text("ruleKind");
    params.set("assign", k === "column" ? `column:${groupColumn ?? "group"}` : `${k}:${text("ruleArg") || (k === "email-pivot" ? "o" : "salt")}`);
    params.set("window", `${text("windowStart")}-${text("windowEnd")}`);
    params.set("tz", text("tz") || "UTC");
    for (const s of form.getAll("surface")) params.append("surface", String(s));
    for (const v of text("volatile")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean))
      params.append("volatile", v);
    if (text("rollout")) params.set("rollout", text("rollout"));
    const prices = (Object.keys(PRICE_LABELS) as (keyof Prices)[]).map((p) => `${p}=${text(`price-${p}`) || DEFAULT_PRICES[p]}`).join(",");
    params.set("prices", prices);
    startTransition(() => router.push(`${pathname}?${params.toString()}`, { scroll: false }));
  }

  const [windowStart, windowEnd] = values.window.split("-");
  return (
    <form className="card card-body stack" aria-label="Report controls" onSubmit={submit} key={JSON.stringify(values)}>
      <div className="row" style={{ gap: 12, flexWrap: "wrap", alignItems: "end" }}>
        <label className="field">
          Assignment rule
          <select className="select" name="ruleKind" value={ruleKind} onChange={(e) => setRuleKind(e.target.value)}>
            <option value="email-pivot">E-mail pivot character (seed 000)</option>
            <option value="hash">Salted hash split</option>
            <option value="column" disabled={!groupColumn}>
              Group column{groupColumn ? ` (${groupColumn})` : " (none mapped)"}
            </option>
          </select>
        </label>
        {ruleKind !== "column" ? (
          <label className="field">
            {ruleKind === "hash" ? "Hash salt" : "Pivot character"}
            <input
              className="input"
              name="ruleArg"
              defaultValue={ruleKind === kind ? arg : ruleKind === "email-pivot" ? "o" : "salt"}
              maxLength={ruleKind === "hash" ? 100 : 1}
              style={{ width: ruleKind === "hash" ? 140 : 60 }}
            />
          </label>
        ) : null}
        <label className="field">
          Window start
          <input
            className="input"
            name="windowStart"
            defaultValue={windowStart}
            pattern="\d{2}:\d{2}"
            title="HH:MM on a quarter hour"
            style={{ width: 80 }}
            required
          />
        </label>
        <label className="field">
          Window end
          <input
            className="input"
            name="windowEnd"
            defaultValue={windowEnd}
            pattern="\d{2}:\d{2}"
            title="HH:MM, 24:00 allowed"
            style={{ width: 80 }}
            required
          />
        </label>
        <label className="field">
          Time zone
          <input className="input" name="tz" list="online-zones" defaultValue={values.tz} style={{ width: 200 }} />
          <datalist id="online-zones">
            {ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </label>
      </div>
      {surfaces.length > 1 || (surfaces.length === 1 && surfaces[0] !== "") ? (
        <fieldset className="row" style={{ gap: 12, border: "none", padding: 0 }}>
          <legend className="faint">Surfaces (none ticked: all)</legend>
          {surfaces.map((s) => (
            <label key={s} className="row" style={{ gap: 4 }}>
              <input type="checkbox" name="surface" value={s} defaultChecked={values.surface.includes(s)} /> {s || "(none)"}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="row" style={{ gap: 12, flexWrap: "wrap", alignItems: "start" }}>
        <label className="field" style={{ flex: "1 1 320px" }}>
          Volatile windows (one START/END per line, excluded)
          <textarea className="input mono" name="volatile" rows={2} defaultValue={values.volatile.join("\n")} placeholder={examples.volatile} />
        </label>
        <label className="field">
          Rollout instant (before it: pre-period)
          <input className="input mono" name="rollout" defaultValue={values.rollout} placeholder={examples.rollout} style={{ width: 220 }} />
        </label>
        {(Object.keys(PRICE_LABELS) as (keyof Prices)[]).map((p) => (
          <label key={p} className="field">
            {PRICE_LABELS[p]}
            <input className="input" name={`price-${p}`} type="number" min={0} step="any" defaultValue={values.prices[p]} style={{ width: 90 }} />
          </label>
        ))}
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Computing…" : "Apply"}
        </button>
      </div>
    </form>
  );
}

function splitRule(spec: string): [string, string] {
  const colon = spec.indexOf(":");
  return colon === -1 ? [spec, ""] : [spec.slice(0, colon), spec.slice(colon + 1)];
}
