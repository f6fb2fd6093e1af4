import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { authOptions } from "../../server/auth/options";
import { accountKeyOf, checkSignInThrottle, recordSignInFailure, throttledMessage, type ThrottleLimits } from "../../server/auth/sign-in-throttle";
import { createDb, type Db } from "../../server/db/client";
import { createUser } from "../../server/users/create-user";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const PASSWORD = "correct-horse-battery";
const LIMITS: ThrottleLimits = { windowMs: 15 * 60_000, perAccountIp: 5, perIp: 50, perAccount: 100 };

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string } | null>;
/** The credentials provider's own authorize(), exactly as next-auth calls it. */
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

/** "ok", "wrong" (null: the generic refusal) or the throttle's message. */
async function signIn(email: string, password: string, ip: string): Promise<string> {
  try {
    return (await authorize({ email, password }, { headers: { "x-forwarded-for": ip } })) ? "ok" : "wrong";
  } catch (error) {
    return (error as Error).message;
  }
}

for (const engine of ENGINES) {
  describe(`sign-in throttle on ${engine}`, () => {
    let t: TestDb;
    let second: Db;
    const previousUrl = process.env.DATABASE_URL;
    before(async () => {
      t = await createTestDb(engine);
      process.env.DATABASE_URL = t.url;
      // A second client on the same database stands for a second studio process.
      second = createDb(t.url);
      await createUser(t.db, { email: "alice@example.test", name: "Alice", password: PASSWORD, role: "viewer" });
      await createUser(t.db, { email: "bob@example.test", name: "Bob", password: PASSWORD, role: "viewer" });
    });
    after(async () => {
      process.env.DATABASE_URL = previousUrl;
      await second.$disconnect();
      await t.close();
    });

    test("five wrong passwords lock the account for that IP, the right one included; unknown accounts answer the same", async () => {
      for (const email of ["alice@example.test", "nobody@example.test"]) {
        for (let i = 0; i < 5; i += 1) assert.equal(await signIn(email, `wrong-${i}`, "10.0.0.1"), "wrong");
        assert.equal(await signIn(email, "again", "10.0.0.1"), "Too many failed sign-ins; try again in 15 minutes.");
      }
      assert.equal(await signIn("alice@example.test", PASSWORD, "10.0.0.1"), "Too many failed sign-ins; try again in 15 minutes.");
      // E-mail case and spaces do not make a new account key.
      assert.equal(await signIn("  ALICE@example.test", PASSWORD, "10.0.0.1"), "Too many failed sign-ins; try again in 15 minutes.");
      // Refused attempts are not failures: still exactly five rows for alice from that IP.
      assert.equal(await t.db.signInFailure.count({ where: { accountKey: accountKeyOf("alice@example.test"), ip: "10.0.0.1" } }), 5);
    });

    test("the rows never hold the e-mail address, and a success clears the account's failures from every IP", async () => {
      const rows = JSON.stringify(await t.db.signInFailure.findMany());
      assert.doesNotMatch(rows, /alice|nobody|example\.test/);
      assert.equal(await signIn("alice@example.test", "wrong", "10.0.0.2"), "wrong");
      assert.equal(await signIn("alice@example.test", PASSWORD, "10.0.0.3"), "ok");
      assert.equal(await t.db.signInFailure.count({ where: { accountKey: accountKeyOf("alice@example.test") } }), 0);
      assert.equal(await signIn("alice@example.test", PASSWORD, "10.0.0.1"), "ok");
      // The unknown account's lockout is untouched by alice's success.
      assert.match(await signIn("nobody@example.test", "x", "10.0.0.1"), /^Too many failed sign-ins/);
    });

    test("the limit holds across processes: failures recorded by one client lock out sign-ins checked by another", async () => {
      const now = new Date();
      for (let i = 0; i < 5; i += 1)
        await recordSignInFailure(second, { email: "bob@example.test", ip: "10.0.0.9" }, LIMITS, new Date(now.getTime() - (10 - i) * 60_000));
      const verdict = await checkSignInThrottle(t.db, { email: "bob@example.test", ip: "10.0.0.9" }, LIMITS, now);
      // The oldest failure (10 minutes ago) leaves the window in 5 minutes.
      assert.deepEqual(verdict, { allowed: false, retryAfterMs: 5 * 60_000 });
      assert.equal(throttledMessage(5 * 60_000), "Too many failed sign-ins; try again in 5 minutes.");
      assert.match(await signIn("bob@example.test", PASSWORD, "10.0.0.9"), /try again in 5 minutes/);
      assert.deepEqual(await checkSignInThrottle(t.db, { email: "bob@example.test", ip: "10.0.0.9" }, LIMITS, new Date(now.getTime() + 5 * 60_000 + 1)), {
        allowed: true,
      });
      // Another IP is not locked out by bob's failures.
      assert.equal(await signIn("bob@example.test", PASSWORD, "10.0.0.10"), "ok");
    });

    test("the per-IP cap stops one address trying many accounts; the per-account cap stops many addresses trying one", async () => {
      const now = new Date();
      const limits: ThrottleLimits = { ...LIMITS, perIp: 8, perAccount: 12 };
      for (let i = 0; i < 8; i += 1) await recordSignInFailure(t.db, { email: `spray-${i}@example.test`, ip: "10.0.1.1" }, limits, now);
      assert.equal((await checkSignInThrottle(t.db, { email: "fresh@example.test", ip: "10.0.1.1" }, limits, now)).allowed, false);
      assert.equal((await checkSignInThrottle(t.db, { email: "fresh@example.test", ip: "10.0.1.2" }, limits, now)).allowed, true);
      for (let i = 0; i < 12; i += 1) await recordSignInFailure(t.db, { email: "target@example.test", ip: `10.0.2.${i}` }, limits, now);
      assert.equal((await checkSignInThrottle(t.db, { email: "target@example.test", ip: "10.0.3.1" }, limits, now)).allowed, false);
    });

    test("failures older than the window are swept when a new one is recorded", async () => {
      const now = new Date();
      await recordSignInFailure(t.db, { email: "old@example.test", ip: "10.0.4.1" }, LIMITS, new Date(now.getTime() - 20 * 60_000));
      await recordSignInFailure(t.db, { email: "new@example.test", ip: "10.0.4.2" }, LIMITS, now);
      assert.equal(await t.db.signInFailure.count({ where: { accountKey: accountKeyOf("old@example.test") } }), 0);
      assert.equal(await t.db.signInFailure.count({ where: { accountKey: accountKeyOf("new@example.test") } }), 1);
    });
  });
}
