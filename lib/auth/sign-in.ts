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

export type TSignInRefusal = "SignInThrottled" | "SignInLocked" | "SignInChooseOrganisation";

/**
 * Thrown before the password is checked (throttled, locked), or after it matched accounts of several
 * organisations and none was named; next-auth turns the message into /login?error=<code>.
 */
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
 * Lifts an account's sign-in lock and back-off (the operator's way in when every admin of a client is
 * locked out). The counters are per email, so this lifts it for every client's user with that email;
 * audited for each of them.
 */
export async function unlockSignIn(email: string): Promise<{ email: string; unlocked: boolean }> {
  const normalized = email.trim().toLowerCase();
  return prisma.$transaction(async (tx) => {
    const removed = await tx.signInThrottle.deleteMany({ where: { key: accountKey(normalized) } });
    const users = await tx.dashboardUser.findMany({
      where: { email: normalized },
      select: { id: true, clientId: true },
    });
    if (removed.count > 0)
      for (const user of users)
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

type TAccountMatch =
  | { outcome: "signed_in"; signedIn: TSignedIn; audited: TAudited[] }
  | { outcome: "choose"; audited: TAudited[] }
  | { outcome: "refused"; audited: TAudited[] };
type TAudited = { id: string; clientId: string };

/**
 * The account an email and password open. An email is unique within a client, not across clients, so
 * every active account with the email is compared (at least one comparison, so timing does not tell a
 * known email from an unknown one). Exactly one match signs in; several (the same person, the same
 * password in two organisations) need the organisation's name or id. Audited on: the matched account,
 * or on a failure every account with the email, so each client sees failures against its member.
 */
async function matchAccount(email: string, password: string, organisation: string | null | undefined) {
  const accounts = email
    ? await prisma.dashboardUser.findMany({
        where: { email },
        include: { client: { select: { name: true } } },
        orderBy: { createdAt: "asc" },
      })
    : [];
  const matched: typeof accounts = [];
  for (const account of accounts)
    if ((await bcrypt.compare(password, account.passwordHash)) && !account.disabledAt) matched.push(account);
  if (accounts.length === 0) await bcrypt.compare(password, UNKNOWN_USER_HASH);

  const wanted = organisation?.trim().toLowerCase();
  const named = wanted
    ? matched.filter(
        (a) => a.clientId === organisation?.trim() || a.client.name.trim().toLowerCase() === wanted,
      )
    : matched;
  const audited = (list: typeof accounts): TAudited[] =>
    list.map((a) => ({ id: a.id, clientId: a.clientId }));
  const [a] = named;
  if (a && named.length === 1) {
    return {
      outcome: "signed_in",
      signedIn: {
        id: a.id,
        clientId: a.clientId,
        email: a.email,
        name: a.name,
        role: a.role,
        sessionVersion: a.sessionVersion,
      },
      audited: audited(named),
    } satisfies TAccountMatch;
  }
  // Several matched and no (or an ambiguous) organisation: the password is right, so this is no failure.
  if (named.length > 1 || (wanted && matched.length > 1 && named.length === 0))
    return { outcome: "choose", audited: [] } satisfies TAccountMatch;
  return { outcome: "refused", audited: audited(accounts) } satisfies TAccountMatch;
}

/**
 * Checks an email and password with throttling per account (the email) and per client address. Returns
 * the user, null for a wrong email or password, or throws SignInRefused while backed off or locked
 * (without checking the password), or when the email and password open several organisations and none
 * was named. Every outcome for a known user is audited in the same transaction as the counter change.
 */
export async function signInWithPassword({
  email,
  password,
  organisation,
  address,
  now = new Date(),
}: {
  email: string;
  password: string;
  /** The client's name (or id), needed only when the email and password open accounts of several clients. */
  organisation?: string | null;
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

  const user = await matchAccount(normalized, password, organisation);
  const audit = async (tx: Tx, action: string, details: Record<string, unknown>) => {
    for (const account of user.audited)
      await tx.auditLog.create({
        data: {
          clientId: account.clientId,
          actorType: "dashboard_user",
          actorId: account.id,
          action,
          entityType: "dashboard_user",
          entityId: account.id,
          details: { address, ...details },
        },
      });
  };
  if (user.outcome === "choose") throw new SignInRefused("SignInChooseOrganisation");

  if (user.outcome === "signed_in") {
    const { signedIn } = user;
    await prisma.$transaction(async (tx) => {
      await tx.signInThrottle.deleteMany({ where: { key: account } });
      await audit(tx, "sign_in.succeeded", {});
    });
    return {
      id: signedIn.id,
      clientId: signedIn.clientId,
      email: signedIn.email,
      name: signedIn.name,
      role: signedIn.role,
      sessionVersion: signedIn.sessionVersion,
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
