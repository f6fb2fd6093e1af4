import { expect, test, type Locator } from "@playwright/test";
import { startLlmStub, type LlmStub } from "../tests/helpers/llm-stub-server";
import { storageStateOf } from "./fixtures/accounts";
import { clearLlmEndpoint } from "./fixtures/llm-endpoint";
import { COMPACTED_TRANSCRIPT, importForE2e, type ImportedSession } from "./fixtures/import-session";

test.use({ storageState: storageStateOf("viewer") });

/*
 * The long Claude Code session (344 messages) cut after 250 messages: oldest-turn folds the first
 * user turn into a sidecar, self-gc commits a plan (fold, mask, prune) and tool-prune prunes.
 */
const CUT = 250;
const FOLD_BLUE = "rgb(37, 99, 235)";

let session: ImportedSession;
test.beforeAll(() => {
  [session] = importForE2e(COMPACTED_TRANSCRIPT) as [ImportedSession];
});

/** "94,761 → 25,600 tokens" as numbers; fails the test when the header does not say that. */
async function tokensOf(summary: Locator): Promise<{ before: number; after: number }> {
  const numbers = summary.getByTestId("run-numbers");
  await expect(numbers).toHaveText(/[\d,]+\s*→\s*[\d,]+\s*tokens/);
  const match = /([\d,]+)\s*→\s*([\d,]+)/.exec((await numbers.textContent()) ?? "")!;
  return { before: Number(match[1]!.replaceAll(",", "")), after: Number(match[2]!.replaceAll(",", "")) };
}

test("a viewer replays policies at a cut, restores a folded object and compares two policies", async ({ page }) => {
  await page.goto(`/sessions/${session.id}/compact`);
  await expect(page.getByRole("heading", { level: 1, name: "Replay policies at a cut" })).toBeVisible();
  await expect(page.getByTestId("empty-state")).toBeVisible();

  // oldest-turn at the cut: tokens shrink and the folded turn is coloured as folded.
  await page.getByLabel("Policy").selectOption("oldest-turn");
  await expect(page.getByTestId("policy-description")).toContainText("Folds the oldest user turns");
  const cutField = page.getByLabel("Cut after messages");
  await cutField.fill(String(CUT));
  await cutField.press("Enter");
  await expect(page.getByTestId("cut-label")).toHaveText(new RegExp(`^cut after ${CUT} messages · [\\d,]+ tokens$`));
  await page.getByRole("button", { name: "Run", exact: true }).click();

  const summaries = page.getByTestId("run-summary");
  await expect(summaries).toHaveCount(1);
  await expect(summaries.first()).toHaveAttribute("data-policy", "oldest-turn");
  const oldest = await tokensOf(summaries.first());
  expect(oldest.after).toBeLessThan(oldest.before);
  await expect(summaries.first().getByTestId("action-counts")).toContainText(/\d+ folded/);
  await expect(page).toHaveURL(new RegExp(`policy=oldest-turn&cut=${CUT}`));

  const foldedPart = page.getByTestId("original-cell").locator('[data-testid="part"][data-action="fold"]').first();
  await expect(foldedPart).toBeVisible();
  await expect(foldedPart).toHaveCSS("border-left-color", FOLD_BLUE);
  await expect(foldedPart).toContainText("oldest conversational span folded chronologically");

  // Restore the folded payload: the text shown is the sidecar's bytes, checked in the browser.
  const pointer = page.getByTestId("sidecar-pointer").first();
  const sha = await pointer.locator("code").getAttribute("title");
  expect(sha).toMatch(/^[0-9a-f]{64}$/);
  await pointer.getByRole("button", { name: /^Restore / }).click();
  const dialog = page.getByRole("dialog", { name: /^Restored / });
  await expect(dialog.getByTestId("restore-check")).toHaveText("✓ matches sha256");
  await expect(dialog.getByTestId("restore-bytes")).toContainText(/[\d,]+ bytes restored/);
  const sidecar = await page.request.get(`/api/sidecars/${sha}`);
  expect(sidecar.status()).toBe(200);
  expect(sidecar.headers()["x-content-sha256"]).toBe(sha);
  expect(await dialog.getByTestId("restore-text").textContent()).toBe(await sidecar.text());
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // self-gc on the same cut (run with the `r` shortcut): planner XML and the commit decision.
  await page.getByLabel("Policy").selectOption("self-gc");
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("r");
  await expect(summaries.first()).toHaveAttribute("data-policy", "self-gc");
  const selfGc = await tokensOf(summaries.first());
  expect(selfGc.before).toBe(oldest.before);
  const details = page.getByTestId("run-details");
  await expect(details.getByTestId("planner-xml")).toContainText("<gc_plan>");
  const commit = details.getByTestId("details-commit");
  await expect(commit.getByText("committed", { exact: true })).toBeVisible();
  await expect(commit.getByRole("row", { name: /^Cache-break cost \(L_cache_break\)/ })).toContainText(/\$\d+\.\d{4}/);
  await expect(commit.getByRole("row", { name: /^Future savings/ })).toContainText(/\$\d+\.\d{4}/);
  await expect(commit.getByRole("row", { name: /^GC cost: the planner call \(L_GC\)/ })).toContainText("$0.0000");
  await expect(commit.getByRole("row", { name: /^OpenAI messages [\d,]+$/ })).toBeVisible();
  await expect(commit).not.toContainText(/Open ai|Gc loss/);
  await expect(details.getByTestId("details-rehearsal")).toContainText("accepted");

  // Actions take the page's width at their full height; Why follows below, its text wrapping in bounds.
  const actionsPanel = await page.getByTestId("actions-panel").boundingBox();
  const whyPanel = await details.boundingBox();
  expect(whyPanel!.y).toBeGreaterThanOrEqual(actionsPanel!.y + actionsPanel!.height - 1);
  const actionsBox = await page.getByTestId("actions-table").evaluate((table) => {
    const box = table.parentElement!;
    const reasons = [...table.querySelectorAll('[data-testid="action-reason"]')].map((reason) => reason.getBoundingClientRect().width);
    return { clipped: box.scrollHeight - box.clientHeight, rows: reasons.length, widestReason: Math.max(...reasons) };
  });
  expect(actionsBox.rows).toBeGreaterThan(0);
  expect(actionsBox.clipped).toBeLessThanOrEqual(0);
  expect(actionsBox.widestReason).toBeLessThanOrEqual(700);
  await page.screenshot({ path: test.info().outputPath("replay-actions-why.png"), fullPage: true });

  // Compare with tool-prune in one step: both views side by side with their numbers.
  await page.getByLabel("Compare with").selectOption("tool-prune");
  await expect(summaries).toHaveCount(2);
  await expect(summaries.nth(0)).toHaveAttribute("data-policy", "self-gc");
  await expect(summaries.nth(1)).toHaveAttribute("data-policy", "tool-prune");
  const toolPrune = await tokensOf(summaries.nth(1));
  expect(toolPrune.before).toBe(selfGc.before);
  expect(toolPrune.after).toBeLessThan(toolPrune.before);
  await expect(page.getByTestId("compare-bar")).toContainText(`at cut after ${CUT} of`);
  await expect(page.getByTestId("column-head")).toHaveText([/self-gc/, /tool-prune/]);
  await expect(page.locator('[data-testid="projected-cell"][data-column="1"]').first()).toBeVisible();
  await expect(page).toHaveURL(/policy=self-gc&cut=250&compare=tool-prune/);

  await page.getByLabel("Changed only").check();
  await expect(page.locator('[data-testid="gone-cell"][data-column="1"]').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("compare-view.png") });

  // Swapping is one click; the link still reproduces the comparison.
  await page.getByRole("button", { name: "Swap A and B" }).click();
  await expect(summaries.nth(0)).toHaveAttribute("data-policy", "tool-prune");
  await expect(summaries.nth(1)).toHaveAttribute("data-policy", "self-gc");
  await expect(page).toHaveURL(/policy=tool-prune&cut=250&compare=self-gc/);
  await page.reload();
  await expect(summaries).toHaveCount(2);
  await expect(summaries.nth(0)).toHaveAttribute("data-policy", "tool-prune");
});

test("bad input gets clear answers: unknown session, bad body, malformed or unknown digest", async ({ page, baseURL }) => {
  const headers = { origin: baseURL! };
  const missing = await page.goto("/sessions/no-such-session/compact");
  expect(missing?.status()).toBe(404);

  const badBody = await page.request.post(`/api/sessions/${session.id}/compact`, { data: { policy: "self-gc", cut: 0 }, headers });
  expect(badBody.status()).toBe(400);
  expect(await badBody.json()).toMatchObject({ ok: false, code: "invalid_request" });
  const badParam = await page.request.post(`/api/sessions/${session.id}/compact`, { data: { policy: "self-gc", params: { nFuture: "many" } }, headers });
  expect(badParam.status()).toBe(400);
  expect(await badParam.json()).toMatchObject({ ok: false, code: "invalid_params" });
  const noSession = await page.request.post("/api/sessions/no-such-session/compact", { data: { policy: "none" }, headers });
  expect(noSession.status()).toBe(404);

  expect((await page.request.get("/api/sidecars/not-a-digest")).status()).toBe(404);
  expect((await page.request.get(`/api/sidecars/${"0".repeat(64)}`)).status()).toBe(404);

  const policies = await page.request.get("/api/policies");
  const body = (await policies.json()) as { ok: boolean; data: { id: string; params: unknown[] }[] };
  expect(body.ok).toBe(true);
  expect(body.data.map((p) => p.id)).toEqual(expect.arrayContaining(["oldest-turn", "tool-prune", "self-gc"]));
});

/*
 * self-gc with planner=llm calls the model, so it runs as a job a worker executes (the embedded
 * studio's in-process worker here): the page waits for the planner with the elapsed time, then
 * shows the result as a synchronous run's; Cancel stops waiting; a failing endpoint is an error.
 */
test.describe("the LLM planner as a job", () => {
  const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
  let stub: LlmStub;
  test.beforeAll(async ({ browser }) => {
    stub = await startLlmStub((request) => {
      const id = /function:([a-z_]+:\d+)/.exec(JSON.stringify(request.body))?.[1] ?? "read:1";
      return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>\n  <fold kind="function" reason="stable_artifact">${id}</fold>\n</gc_plan>`;
    });
    const admin = await browser.newContext({ storageState: storageStateOf("admin") });
    const page = await admin.newPage();
    await page.goto("/admin/settings");
    const form = page.getByRole("region", { name: "LLM endpoint" });
    await form.getByLabel("Provider").selectOption("openai");
    await form.getByLabel("Base URL").fill(`${stub.baseUrl}/v1`);
    await form.getByLabel("Model").fill("stub-model");
    await form.getByLabel("Timeout per attempt (ms)").fill("10000");
    await form.getByLabel("Retries").fill("0");
    await form.getByLabel("API key").fill("sk-e2e-compaction-job");
    await form.getByRole("button", { name: "Save endpoint" }).click();
    await expect(form.getByRole("status").filter({ hasText: /^Saved revision \d+ at/ })).toBeVisible();
    await admin.close();
  });
  test.afterAll(async () => {
    await clearLlmEndpoint(ORIGIN);
    await stub.close();
  });

  test("a viewer waits for the planner, sees the result, can stop waiting, and sees the endpoint's failure", async ({ page }) => {
    const calls = stub.requests.length;
    stub.script({ delayMs: 2_500 });
    await page.goto(`/sessions/${session.id}/compact?policy=self-gc&cut=${CUT}&p.planner=llm`);
    const waiting = page.getByTestId("run-waiting");
    await expect(waiting).toContainText(/Waiting for the planner… self-gc at cut 250 runs in a worker \((queued|running, attempt 1)\) · \d+\.\d s/);
    const summaries = page.getByTestId("run-summary");
    await expect(summaries.first()).toHaveAttribute("data-policy", "self-gc");
    await expect(waiting).toBeHidden();
    await expect(page.getByTestId("run-details").getByTestId("planner-xml")).toContainText("Stub planner.");
    expect(stub.requests.length).toBe(calls + 1);

    // Cancel stops waiting; the previous result stays.
    stub.script({ delayMs: 4_000 });
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(waiting).toBeVisible();
    // The worker has made its (slow) call: the failure scripted below is for the next job alone.
    await expect.poll(() => stub.requests.length).toBe(calls + 2);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("run-error")).toContainText(/could not run: you stopped waiting for job \S+ cancelled — showing the previous result\./);
    await expect(summaries.first()).toHaveAttribute("data-policy", "self-gc");

    // A failing endpoint ends the job failed, shown like any failed run.
    stub.script({ status: 500, body: { error: "upstream exploded" } });
    await page.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("run-error")).toContainText(
      "the policy run failed (self-gc at cut 250): the LLM call failed after 1 attempt: openai answered HTTP 500",
    );
    await expect(page.getByTestId("run-error")).toContainText("internal");
  });
});
