import type { SimSuiteReport } from "@/lib/online/simulation/simulate-suite";

export type SimEvent = { type: "progress"; done: number; total: number };
export type SimOutcome = { ok: true; report: SimSuiteReport } | { ok: false; message: string };

/**
 * Posts a simulation and follows the server's NDJSON answer line by line (progress after each
 * session, then the result). Aborting the signal closes the connection, which stops the server's work.
 */
export async function streamSimulation(body: unknown, onProgress: (event: SimEvent) => void, signal: AbortSignal): Promise<SimOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/online/simulate", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  } catch {
    return { ok: false, message: signal.aborted ? "cancelled" : "the connection to the server failed" };
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    try {
      return { ok: false, message: (JSON.parse(text) as { message?: string }).message ?? `HTTP ${response.status}` };
    } catch {
      return { ok: false, message: `the server answered HTTP ${response.status}` };
    }
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let outcome: SimOutcome | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const event = JSON.parse(line) as { type: string; message?: string; report?: SimSuiteReport; done?: number; total?: number };
        if (event.type === "progress") onProgress(event as SimEvent);
        else if (event.type === "result" && event.report) outcome = { ok: true, report: event.report };
        else if (event.type === "error") outcome = { ok: false, message: event.message ?? "the simulation failed" };
      }
    }
  } catch {
    return { ok: false, message: signal.aborted ? "cancelled" : "the connection closed before the simulation finished" };
  }
  return outcome ?? { ok: false, message: "the server closed the connection without a result" };
}
