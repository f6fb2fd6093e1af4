import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV } from "./fixtures/import-session";

/*
 * Issue 17's "Done means": the walk a new user took, through the UI only (API calls only read results
 * back). The generated demo sessions `npm run studio` seeds get self-gc replayed once each (item 1:
 * never an HTTP 500 nor a server path); real shared traces are uploaded with redaction on, previewed,
 * imported, found in the traces table and replayed the same way (item 2: the preview finds what
 * `tracefold redact --dry-run` finds, and URL-like JSON and Elixir source are stored as written); an
 * evaluation run started from the form feeds an A/B queue for one chosen pair, labeled with the
 * keyboard only (item 12), and the labels are in the export. The studio also seeds every shared trace
 * as demo data; this spec leaves them out (other specs expect some of them fresh), and
 * tests/db/demo-self-gc-replay.test.ts replays self-gc on every one of them.
 */
test.use({ storageState: storageStateOf("admin") });
test.describe.configure({ mode: "serial" });

const TRACES = resolve("../shared/traces");
/** A Claude Code session whose tool results carry URL-like JSON (`"url":"https://github.com/…"`). */
const URL_JSON_SESSION = `${TRACES}/claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl`;
/** The Claude Code session item 1 names ("Work on bead spotter-dov"): self-gc failed on it. */
const SPOTTER_DOV = `${TRACES}/claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl`;
/**
 * The Claude Code session with the Elixir source item 2 names: the old password_assignment rule took
 * `token = Base.url_encode64(:crypto…)` for a secret (2 findings). Other specs import it too, so on a
 * full run its upload may be recognised as already there.
 */
const ELIXIR_SESSION = `${TRACES}/claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl`;
/** Other formats: a mini-swe-agent run (item 1 failed on such runs), OpenHands events, OpenTelemetry GenAI spans. */
const MINI_SWE_AGENT = `${TRACES}/mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/astropy__astropy-12907/astropy__astropy-12907.traj.json`;
const OPENHANDS = `${TRACES}/openhands_events/All-Hands-AI__OpenHands/tests/runtime/trajs/basic_gui_mode.json`;
const OTEL = `${TRACES}/otel_genai_spans/mozilla-ai__any-agent/tests/assets/OPENAI_trace.json`;
const UPLOADS = [URL_JSON_SESSION, SPOTTER_DOV, ELIXIR_SESSION, MINI_SWE_AGENT, OPENHANDS, OTEL];
const RUN_NAME = `e2e new-user walk ${Date.now()}`;
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;

interface DemoSession {
  id: string;
  title: string;
}

let demoSessions: DemoSession[] = [];
/** The titles of the sessions each uploaded file holds, replayed after the upload like the demo ones. */
const uploadedTitles = new Map<string, string[]>();

test.beforeAll(() => {
  const stdout = execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/seed-demo-sessions.ts"], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  demoSessions = JSON.parse(stdout.trim().split("\n").pop()!) as DemoSession[];
});

/** Answers of 500 and above (pages, server actions, API), and API errors that name a server path or a stack. */
function watchServerErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on("response", async (response) => {
    const url = new URL(response.url());
    if (url.origin !== ORIGIN) return;
    if (response.status() >= 500) problems.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
    if (response.ok() || !url.pathname.startsWith("/api/")) return; // a success carries trace text, which may well name paths
    const text = await response.text().catch(() => "");
    if (LEAK.test(text)) problems.push(`${url.pathname} leaks: ${LEAK.exec(text)![0]}`);
  });
  return problems;
}

/** What a server path or a stack looks like in an error (item 1's `ENOENT … rename '<data>/sidecars/…'`). */
const LEAK = /ENOENT|EEXIST|\/work\/|\/tmp\/|\bsidecars\/[0-9a-f]{2}\/|\.tmp['"]|\n\s+at [\w.<>]+ \(/;

/** Traces → search by title → the session. */
async function openSession(page: Page, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Traces" }).click();
  await page.getByRole("searchbox", { name: "Search" }).fill(title.slice(0, 40));
  const table = page.getByRole("table", { name: "Traces" });
  await table.getByRole("link", { name: title, exact: true }).first().click();
  await expect(page).toHaveURL(/\/sessions\/[\w-]+$/);
}

/**
 * Message text search in the session view: the first match (its long output shown in full when
 * `collapsed`) holds `text`, and nothing on the page is redacted.
 */
async function expectStoredAsWritten(page: Page, query: string, text: string, collapsed = false): Promise<void> {
  const search = page.getByRole("textbox", { name: "Search messages" });
  await search.fill(query);
  await search.press("Enter");
  await expect(page.getByTestId("search-status")).toHaveText(/^1 \/ \d+$/);
  const match = page.locator("[data-highlighted]").first();
  if (collapsed) await match.getByRole("button", { name: /^show all/ }).click();
  await expect(match).toContainText(text);
  await expect(page.getByTestId("redaction-marker")).toHaveCount(0);
}

/** The session → Replay → self-gc → `r`: the projected view shows, no error. */
async function replaySelfGc(page: Page, title: string): Promise<void> {
  await openSession(page, title);
  await page.getByRole("link", { name: /Replay policies at a cut/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Replay policies at a cut" })).toBeVisible();
  await expect(page.getByTestId("empty-state")).toBeVisible();
  await page.getByLabel("Policy").selectOption("self-gc");
  await page.getByRole("heading", { level: 1 }).click(); // leave the select so `r` is a shortcut
  await page.keyboard.press("r");
  const summary = page.getByTestId("run-summary").first();
  await expect(summary.or(page.getByTestId("run-error"))).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("run-error"), `self-gc on "${title}"`).toHaveCount(0);
  await expect(summary).toHaveAttribute("data-policy", "self-gc");
  await expect(summary.getByTestId("run-numbers")).toHaveText(/[\d,]+\s*→\s*[\d,]+\s*tokens/);
  await expect(page.getByTestId("projected-cell").first()).toBeVisible();
  for (const alert of await page.getByRole("alert").all()) await expect(alert).not.toContainText(LEAK);
}

test("replays self-gc once on every demo session: the projected view shows, never an error", async ({ page }) => {
  test.setTimeout(120_000);
  expect(demoSessions.length).toBeGreaterThan(0);
  const problems = watchServerErrors(page);
  await page.goto("/traces");
  for (const session of demoSessions) await replaySelfGc(page, session.title);
  expect(problems).toEqual([]);
});

test("uploads shared traces with redaction on: the preview agrees with the CLI, the sessions are in the table and replay", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchServerErrors(page);
  // Redaction is on: every rule's switch is on in the admin settings.
  await page.goto("/traces");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
  await page.getByRole("link", { name: "settings", exact: true }).click();
  const rules = page.getByRole("region", { name: "Upload redaction" }).getByRole("checkbox", { name: /^Rule / });
  await expect(rules.first()).toBeVisible();
  for (const rule of await rules.all()) await expect(rule).toBeChecked();

  const cli = JSON.parse(
    execFileSync("npx", ["--no-install", "tsx", "cli/main.ts", "redact", ...UPLOADS, "--dry-run", "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ) as { files: { path: string; findings: unknown[] }[] };
  expect(cli.files).toHaveLength(UPLOADS.length);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Upload" }).click();
  await page.getByLabel("Choose trace files").setInputFiles(UPLOADS);
  const rows = page.getByTestId("upload-row");
  for (const [i, path] of UPLOADS.entries()) {
    const row = rows.filter({ hasText: basename(path) });
    await expect(row).toHaveAttribute("data-status", "ready");
    const findings = cli.files[i]!.findings.length;
    const preview = row.getByTestId("redaction-preview");
    if (findings === 0) await expect(preview).toHaveText("No secrets found: the file will be stored as it is.");
    else await expect(preview).toContainText(`${findings} secret${findings === 1 ? "" : "s"} will be redacted before the file is stored`);
  }
  await page.getByRole("button", { name: `Upload ${UPLOADS.length} files` }).click();
  for (const [i, path] of UPLOADS.entries()) {
    const row = rows.filter({ hasText: basename(path) });
    // The e2e database starts empty; only the Elixir session may have been imported by an earlier spec.
    await expect(row).toHaveAttribute("data-status", path === ELIXIR_SESSION ? /^(imported|duplicate)$/ : "imported", { timeout: 30_000 });
    const findings = cli.files[i]!.findings.length;
    if ((await row.getAttribute("data-status")) === "imported") {
      if (findings === 0) await expect(row).toContainText("No secrets found: the file is stored as uploaded.");
      else await expect(row.getByTestId("redaction-report")).toContainText(`Redacted ${findings} secret${findings === 1 ? "" : "s"} before storing`);
    }
    const links = row.getByRole("list", { name: "Sessions" }).getByRole("link");
    await expect(links.first()).toBeVisible();
    uploadedTitles.set(path, await Promise.all((await links.all()).map(async (link) => (await link.textContent())!.trim())));
  }

  // The URL-like JSON and the Elixir source are stored as written, with no redaction marker.
  await openSession(page, uploadedTitles.get(URL_JSON_SESSION)![0]!);
  await expectStoredAsWritten(page, "xterm.js/issues/3201", '"url":"https://github.com/xtermjs/xterm.js/issues/3201"');
  await openSession(page, uploadedTitles.get(ELIXIR_SESSION)![0]!);
  await expectStoredAsWritten(page, "Base.url_encode64", "token = Base.url_encode64(:crypto.strong_rand_bytes(24), padding: false)", true);

  // Each uploaded session is in the traces table, and self-gc replays on it.
  for (const title of [...uploadedTitles.values()].flat()) await replaySelfGc(page, title);
  expect(problems).toEqual([]);
});

/** The A/B verdict each key gives, as the export writes it. */
const VERDICTS = { a: "A_better", b: "B_better", t: "tie" } as const;

test("starts an evaluation from the form, builds an A/B queue for one pair and labels it with the keyboard only", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchServerErrors(page);
  await page.goto("/traces");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }).click();
  const form = page.getByRole("region", { name: "New evaluation" });
  await form.getByLabel("Name (optional)").fill(RUN_NAME);
  await form.getByLabel("Suite format").selectOption("tracefold_jsonl"); // the demo sessions
  for (const id of ["self-gc", "tool-prune"]) await form.getByRole("checkbox", { name: id, exact: true }).check();
  await form.getByRole("button", { name: "Start evaluation" }).click();
  await expect(page).toHaveURL(/\/evaluations\/[a-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1, name: RUN_NAME })).toBeVisible();
  await expect(page.getByTestId("run-status").first()).toHaveText("done", { timeout: 90_000 });
  await expect(page.getByTestId("run-progress-text").first()).toHaveText(/^(\d+) \/ \1$/);
  const results = page.getByRole("table", { name: "Results" });
  for (const id of ["self-gc", "tool-prune"]) await expect(results.getByRole("button", { name: `Cuts of ${id}` })).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" }).click();
  const queueForm = page.getByRole("form", { name: "New review queue" });
  await queueForm.getByLabel("Evaluation run").selectOption({ label: `${RUN_NAME} (done)` });
  await queueForm.getByLabel("Kind").selectOption("ab");
  await queueForm.getByLabel("Policy A").selectOption("self-gc");
  await queueForm.getByLabel("Policy B").selectOption("tool-prune");
  await queueForm.getByRole("radio", { name: "Where the judge disagrees between A and B" }).check();
  await queueForm.getByLabel("Sample size (optional)").fill("3");
  await queueForm.getByLabel("Seed (optional)").fill("17");
  const queueName = `${RUN_NAME} self-gc vs tool-prune`;
  await queueForm.getByLabel("Name (optional)").fill(queueName);
  await queueForm.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: queueName })).toBeVisible();
  await expect(page.getByTestId("queue-options")).toHaveText(
    /^A\/B pair self-gc vs tool-prune · cuts where the judge disagrees · a sample of 3 of \d+ items \(seed 17\)$/,
  );

  // Keyboard only from here: a verdict key, the rationale (it has the focus), Enter saves and moves on.
  const keys = ["a", "t", "b"] as const;
  const rationale = page.getByLabel("Rationale");
  for (const [i, key] of keys.entries()) {
    await expect(page.getByTestId("item-position")).toHaveText(`Item ${i + 1} of ${keys.length}`);
    await page.keyboard.press(key);
    await expect(rationale).toBeFocused();
    await page.keyboard.type(`walk verdict ${i + 1}`);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("verdict-count")).toHaveText(String(i + 1));
  }
  await expect(page.getByTestId("queue-done")).toBeVisible();

  // The labels are saved: the export (the page's own link) holds each verdict with its rationale.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export JSONL" }).click();
  const exported = (await (await downloading).path()) ?? "";
  type Exported = {
    kind: string;
    reviewer: string;
    verdict: string;
    rationale: string;
    retracted?: boolean;
    ref: { sessionId: string };
    sides: { A: string; B: string };
  };
  const labels = readFileSync(exported, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Exported);
  expect(labels.map((l) => [l.verdict, l.rationale, l.retracted ?? false]).sort()).toEqual(
    keys.map((k, i) => [VERDICTS[k], `walk verdict ${i + 1}`, false]).sort(),
  );
  for (const label of labels) {
    expect(label).toMatchObject({ kind: "ab", reviewer: "admin@tracefold.local" });
    expect([label.sides.A, label.sides.B].sort()).toEqual(["self-gc", "tool-prune"]);
    expect(demoSessions.map((s) => s.id)).toContain(label.ref.sessionId);
  }
  await page.reload();
  await expect(page.getByTestId("verdict-count")).toHaveText(String(keys.length));
  expect(problems).toEqual([]);
});
