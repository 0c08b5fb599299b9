import { signInFailures } from "@/lib/ops/metrics";
import bcrypt from "bcryptjs";
import { prisma, type Tx } from "@/lib/db";
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
};

/** Wait after `failures` consecutive failures: none for the first `free`, then 1 s, 2 s, 4 s, ... capped. */
export function backoffMs(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(1000 * 2 ** (failures - free - 1), SIGN_IN_POLICY.maxBackoffMs);
}

export function accountKey(email: string): string {
  return `account:${email.trim().toLowerCase()}`;
}

/** The client address as the nearest proxy (or Next.js itself) recorded it: X-Forwarded-For's last entry. */
export function clientAddress(forwardedFor: string | null | undefined): string | null {
  const last = forwardedFor?.split(",").at(-1)?.trim();
  return last ? last.slice(0, 100) : null;
}

async function recordFailure(tx: Tx, key: string, now: Date, free: number, lockAt: number | null) {
  const forgetBefore = new Date(now.getTime() - SIGN_IN_POLICY.forgetAfterMs);
  const [row] = await tx.$queryRaw<Array<{ failures: number; lockedAt: Date | null }>>`
    INSERT INTO sign_in_throttles (key, failures, "lastFailureAt") VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE
        WHEN sign_in_throttles."lockedAt" IS NULL AND sign_in_throttles."lastFailureAt" < ${forgetBefore}
        THEN 1 ELSE sign_in_throttles.failures + 1 END,
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
  if (accountRow?.lockedAt) throw new SignInRefused("SignInLocked");
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
    return { id: user.id, clientId: user.clientId, email: user.email, name: user.name, role: user.role };
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
