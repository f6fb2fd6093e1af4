"use client";

import { startTransition, useActionState, useEffect, useRef, useState, useTransition, type FormEvent } from "react";
import { clearLlmSettingsAction, saveLlmSettingsAction, testLlmConnectionAction } from "@/app/_actions/admin-llm-settings";
import type { ActionResult } from "@/server/action-result";
import type { LlmSlot } from "@/server/llm/slots";
import type { ConnectionTestResult } from "@/server/llm/test-connection";
import type { LlmSettingsView } from "@/server/llm/stored-settings";
import { formatDateTime } from "@/lib/util/format-date-time";

export interface LlmEnvOverride {
  provider: string;
  model: string;
}

const DEFAULTS: Pick<
  LlmSettingsView,
  "provider" | "baseUrl" | "model" | "timeoutMs" | "maxRetries" | "reasoning" | "priceInput" | "priceOutput" | "priceCachedInput"
> = {
  provider: "openai",
  baseUrl: "",
  model: "",
  timeoutMs: 60_000,
  maxRetries: 2,
  reasoning: "auto",
};

const PRICE_FIELDS = [
  ["priceInput", "Input price"],
  ["priceCachedInput", "Cached input price"],
  ["priceOutput", "Output price"],
] as const;

export interface LlmSlotInfo {
  slot: LlmSlot;
  /** Region heading: "LLM endpoint", "Judge model"… */
  title: string;
  /** What the slot is used for and what happens when it is empty. */
  description: string;
}

/** What the page shows about the stored key: never more than its last four characters. */
function keyStatus(apiKey: LlmSettingsView["apiKey"] | undefined): string {
  if (!apiKey || apiKey.state === "unset") return "not set";
  if (apiKey.state === "unreadable") return `set, but unreadable: ${apiKey.message}`;
  return apiKey.endsWith ? `set — ends in …${apiKey.endsWith}` : "set";
}

/**
 * The form of one LLM endpoint slot (admin): the default endpoint, or a purpose's own. The API key
 * field is write-only: it starts empty, an empty field keeps the stored key, and the page only ever
 * learns the key's last four characters. Submitted through onSubmit so a refused save keeps what
 * the admin typed (see CreateUserForm). Each save's status names the stored revision it produced
 * and the time (`data-revision`), and is hidden while a save is pending, so neither a person nor a
 * test mistakes the previous save's "Saved" for this one's.
 */
export function LlmSettingsForm({
  info,
  providers,
  initial,
  envOverride,
}: {
  info: LlmSlotInfo;
  providers: readonly { value: string; label: string }[];
  initial: LlmSettingsView | undefined;
  envOverride: LlmEnvOverride | null;
}) {
  const { slot } = info;
  const [state, action, pending] = useActionState(saveLlmSettingsAction, null);
  const [savedAt, setSavedAt] = useState("");
  const [cleared, setCleared] = useState(false);
  // Each answer carries the number of the test that produced it (data-attempt), so a wait for this
  // test's answer cannot be satisfied by the previous one (issue 18's flaky spec).
  const [test, setTest] = useState<{ attempt: number; result: ActionResult<ConnectionTestResult> } | null>(null);
  const [testing, startTest] = useTransition();
  const form = useRef<HTMLFormElement>(null);
  const current = cleared ? undefined : state?.ok ? state.data : initial;
  useEffect(() => {
    if (state?.ok && form.current) {
      const key = form.current.elements.namedItem("apiKey") as HTMLInputElement | null;
      if (key) key.value = "";
      setCleared(false);
    }
    if (state?.ok) setSavedAt(formatDateTime(new Date(), { seconds: true }));
  }, [state]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const idOf = (name: string) => `llm-${slot}-${name}`;
  const field = (name: string) => ({
    id: idOf(name),
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${idOf(name)}-error` : undefined,
  });
  const error = (name: string) =>
    errors[name] ? (
      <span id={`${idOf(name)}-error`} className="field-error">
        {errors[name].join(" ")}
      </span>
    ) : null;
  const values = current ?? DEFAULTS;

  return (
    <section className="card card-body" aria-labelledby={idOf("heading")}>
      <form ref={form} onSubmit={onSubmit} className="stack" noValidate key={current ? "stored" : "empty"}>
        <h2 id={idOf("heading")}>{info.title}</h2>
        <p className="muted">
          {info.description} The API key is stored encrypted (AES-256-GCM, keyed by TRACEFOLD_SECRET_KEY or NEXTAUTH_SECRET) and is never shown again.
        </p>
        <input type="hidden" name="slot" value={slot} />
        {envOverride ? (
          <div className="alert alert-error" role="note" data-testid="llm-env-override">
            {envOverride.provider
              ? `TRACEFOLD_LLM_PROVIDER is set on the server, so the environment's endpoint (${envOverride.provider}, model ${envOverride.model}) is in use and these settings are ignored until it is unset.`
              : "TRACEFOLD_LLM_<PURPOSE>_PROVIDER is set on the server, so the environment's endpoints are in use and these settings are ignored until they are unset."}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={idOf("provider")}>Provider</label>
          <select {...field("provider")} className="select" defaultValue={values.provider}>
            {providers.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          {error("provider")}
        </div>
        <div className="field">
          <label htmlFor={idOf("baseUrl")}>Base URL</label>
          <input {...field("baseUrl")} className="input" defaultValue={values.baseUrl} placeholder="empty: the provider's public API" autoComplete="off" />
          {error("baseUrl")}
        </div>
        <div className="field">
          <label htmlFor={idOf("model")}>Model</label>
          <input {...field("model")} className="input" defaultValue={values.model} autoComplete="off" required />
          {error("model")}
        </div>
        <div className="field">
          <label htmlFor={idOf("reasoning")}>Reasoning</label>
          <select {...field("reasoning")} className="select" defaultValue={values.reasoning ?? "auto"}>
            <option value="auto">Detect from the name (gpt-5*, o1/o3/o4*)</option>
            <option value="on">Yes: send no temperature, max_completion_tokens</option>
            <option value="off">No</option>
          </select>
          {error("reasoning")}
        </div>
        <div className="field">
          <label htmlFor={idOf("timeoutMs")}>Timeout per attempt (ms)</label>
          <input {...field("timeoutMs")} className="input" inputMode="numeric" defaultValue={String(values.timeoutMs)} />
          {error("timeoutMs")}
        </div>
        <div className="field">
          <label htmlFor={idOf("maxRetries")}>Retries</label>
          <input {...field("maxRetries")} className="input" inputMode="numeric" defaultValue={String(values.maxRetries)} />
          {error("maxRetries")}
        </div>
        <fieldset className="field">
          <legend>Prices, USD per million tokens (optional: set them to see each call&apos;s cost and to charge the planner&apos;s real cost as L_GC)</legend>
          <div className="grid-3">
            {PRICE_FIELDS.map(([name, label]) => (
              <div className="field" key={name}>
                <label htmlFor={idOf(name)}>{label}</label>
                <input
                  {...field(name)}
                  className="input"
                  inputMode="decimal"
                  defaultValue={values[name] === undefined ? "" : String(values[name])}
                  autoComplete="off"
                />
                {error(name)}
              </div>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={idOf("apiKey")}>API key</label>
          <input {...field("apiKey")} type="password" className="input" autoComplete="off" placeholder="empty: keep the stored key" />
          {error("apiKey") ?? (
            <span className="faint" data-testid="llm-key-status">
              Stored key: {keyStatus(current?.apiKey)}
            </span>
          )}
        </div>
        <label>
          <input type="checkbox" name="clearApiKey" /> Remove the stored key
        </label>
        <div>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            Save endpoint
          </button>{" "}
          <button
            type="button"
            className="btn"
            disabled={testing}
            onClick={() =>
              startTest(async () => {
                const attempt = (test?.attempt ?? 0) + 1;
                setTest({ attempt, result: await testLlmConnectionAction(slot) });
              })
            }
          >
            {testing ? "Testing…" : "Test connection"}
          </button>{" "}
          {current ? (
            <button
              type="button"
              className="btn"
              onClick={() =>
                startTest(async () => {
                  const result = await clearLlmSettingsAction("clear", slot);
                  if (result.ok) setCleared(true);
                })
              }
            >
              Remove endpoint
            </button>
          ) : null}{" "}
          {state?.ok && !pending && savedAt ? (
            <span role="status" data-revision={state.data.revision}>
              Saved revision {state.data.revision} at {savedAt}.
            </span>
          ) : null}
          {state && !state.ok ? <span className="field-error">{state.message}</span> : null}
        </div>
        {/* While a test runs the previous answer is hidden, so it cannot be read as this test's. */}
        {test && !testing ? <ConnectionResult result={test.result} attempt={test.attempt} slot={slot} /> : null}
      </form>
    </section>
  );
}

function ConnectionResult({ result, attempt, slot: slotOfForm }: { result: ActionResult<ConnectionTestResult>; attempt: number; slot: LlmSlot }) {
  if (!result.ok)
    return (
      <div className="alert alert-error" role="alert" data-attempt={attempt}>
        {result.message}
      </div>
    );
  const test = result.data;
  const from = test.source === "env" ? "environment" : test.source === "settings" ? "saved settings" : undefined;
  const fallback = test.ok && test.slot === "default" && slotOfForm !== "default" ? "; this purpose has no endpoint of its own, so the default's answered" : "";
  if (!test.ok) {
    return (
      <div className="alert alert-error" role="alert" data-testid="llm-test-result" data-attempt={attempt}>
        Connection failed{from ? ` (${from})` : ""}: {test.message}
      </div>
    );
  }
  return (
    <div className="alert alert-ok" role="status" data-testid="llm-test-result" data-attempt={attempt}>
      Connected ({from}): {test.provider} model {test.answeredBy} answered “{test.reply}” in {test.latencyMs} ms{fallback}.
    </div>
  );
}
