import { expect, test, type APIRequestContext } from "@playwright/test";
import type { Who } from "./authz-matrix";
import { disposeAll, openRoleContexts, snapshot } from "./fixtures/authz-context";
import { callAction, findAction } from "./fixtures/server-actions";

/* Next's server actions check the Origin themselves: a foreign one is refused whoever's cookies it carries. */
let contexts = {} as Record<Who, APIRequestContext>;

test.beforeAll(async () => {
  contexts = await openRoleContexts();
});

test.afterAll(async () => {
  await disposeAll(contexts);
});

test("a server action posted from another origin is refused even with an admin's cookies", async () => {
  const before = snapshot();
  const ref = findAction("app/_actions/admin-settings.ts", "setRedactionSettingsAction");
  const response = await callAction(contexts.admin, "https://evil.example", ref.page, ref.id, [
    null,
    [
      ["keepRawOriginals", "on"],
      ["redactEmails", "on"],
    ],
  ]);
  expect(response.status()).not.toBe(200);
  expect(snapshot()).toEqual(before);
});
