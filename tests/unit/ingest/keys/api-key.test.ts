import assert from "node:assert/strict";
import { test } from "node:test";
import { isKeyText, readBearer, rateWindowStart, scopeAllows, secondsToNextWindow } from "../../../../lib/ingest/keys/api-key";
import { checkSameOrigin } from "../../../../server/security/same-origin";

const KEY = `tfk_${"a1B2_-".repeat(7)}x`;

test("a key is tfk_ and 43 base64url characters", () => {
  assert.equal(isKeyText(KEY), true);
  for (const bad of ["", "tfk_", KEY.slice(0, -1), `${KEY}x`, KEY.replace("tfk_", "tfx_"), KEY.replace("a", "+")]) assert.equal(isKeyText(bad), false, bad);
});

test("the Authorization header: none, a key, or something that is not one", () => {
  assert.deepEqual(readBearer(null), { kind: "none" });
  assert.deepEqual(readBearer("Basic dXNlcjpwYXNz"), { kind: "none" });
  assert.deepEqual(readBearer(`Bearer ${KEY}`), { kind: "key", key: KEY });
  assert.deepEqual(readBearer(`bearer   ${KEY} `), { kind: "key", key: KEY });
  assert.deepEqual(readBearer("Bearer sk-not-ours"), { kind: "malformed" });
  assert.deepEqual(readBearer("Bearer"), { kind: "malformed" });
  assert.deepEqual(readBearer(`Bearer ${KEY} extra`), { kind: "malformed" });
});

test("a read key reads what a viewer reads; an ingest key only sends traces", () => {
  assert.equal(scopeAllows("read", { role: "viewer" }), true);
  assert.equal(scopeAllows("read", { role: "reviewer", ingest: true }), false);
  assert.equal(scopeAllows("read", { role: "admin" }), false);
  assert.equal(scopeAllows("ingest", { role: "reviewer", ingest: true }), true);
  assert.equal(scopeAllows("ingest", { role: "viewer" }), false);
  assert.equal(scopeAllows("ingest", { role: "reviewer" }), false);
});

test("rate windows are whole minutes; Retry-After counts to the next one", () => {
  const at = new Date("2026-11-26T10:00:59.200Z");
  assert.equal(rateWindowStart(at).toISOString(), "2026-11-26T10:00:00.000Z");
  assert.equal(secondsToNextWindow(at), 1);
  assert.equal(secondsToNextWindow(new Date("2026-11-26T10:00:00.000Z")), 60);
});

test("a bearer request needs no Origin; a cookie request still does", () => {
  const env = { NEXTAUTH_URL: "http://127.0.0.1:3000" };
  assert.deepEqual(checkSameOrigin("PUT", new Headers({ authorization: `Bearer ${KEY}` }), env), { ok: true });
  assert.deepEqual(checkSameOrigin("PUT", new Headers({ authorization: "Bearer junk", origin: "https://evil.example" }), env), { ok: true });
  assert.equal(checkSameOrigin("PUT", new Headers({ origin: "https://evil.example" }), env).ok, false);
  assert.equal(checkSameOrigin("PUT", new Headers({ authorization: "Basic x", origin: "https://evil.example" }), env).ok, false);
});
