import { beforeAll, describe, expect, it } from "vitest";
import { listTeam, unlockTeamMember } from "@/lib/admin/team";
import type { TSessionUser } from "@/lib/auth/session";
import { SIGN_IN_POLICY, SignInRefused, signInWithPassword } from "@/lib/auth/sign-in";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import { createTestClient } from "@/tests/factories";

// Sign-in throttling through the function next-auth's authorize calls: per account (known or not) and
// per client address, exponential back-off, a lock an admin lifts, audited.

const PASSWORD = "correct horse battery";
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
  outcomes.push(await attempt(email, PASSWORD, at + 3_600_000, address));
  return { outcomes, waits };
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
    // the right password after the tenth failure: locked, an hour later too
    expect(known.outcomes.slice(-3)).toEqual(["SignInLocked", "SignInLocked", "SignInLocked"]);
    expect(known.outcomes).not.toContain("signed-in");
    expect(unknown).toEqual(known);

    expect((await listTeam(admin)).find((m) => m.id === locked.id)).toMatchObject({ locked: true });
    const foreign = await unlockTeamMember(adminOther, { id: locked.id }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(ApiError);
    expect((foreign as ApiError).status).toBe(404);
    const later = t + 86_400_000;
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
