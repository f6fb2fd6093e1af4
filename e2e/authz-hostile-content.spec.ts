import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { importHostileSession, ORIGIN } from "./fixtures/authz-context";
import { PAYLOADS } from "./fixtures/hostile-trace";

/* Stored XSS: trace content full of script, handler, link and markup payloads must render as text. */
let hostileSessionId = "";

test.beforeAll(() => {
  test.setTimeout(120_000);
  hostileSessionId = importHostileSession();
});

test("hostile trace content renders inert on the session page and the replay page", async ({ browser }) => {
  const page = await browser.newPage({ storageState: storageStateOf("viewer") });
  const dialogs: string[] = [];
  const leaving: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("request", (req) => {
    if (!req.url().startsWith(`${ORIGIN}/`) && !req.url().startsWith("data:") && !req.url().startsWith("blob:")) leaving.push(req.url());
  });
  const assertInert = async () => {
    // The payloads are on screen as text, and none of them became an element.
    await expect(page.getByText(PAYLOADS[0], { exact: false }).first()).toBeVisible();
    const live = await page.evaluate(() => ({
      // Next's own flight-data scripts carry the page's data (trace text included) as escaped JSON;
      // a payload that broke out of them or out of the markup would be a script of its own.
      scripts: [...document.querySelectorAll("script")]
        .filter((s) => (s.textContent ?? "").includes("alert") && !/^\s*\(?self\.__next_f/.test(s.textContent ?? ""))
        .map((s) => (s.textContent ?? "").slice(0, 120)),
      handlers: document.querySelectorAll("[onerror],[onload],[onclick]").length,
      jsLinks: document.querySelectorAll('a[href^="javascript:" i],iframe[src^="javascript:" i]').length,
      svgs: [...document.querySelectorAll("svg")].filter((s) => s.outerHTML.includes("alert")).length,
      evil: [...document.querySelectorAll("[src],[href]")].filter((e) => /evil\.example/.test(e.getAttribute("src") ?? e.getAttribute("href") ?? "")).length,
    }));
    expect(live).toEqual({ scripts: [], handlers: 0, jsLinks: 0, svgs: 0, evil: 0 });
  };

  await page.goto(`/sessions/${hostileSessionId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await assertInert();

  await page.goto(`/sessions/${hostileSessionId}/compact`);
  // oldest-turn folds the first user turn (every payload) into a sidecar; Restore shows its bytes.
  await page.getByLabel("Policy").selectOption("oldest-turn");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("run-numbers").first()).toHaveText(/[\d,]+\s*→\s*[\d,]+\s*tokens/);
  await assertInert();
  await page
    .getByTestId("sidecar-pointer")
    .first()
    .getByRole("button", { name: /^Restore / })
    .click();
  const restored = page.getByRole("dialog", { name: /^Restored / });
  await expect(restored.getByTestId("restore-check")).toHaveText("✓ matches sha256");
  // The sidecar holds the folded messages as JSON: each payload is there, JSON-escaped, as text.
  for (const payload of PAYLOADS) await expect(restored.getByTestId("restore-text")).toContainText(JSON.stringify(payload).slice(1, -1));
  await assertInert();

  expect(dialogs).toEqual([]);
  expect(leaving).toEqual([]);
  await page.close();
});
