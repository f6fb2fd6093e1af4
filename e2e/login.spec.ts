import { expect, test } from "@playwright/test";
import { ACCOUNTS } from "./fixtures/accounts";

test.use({ storageState: { cookies: [], origins: [] } });

test("a wrong password is refused with a message and stays on the login page", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(ACCOUNTS.viewer.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("signing out returns to the login page and protects the studio again", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(ACCOUNTS.reviewer.email);
  await page.getByLabel("Password").fill(ACCOUNTS.reviewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/traces$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/upload");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fupload$/);
});

test("five failed sign-ins lock the account for this client, the same way for unknown accounts and wrong passwords", async ({ page }) => {
  // The throttle keys on the client IP `next start` passes in X-Forwarded-For; a fresh documentation
  // address per run keeps the lockout away from the other specs (which sign in from 127.0.0.1).
  const ip = `203.0.113.${(Date.now() % 250) + 1}`;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": ip });
  await page.goto("/login");
  const WRONG = "Wrong e-mail or password.";
  const LOCKED = "Too many failed sign-ins; try again in 15 minutes.";
  const attempt = async (email: string, password: string, expected: string) => {
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#login-error")).toHaveText(expected);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  };
  const unknown = `nobody-${Date.now()}@tracefold.local`;
  for (const email of [ACCOUNTS.viewer.email, unknown]) {
    for (let i = 0; i < 5; i += 1) await attempt(email, `wrong-${i}`, WRONG);
    await attempt(email, "wrong-again", LOCKED);
  }
  // Locked means locked: the right password is refused too, with the same message.
  await attempt(ACCOUNTS.viewer.email, ACCOUNTS.viewer.password, LOCKED);
  await expect(page).toHaveURL(/\/login/);
  // Another client is not locked out of the account.
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${(Date.now() % 250) + 1}` });
  await page.getByLabel("Password").fill(ACCOUNTS.viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/traces$/);
});
