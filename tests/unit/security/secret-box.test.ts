import assert from "node:assert/strict";
import { test } from "node:test";
import { openSecret, sealSecret, SecretBoxError } from "../../../server/security/secret-box";

const SECRET_KEY = "studio-secret-key-0123456789abcdef";
const API_KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const PURPOSE = "llm.apiKey";

const refusedWith = (code: string) => (error: unknown) => {
  assert.ok(error instanceof SecretBoxError, String(error));
  assert.equal(error.code, code);
  assert.ok(!error.message.includes(API_KEY) && !error.message.includes(SECRET_KEY), "the message leaks a secret");
  return true;
};

test("a sealed value opens to the same text, and never contains it", () => {
  const sealed = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  assert.equal(openSecret(sealed, SECRET_KEY, PURPOSE), API_KEY);
  assert.ok(!sealed.includes(API_KEY));
  assert.ok(!sealed.includes(Buffer.from(API_KEY).toString("base64url").slice(0, 16)));
  assert.match(sealed, /^v1(\.[A-Za-z0-9_-]+){5}$/);
  // Unicode and the empty string round-trip too.
  for (const text of ["", "ключ-🔑-" + "x".repeat(500)]) assert.equal(openSecret(sealSecret(text, SECRET_KEY, PURPOSE), SECRET_KEY, PURPOSE), text);
});

test("sealing twice gives different ciphertexts (fresh salt and IV)", () => {
  const a = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  const b = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  assert.notEqual(a, b);
  assert.notEqual(a.split(".")[4], b.split(".")[4]);
});

test("a different secret key is refused as such, with a message that says what to do", () => {
  const sealed = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  assert.throws(() => openSecret(sealed, "another-studio-secret-key-000000", PURPOSE), refusedWith("wrong_key"));
  assert.throws(() => openSecret(sealed, "another-studio-secret-key-000000", PURPOSE), /encrypted with a different secret key .*enter it again/);
});

test("any altered byte of salt, IV, ciphertext or tag is detected", () => {
  const sealed = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  const parts = sealed.split(".");
  for (const index of [3, 4, 5]) {
    const bytes = Buffer.from(parts[index]!, "base64url");
    for (const at of [0, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[at]! ^= 0x01;
      const altered = [...parts];
      altered[index] = flipped.toString("base64url");
      assert.throws(() => openSecret(altered.join("."), SECRET_KEY, PURPOSE), refusedWith("tampered"), `part ${index} byte ${at}`);
    }
  }
  // The salt feeds the key derivation: a changed salt derives another key, caught by the key id.
  const salt = Buffer.from(parts[2]!, "base64url");
  salt[0]! ^= 0x01;
  assert.throws(() => openSecret([...parts.slice(0, 2), salt.toString("base64url"), ...parts.slice(3)].join("."), SECRET_KEY, PURPOSE), SecretBoxError);
});

test("a value sealed for one purpose does not open for another", () => {
  const sealed = sealSecret(API_KEY, SECRET_KEY, PURPOSE);
  assert.throws(() => openSecret(sealed, SECRET_KEY, "other.secret"), SecretBoxError);
});

test("malformed values and too-short secret keys are refused with clear errors", () => {
  assert.throws(() => openSecret("not sealed", SECRET_KEY, PURPOSE), refusedWith("malformed"));
  assert.throws(() => openSecret("v2.a.b.c.d.e", SECRET_KEY, PURPOSE), refusedWith("malformed"));
  const parts = sealSecret(API_KEY, SECRET_KEY, PURPOSE).split(".");
  assert.throws(() => openSecret([...parts.slice(0, 5), parts[5]!.slice(0, 8)].join("."), SECRET_KEY, PURPOSE), refusedWith("malformed"));
  assert.throws(() => sealSecret(API_KEY, "short", PURPOSE), refusedWith("no_secret_key"));
});
