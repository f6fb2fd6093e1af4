import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedOrigins, checkSameOrigin, refuseCrossOrigin } from "../../../server/security/same-origin";

const ENV = { NEXTAUTH_URL: "https://studio.example.com/" };
const h = (entries: Record<string, string>) => new Headers(entries);

test("reads are never checked: GET and HEAD pass without any Origin", () => {
  assert.deepEqual(checkSameOrigin("GET", h({}), ENV), { ok: true });
  assert.deepEqual(checkSameOrigin("HEAD", h({ origin: "https://evil.example" }), ENV), { ok: true });
});

test("a mutation from the studio's own origin passes: NEXTAUTH_URL's, the Host header's, or a listed one", () => {
  assert.deepEqual(checkSameOrigin("POST", h({ origin: "https://studio.example.com" }), ENV), { ok: true });
  assert.deepEqual(checkSameOrigin("PUT", h({ origin: "http://127.0.0.1:3100", host: "127.0.0.1:3100" }), {}), { ok: true });
  assert.deepEqual(
    checkSameOrigin("DELETE", h({ origin: "https://studio.internal:8443", host: "10.0.0.5:3000" }), {
      ...ENV,
      TRACEFOLD_ALLOWED_ORIGINS: " https://other.example , https://studio.internal:8443",
    }),
    { ok: true },
  );
  // Behind a proxy: X-Forwarded-Host and -Proto name the public origin.
  assert.deepEqual(
    checkSameOrigin(
      "PATCH",
      h({ origin: "https://public.example", host: "127.0.0.1:3000", "x-forwarded-host": "public.example", "x-forwarded-proto": "https" }),
      {},
    ),
    { ok: true },
  );
});

test("another site, another port, another scheme, `null` and junk are refused", () => {
  const refused = (headers: Headers) => assert.equal(checkSameOrigin("POST", headers, ENV).ok, false);
  refused(h({ origin: "https://evil.example", host: "studio.example.com" }));
  refused(h({ origin: "https://studio.example.com:444", host: "studio.example.com" }));
  refused(h({ origin: "http://studio.example.com.evil.example", host: "studio.example.com" }));
  refused(h({ origin: "null", host: "studio.example.com" }));
  refused(h({ origin: "javascript:alert(1)", host: "studio.example.com" }));
  // With X-Forwarded-Proto https, plain http on the same host is another origin.
  refused(h({ origin: "http://public.example", "x-forwarded-host": "public.example", "x-forwarded-proto": "https" }));
});

test("without Origin the Referer decides; without either the request is refused", () => {
  assert.deepEqual(checkSameOrigin("POST", h({ referer: "https://studio.example.com/upload?x=1", host: "studio.example.com" }), ENV), { ok: true });
  assert.equal(checkSameOrigin("POST", h({ referer: "https://evil.example/studio.example.com", host: "studio.example.com" }), ENV).ok, false);
  const none = checkSameOrigin("POST", h({ host: "studio.example.com" }), ENV);
  assert.deepEqual(none, { ok: false, reason: "the request has no Origin or Referer header" });
  // A present but foreign Origin is not rescued by a same-origin Referer.
  assert.equal(
    checkSameOrigin("POST", h({ origin: "https://evil.example", referer: "https://studio.example.com/", host: "studio.example.com" }), ENV).ok,
    false,
  );
});

test("refuseCrossOrigin answers 403 JSON naming the problem, or null to carry on", async () => {
  const refused = refuseCrossOrigin(new Request("https://studio.example.com/api/uploads", { method: "PUT", headers: { origin: "https://evil.example" } }), ENV);
  assert.equal(refused?.status, 403);
  assert.deepEqual(await refused?.json(), {
    ok: false,
    code: "cross_origin",
    message: "refused: requests from https://evil.example are not accepted (add it to TRACEFOLD_ALLOWED_ORIGINS if it is this studio)",
  });
  assert.equal(
    refuseCrossOrigin(new Request("https://studio.example.com/api/uploads", { method: "PUT", headers: { origin: "https://studio.example.com" } }), ENV),
    null,
  );
  assert.deepEqual([...allowedOrigins(h({}), { TRACEFOLD_ALLOWED_ORIGINS: "not a url,https://ok.example/path" })], ["https://ok.example"]);
});
