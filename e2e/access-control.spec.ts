import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("the Upload page is neither linked nor reachable", async ({ page }) => {
    await page.goto("/traces");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Upload" })).toHaveCount(0);
    const response = await page.goto("/upload");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("PUT /api/uploads answers 403", async ({ page, baseURL }) => {
    const response = await page.request.put("/api/uploads?name=x.jsonl", { data: "{}\n", headers: { origin: baseURL! } });
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, code: "forbidden" });
  });

  test("the admin pages are not reachable", async ({ page }) => {
    const response = await page.goto("/admin/users");
    expect(response?.status()).toBe(404);
  });
});

test.describe("anonymous", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("/traces redirects to /login and comes back after signing in", async ({ page }) => {
    await page.goto("/traces");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Ftraces$/);
    await page.getByLabel("E-mail").fill("viewer@tracefold.local");
    await page.getByLabel("Password").fill("tracefold-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/traces$/);
  });

  test("PUT /api/uploads answers 401", async ({ request, baseURL }) => {
    const response = await request.put("/api/uploads?name=x.jsonl", { data: "{}\n", headers: { origin: baseURL! } });
    expect(response.status()).toBe(401);
  });
});
