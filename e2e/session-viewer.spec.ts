import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { COMPACTED_TRANSCRIPT, importForE2e, type ImportedSession } from "./fixtures/import-session";

test.use({ storageState: storageStateOf("viewer") });

/*
 * Object ids are deterministic for a given file, so they are part of what is seeded:
 * in COMPACTED_TRANSCRIPT, `function:read:20` is the result in message #162 (mid-session, far
 * below the first screen) and `function:read:12` (message #58) is a 7,000-token file read.
 */
const MID_SESSION_OBJECT = "function:read:20";
const LONG_OUTPUT_OBJECT = "function:read:12";

let session: ImportedSession;
test.beforeAll(() => {
  [session] = importForE2e(COMPACTED_TRANSCRIPT) as [ImportedSession];
});

test.beforeEach(async ({ page }) => {
  await page.goto(`/sessions/${session.id}`);
  await expect(page.getByRole("heading", { level: 1, name: session.title })).toBeVisible();
  await expect(page.getByTestId("message-row").first()).toBeVisible();
});

test("the header shows the session's facts", async ({ page }) => {
  const header = page.getByTestId("session-header");
  await expect(header).toContainText("claude_code_jsonl");
  await expect(header).toContainText("claude-opus-4-6");
  await expect(header).toContainText(String(session.messages));
  await expect(header).toContainText("provider input");
});

test("the header's export links download the session as OTLP JSON and its review labels as span annotations", async ({ page }) => {
  const links = page.getByTestId("session-export");
  await expect(links.getByRole("link", { name: "Tracefold JSONL" })).toHaveAttribute("href", `/api/v1/sessions/${session.id}/export?as=jsonl`);
  const [otlp] = await Promise.all([page.waitForEvent("download"), links.getByRole("link", { name: "OTLP JSON" }).click()]);
  expect(otlp.suggestedFilename()).toBe(`${session.id}.otlp.json`);
  const request = JSON.parse(readFileSync((await otlp.path())!, "utf8")) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
  const names = request.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name);
  expect(names[0]).toBe("invoke_agent");
  expect(names.filter((n) => n.startsWith("chat claude-opus-4-6")).length).toBeGreaterThan(10);
  expect(names.filter((n) => n.startsWith("execute_tool ")).length).toBeGreaterThan(10);
  const [labels] = await Promise.all([page.waitForEvent("download"), links.getByRole("link", { name: "Review labels (span annotations)" }).click()]);
  expect(labels.suggestedFilename()).toBe(`${session.id}.span-annotations.json`);
  expect(JSON.parse(readFileSync((await labels.path())!, "utf8"))).toHaveProperty("data");
});

test("typing an object id into search scrolls its tool result into view", async ({ page }) => {
  const target = page.locator(`[data-kind="tool_result"][data-object-id="${MID_SESSION_OBJECT}"]`);
  await expect(target).toHaveCount(0); // not rendered before the jump: the list is virtualized

  const search = page.getByRole("textbox", { name: "Search messages" });
  await search.fill(MID_SESSION_OBJECT);
  await search.press("Enter");

  await expect(page.getByTestId("search-status")).toHaveText("1 / 1 objects");
  await expect(target).toBeInViewport();
  await expect(target).toHaveAttribute("data-highlighted", "true");
  // …and it links back to the call that produced it.
  await target.getByRole("button", { name: /↑ call #\d+/ }).click();
  await expect(page.locator('[data-kind="tool_call"][data-highlighted]')).toBeInViewport();
});

test("text search steps through matches with Enter and Shift+Enter", async ({ page }) => {
  const search = page.getByRole("textbox", { name: "Search messages" });
  await search.fill("defmodule");
  await search.press("Enter");
  await expect(page.getByTestId("search-status")).toHaveText(/^1 \/ \d+$/);
  await search.press("Enter");
  await expect(page.getByTestId("search-status")).toHaveText(/^2 \/ \d+$/);
  await search.press("Shift+Enter");
  await expect(page.getByTestId("search-status")).toHaveText(/^1 \/ \d+$/);
  await expect(page.locator("[data-highlighted] mark").first()).toBeInViewport();
});

test("the native compaction is a divider with its trigger, pre-compaction tokens and summary", async ({ page }) => {
  await page.getByRole("link", { name: "before #229" }).click();
  const marker = page.getByTestId("compaction-marker");
  await expect(marker).toBeInViewport();
  await expect(marker).toContainText("Claude Code compact_boundary");
  await expect(marker).toContainText("trigger: auto");
  await expect(marker).toContainText(/\d{3},\d{3} tokens before/);
  await expect(marker.getByTestId("compaction-summary")).toBeVisible();
  await marker.getByRole("button", { name: "hide summary" }).click();
  await expect(marker.getByTestId("compaction-summary")).toHaveCount(0);
});

test("a collapsed long output expands to the full text on 'show all'", async ({ page, request }) => {
  await page.getByRole("searchbox", { name: "Filter objects" }).fill(LONG_OUTPUT_OBJECT);
  await page.getByRole("button", { name: `${LONG_OUTPUT_OBJECT} (` }).click();
  const part = page.locator(`[data-kind="tool_result"][data-object-id="${LONG_OUTPUT_OBJECT}"]`);
  await expect(part).toBeInViewport();

  // The last line of the full output, from the API the page itself uses.
  const message = Number(await part.locator("xpath=ancestor::article").getAttribute("data-message-index"));
  const full = await (await request.get(`/api/sessions/${session.id}/messages/${message}`)).json();
  const content: string = full.data.parts.find((p: { objectId?: string }) => p.objectId === LONG_OUTPUT_OBJECT).content;
  const lastLine = content.trimEnd().split("\n").pop()!.trim();
  await expect(part.locator("pre")).not.toContainText(lastLine);

  await part.getByRole("button", { name: /^show all \(\d[\d,]* lines\)$/ }).click();
  await expect(part.locator("pre")).toContainText(lastLine);
  await expect(part.getByRole("button", { name: "show less" })).toBeVisible();
});

test("keyboard: G goes to the last message, g to the first, j to the next", async ({ page }) => {
  await page.keyboard.press("G");
  const last = page.locator(`[data-testid="message-row"][data-message-index="${session.messages - 1}"]`);
  await expect(last).toBeInViewport();
  await expect(last).toHaveAttribute("data-active", "true");

  await page.keyboard.press("g");
  const first = page.locator('[data-testid="message-row"][data-message-index="0"]');
  await expect(first).toBeInViewport();
  await page.keyboard.press("j");
  await expect(page.locator('[data-testid="message-row"][data-message-index="1"]')).toHaveAttribute("data-active", "true");

  await page.keyboard.press("/");
  await expect(page.getByRole("textbox", { name: "Search messages" })).toBeFocused();
});

test("? lists the session viewer's shortcuts in a dialog; Esc closes it", async ({ page }) => {
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  for (const what of ["search text or jump to an object id", "next message", "previous message", "first message", "last message"])
    await expect(dialog).toContainText(what);
  // While the list is open the timeline keys do nothing.
  await page.keyboard.press("G");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-testid="message-row"][data-message-index="0"]')).toBeInViewport();
  await page.getByRole("button", { name: /^Shortcuts/ }).click();
  await expect(dialog).toBeVisible();
});

test("an unknown session id is a 404", async ({ page }) => {
  const response = await page.goto("/sessions/no-such-session");
  expect(response?.status()).toBe(404);
});
