import { signInFailures } from "@/lib/ops/metrics";
import bcrypt from "bcryptjs";
import { prisma, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import { logInfo } from "@/lib/log";

// Sign-in throttling (SECURITY.md, "Dashboard sign-in"). Counters are kept per email whether or not a
// user has it, so an unknown email is throttled and locked exactly like a known one.
export const SIGN_IN_POLICY = {
  accountFreeFailures: 3,
  accountLockFailures: 10,
  addressFreeFailures: 20,
  maxBackoffMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
} as const;

// Compared against when the email is unknown, so timing does not reveal which emails exist.
const UNKNOWN_USER_HASH = "$2b$12$C6UzMDM.H6dfI/f/IKcEeO5fbm4.5p0G5gG0yO5x6eZ3lV6mVb3Iu";

export type TSignInRefusal = "SignInThrottled" | "SignInLocked";

/** Thrown before the password is checked; next-auth turns the message into /login?error=<code>. */
export class SignInRefused extends Error {
  constructor(readonly code: TSignInRefusal) {
    super(code);
  }
}

export type TSignedIn = {
  id: string;
  clientId: string;
  email: string;
  name: string | null;
  role: TDashboardRole;
  sessionVersion: number;
};

/** Wait after `failures` consecutive failures: none for the first `free`, then 1 s, 2 s, 4 s, ... capped. */
export function backoffMs(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(1000 * 2 ** (failures - free - 1), SIGN_IN_POLICY.maxBackoffMs);
}

export function accountKey(email: string): string {
  return `account:${email.trim().toLowerCase()}`;
}

/** Whether an account's lock still holds: it lifts by itself SIGN_IN_LOCK_MINUTES after it was set. */
export function lockHolds(lockedAt: Date | null | undefined, now: Date): boolean {
  return Boolean(lockedAt) && lockedAt!.getTime() + lockMs() > now.getTime();
}

function lockMs(): number {
  return env.SIGN_IN_LOCK_MINUTES * 60_000;
}

async function recordFailure(tx: Tx, key: string, now: Date, free: number, lockAt: number | null) {
  const forgetBefore = new Date(now.getTime() - SIGN_IN_POLICY.forgetAfterMs);
  // A lock that has lifted by itself starts the count again, back-off included.
  const lockSetBefore = new Date(now.getTime() - lockMs());
  const [row] = await tx.$queryRaw<Array<{ failures: number; lockedAt: Date | null }>>`
    INSERT INTO sign_in_throttles (key, failures, "lastFailureAt") VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE
        WHEN sign_in_throttles."lockedAt" IS NULL AND sign_in_throttles."lastFailureAt" < ${forgetBefore}
        THEN 1
        WHEN sign_in_throttles."lockedAt" <= ${lockSetBefore} THEN 1
        ELSE sign_in_throttles.failures + 1 END,
      "lockedAt" = CASE
        WHEN sign_in_throttles."lockedAt" <= ${lockSetBefore} THEN NULL ELSE sign_in_throttles."lockedAt" END,
      "blockedUntil" = CASE
        WHEN sign_in_throttles."lockedAt" <= ${lockSetBefore} THEN NULL ELSE sign_in_throttles."blockedUntil" END,
      "lastFailureAt" = ${now}
    RETURNING failures, "lockedAt"`;
  const failures = row?.failures ?? 1;
  const wait = backoffMs(failures, free);
  const lockNow = lockAt !== null && failures >= lockAt && !row?.lockedAt;
  if (wait > 0 || lockNow) {
    await tx.signInThrottle.update({
      where: { key },
      data: {
        ...(wait > 0 && { blockedUntil: new Date(now.getTime() + wait) }),
        ...(lockNow && { lockedAt: now }),
      },
    });
  }
  return { failures, locked: lockNow || Boolean(row?.lockedAt) };
}

/**
 * Checks an email and password with throttling per account and per client address. Returns the user,
 * null for a wrong email or password, or throws SignInRefused while backed off or locked (without
 * checking the password). Every outcome for a known user is audited in the same transaction as the
 * counter change.
 */
/**
 * Lifts an account's sign-in lock and back-off (the operator's way in when every admin of a client is
 * locked out). Audited when a dashboard user has the email.
 */
export async function unlockSignIn(email: string): Promise<{ email: string; unlocked: boolean }> {
  const normalized = email.trim().toLowerCase();
  return prisma.$transaction(async (tx) => {
    const removed = await tx.signInThrottle.deleteMany({ where: { key: accountKey(normalized) } });
    const user = await tx.dashboardUser.findUnique({ where: { email: normalized } });
    if (user && removed.count > 0)
      await tx.auditLog.create({
        data: {
          clientId: user.clientId,
          actorType: "operator",
          actorId: "cli",
          action: "dashboard_user.unlocked",
          entityType: "dashboard_user",
          entityId: user.id,
          details: { via: "cli" },
        },
      });
    return { email: normalized, unlocked: removed.count > 0 };
  });
}

export async function signInWithPassword({
  email,
  password,
  address,
  now = new Date(),
}: {
  email: string;
  password: string;
  address: string | null;
  now?: Date;
}): Promise<TSignedIn | null> {
  const normalized = email.trim().toLowerCase();
  const account = accountKey(normalized);
  const addressKey = address ? `address:${address}` : null;
  const rows = await prisma.signInThrottle.findMany({
    where: { key: { in: addressKey ? [account, addressKey] : [account] } },
  });
  const accountRow = rows.find((r) => r.key === account);
  if (lockHolds(accountRow?.lockedAt, now)) throw new SignInRefused("SignInLocked");
  if (rows.some((r) => r.blockedUntil && r.blockedUntil > now)) throw new SignInRefused("SignInThrottled");

  const user = normalized ? await prisma.dashboardUser.findUnique({ where: { email: normalized } }) : null;
  const ok = await bcrypt.compare(password, user?.passwordHash ?? UNKNOWN_USER_HASH);
  const audit = (tx: Tx, action: string, details: Record<string, unknown>) =>
    user
      ? tx.auditLog.create({
          data: {
            clientId: user.clientId,
            actorType: "dashboard_user",
            actorId: user.id,
            action,
            entityType: "dashboard_user",
            entityId: user.id,
            details: { address, ...details },
          },
        })
      : Promise.resolve();

  if (user && ok && !user.disabledAt) {
    await prisma.$transaction(async (tx) => {
      await tx.signInThrottle.deleteMany({ where: { key: account } });
      await audit(tx, "sign_in.succeeded", {});
    });
    return {
      id: user.id,
      clientId: user.clientId,
      email: user.email,
      name: user.name,
      role: user.role,
      sessionVersion: user.sessionVersion,
    };
  }

  const result = await prisma.$transaction(async (tx) => {
    const acc = await recordFailure(
      tx,
      account,
      now,
      SIGN_IN_POLICY.accountFreeFailures,
      SIGN_IN_POLICY.accountLockFailures,
    );
    if (addressKey) await recordFailure(tx, addressKey, now, SIGN_IN_POLICY.addressFreeFailures, null);
    await audit(tx, "sign_in.failed", { failures: acc.failures });
    if (acc.locked && acc.failures === SIGN_IN_POLICY.accountLockFailures)
      await audit(tx, "sign_in.locked", { failures: acc.failures });
    return acc;
  });
  signInFailures.inc({ locked: String(result.locked) });
  logInfo("dashboard sign-in failed", { address, failures: result.failures, locked: result.locked });
  return null;
}
