import { beforeAll, describe, expect, it } from "vitest";
import { listTeam, unlockTeamMember } from "@/lib/admin/team";
import type { TSessionUser } from "@/lib/auth/session";
import { SIGN_IN_POLICY, SignInRefused, signInWithPassword, unlockSignIn } from "@/lib/auth/sign-in";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { knownApiError } from "@/lib/http/errors";
import { createTestClient } from "@/tests/factories";

// Sign-in throttling through the function next-auth's authorize calls: per account (known or not) and
// per client address, exponential back-off, a lock an admin lifts, audited.

const PASSWORD = "correct horse battery";
const LOCK_MS = env.SIGN_IN_LOCK_MINUTES * 60_000;
let clientId: string;
let otherClientId: string;
let admin: TSessionUser;
let reviewer: TSessionUser;
let adminOther: TSessionUser;

async function member(client: string, email: string, role: TSessionUser["role"]): Promise<TSessionUser> {
  const { userId } = await createDashboardUser({ clientId: client, email, password: PASSWORD, role });
  return { id: userId, clientId: client, email, name: null, role };
}

/** The outcome as the browser sees it: signed in, wrong password, or a refusal code. */
async function attempt(email: string, password: string, at: number, address = "203.0.113.7") {
  try {
    const user = await signInWithPassword({ email, password, address, now: new Date(at) });
    return user ? "signed-in" : "CredentialsSignin";
  } catch (err) {
    if (err instanceof SignInRefused) return err.code;
    throw err;
  }
}

/** Wrong passwords until the lock, each after the back-off has passed, then right ones; outcomes and waits. */
async function hammer(email: string, start: number, address: string) {
  const outcomes: string[] = [];
  const waits: number[] = [];
  let at = start;
  for (let i = 0; i < SIGN_IN_POLICY.accountLockFailures; i++) {
    outcomes.push(await attempt(email, "wrong password", at, address));
    const row = await prisma.signInThrottle.findUnique({ where: { key: `account:${email}` } });
    const wait = row?.blockedUntil ? row.blockedUntil.getTime() - at : 0;
    waits.push(Math.max(0, wait));
    // immediately again: refused while backed off, without the password being checked
    if (wait > 0) outcomes.push(await attempt(email, PASSWORD, at + wait - 1, address));
    at += Math.max(0, wait);
  }
  outcomes.push(await attempt(email, PASSWORD, at, address));
  const { lockedAt } = await prisma.signInThrottle.findUniqueOrThrow({ where: { key: `account:${email}` } });
  // the last moment of the lock
  outcomes.push(await attempt(email, PASSWORD, lockedAt!.getTime() + LOCK_MS - 1, address));
  return { outcomes, waits, lockedAt: lockedAt!.getTime() - start };
}

beforeAll(async () => {
  clientId = (await createTestClient()).clientId;
  otherClientId = (await createTestClient()).clientId;
  admin = await member(clientId, "admin@throttle.test", "admin");
  reviewer = await member(clientId, "reviewer@throttle.test", "reviewer");
  adminOther = await member(otherClientId, "admin@other.test", "admin");
});

describe("sign-in throttling", () => {
  it("signs in with the right password and clears the account's failures", async () => {
    const email = "ok@throttle.test";
    await member(clientId, email, "reviewer");
    const t = Date.UTC(2026, 0, 1);
    expect(await attempt(email, "nope", t)).toBe("CredentialsSignin");
    expect(await attempt(email, PASSWORD, t + 1)).toBe("signed-in");
    expect(await prisma.signInThrottle.findUnique({ where: { key: `account:${email}` } })).toBeNull();
  });

  it("backs off exponentially, then locks, the same for an unknown email; an admin of the client lifts it", async () => {
    const email = "victim@throttle.test";
    const locked = await member(clientId, email, "reviewer");
    const t = Date.UTC(2026, 0, 2);
    // separate addresses, so only the account counter is at work
    const known = await hammer(email, t, "198.51.100.1");
    const unknown = await hammer("nobody@throttle.test", t, "198.51.100.2");

    expect(known.waits).toEqual([0, 0, 0, 1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    // while backed off the right password is refused without being checked
    expect(known.outcomes.filter((o) => o === "SignInThrottled")).toHaveLength(6);
    // the right password after the tenth failure: locked, until the lock's last millisecond
    expect(known.outcomes.slice(-3)).toEqual(["SignInLocked", "SignInLocked", "SignInLocked"]);
    expect(known.outcomes).not.toContain("signed-in");
    expect(unknown).toEqual(known);

    expect(
      (await listTeam(admin, new Date(t + known.lockedAt))).find((m) => m.id === locked.id),
    ).toMatchObject({
      locked: true,
    });
    const foreign = await unlockTeamMember(adminOther, { id: locked.id }).catch((e: unknown) => e);
    expect(knownApiError(foreign)?.status).toBe(404);
    const later = t + known.lockedAt + 60_000;
    expect(await attempt(email, PASSWORD, later, "198.51.100.1")).toBe("SignInLocked");

    expect(await unlockTeamMember(admin, { id: locked.id })).toEqual({ unlocked: true });
    expect((await listTeam(admin)).find((m) => m.id === locked.id)).toMatchObject({
      locked: false,
      blockedUntil: null,
    });
    expect(await attempt(email, PASSWORD, later, "198.51.100.1")).toBe("signed-in");

    const audit = await prisma.auditLog.findMany({
      where: { clientId, entityId: locked.id },
      orderBy: { createdAt: "asc" },
    });
    const actions = audit.map((a) => a.action);
    expect(actions.filter((a) => a === "sign_in.failed")).toHaveLength(SIGN_IN_POLICY.accountLockFailures);
    expect(actions.filter((a) => a === "sign_in.locked")).toHaveLength(1);
    expect(actions.slice(-2)).toEqual(["dashboard_user.unlocked", "sign_in.succeeded"]);
    expect(audit.find((a) => a.action === "dashboard_user.unlocked")).toMatchObject({ actorId: admin.id });
    expect(audit.find((a) => a.action === "sign_in.locked")?.details).toMatchObject({
      address: "198.51.100.1",
    });
    // nothing is audited for an email nobody has
    expect(
      await prisma.auditLog.count({ where: { details: { path: ["address"], equals: "198.51.100.2" } } }),
    ).toBe(0);
  });

  it("lifts a lock by itself after SIGN_IN_LOCK_MINUTES, and counts afresh after it", async () => {
    const email = "patient@throttle.test";
    const user = await member(clientId, email, "reviewer");
    const t = Date.UTC(2026, 0, 3);
    const { outcomes, lockedAt } = await hammer(email, t, "198.51.100.9");
    expect(outcomes.at(-1)).toBe("SignInLocked");
    const lifted = t + lockedAt + LOCK_MS;
    expect((await listTeam(admin, new Date(lifted - 1))).find((m) => m.id === user.id)).toMatchObject({
      locked: true,
    });
    expect((await listTeam(admin, new Date(lifted))).find((m) => m.id === user.id)).toMatchObject({
      locked: false,
    });
    // the attacker's next wrong password after the lock lifted starts the count again: no new lock, no wait
    expect(await attempt(email, "wrong again", lifted, "198.51.100.9")).toBe("CredentialsSignin");
    const row = await prisma.signInThrottle.findUniqueOrThrow({ where: { key: `account:${email}` } });
    expect(row).toMatchObject({ failures: 1, lockedAt: null, blockedUntil: null });
    expect(await attempt(email, PASSWORD, lifted + 1, "198.51.100.10")).toBe("signed-in");

    // and one that nobody touches after the lock simply signs in once it has lifted
    const quiet = "quiet@throttle.test";
    await member(clientId, quiet, "reviewer");
    const q = await hammer(quiet, t, "198.51.100.11");
    expect(await attempt(quiet, PASSWORD, t + q.lockedAt + LOCK_MS, "198.51.100.11")).toBe("signed-in");
  });

  it("lets the operator lift a lock from the command line, audited", async () => {
    const email = "operator-unlock@throttle.test";
    const user = await member(clientId, email, "admin");
    const t = Date.UTC(2026, 0, 6);
    const { lockedAt } = await hammer(email, t, "198.51.100.20");
    expect(await attempt(email, PASSWORD, t + lockedAt + 1, "198.51.100.20")).toBe("SignInLocked");
    expect(await unlockSignIn(` ${email.toUpperCase()} `)).toEqual({ email, unlocked: true });
    expect(await unlockSignIn(email)).toEqual({ email, unlocked: false });
    expect(await attempt(email, PASSWORD, t + lockedAt + 2, "198.51.100.20")).toBe("signed-in");
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { entityId: user.id, action: "dashboard_user.unlocked" },
    });
    expect(audit).toMatchObject({ clientId, actorType: "operator", actorId: "cli" });
  });

  it("throttles one client address across many emails, and not the others", async () => {
    const address = "192.0.2.50";
    const t = Date.UTC(2026, 0, 4);
    const outcomes: string[] = [];
    for (let i = 0; i <= SIGN_IN_POLICY.addressFreeFailures; i++)
      outcomes.push(await attempt(`spray-${i}@throttle.test`, "guess", t + i, address));
    expect(outcomes.every((o) => o === "CredentialsSignin")).toBe(true);
    // a fresh email from that address is refused during the back-off, even with a right password
    expect(await attempt(reviewer.email, PASSWORD, t + 100, address)).toBe("SignInThrottled");
    expect(await attempt(reviewer.email, PASSWORD, t + 100, "192.0.2.51")).toBe("signed-in");
    expect(await attempt(reviewer.email, PASSWORD, t + 100 + 2_000, address)).toBe("signed-in");
  });

  it("forgets failures after a quiet day", async () => {
    const email = "forgetful@throttle.test";
    await member(clientId, email, "reviewer");
    const t = Date.UTC(2026, 0, 5);
    for (let i = 0; i < SIGN_IN_POLICY.accountFreeFailures; i++)
      await attempt(email, "x", t + i, "192.0.2.60");
    const quiet = t + SIGN_IN_POLICY.forgetAfterMs + 10;
    expect(await attempt(email, "x", quiet, "192.0.2.60")).toBe("CredentialsSignin");
    const row = await prisma.signInThrottle.findUniqueOrThrow({ where: { key: `account:${email}` } });
    expect(row.failures).toBe(1);
    expect(row.blockedUntil).toBeNull();
  });
});
