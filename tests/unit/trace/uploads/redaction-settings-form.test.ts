import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_REDACTION_SETTINGS, RedactionSettingsSchema } from "../../../../server/settings/redaction-settings";

test("an empty form is the defaults: every rule on, nothing allowed (the authz probe relies on it)", () => {
  assert.deepEqual(RedactionSettingsSchema.parse({}), DEFAULT_REDACTION_SETTINGS);
});

test("rule.<kind>=off switches a rule off; the allow-list is one entry per line, blanks dropped", () => {
  const parsed = RedactionSettingsSchema.parse({
    keepRawOriginals: "on",
    "rule.jwt": "off",
    "rule.openai_key": "on",
    "rule.url_password": "off",
    allowList: "  sk-test-fixture000\r\n\n/demo-[0-9]+/i\n",
  });
  assert.deepEqual(parsed, {
    keepRawOriginals: true,
    redactEmails: false,
    disabledRules: ["jwt", "url_password"],
    allowList: ["sk-test-fixture000", "/demo-[0-9]+/i"],
  });
});

test("bad input is refused field by field, saying which entry and why", () => {
  const result = RedactionSettingsSchema.safeParse({ "rule.passwords": "off", "rule.email": "off", "rule.jwt": "maybe", allowList: "fine\n/[oops/\n/.*/" });
  assert.equal(result.success, false);
  const byField = new Map<string, string[]>();
  for (const issue of result.error!.issues) byField.set(String(issue.path[0]), [...(byField.get(String(issue.path[0])) ?? []), issue.message]);
  assert.deepEqual(
    byField.get("allowList")?.map((m) => m.replace(/\(.*\)/, "(…)")),
    ["entry 2: is not a valid regular expression (…)", "entry 3: matches any value, so it would switch redaction off"],
  );
  assert.deepEqual(byField.get("rules"), ['unknown rule "passwords"', 'unknown rule "email"', 'rule jwt must be "on" or "off"']);
});
