import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import type { TSessionUser } from "@/lib/auth/session";
import {
  DashboardUserError,
  insertDashboardUser,
  prepareDashboardUser,
} from "@/lib/dashboard-users/create-dashboard-user";
import { prisma, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { writeAudit } from "@/lib/admin/audit";
import type { TCreateTeamMember } from "@/lib/admin/schemas";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import { accountKey, lockHolds } from "@/lib/auth/sign-in";

export type TTeamMember = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  createdAt: number;
  disabledAt: number | null;
  /** Sign-in locked after repeated failures (until it lifts by itself or an admin unlocks it). */
  locked: boolean;
  /** Sign-in backed off until then after failures, or null. */
  blockedUntil: number | null;
  /** An admin reset the password: the member sets a new one at the next sign-in. */
  mustChangePassword: boolean;
};

export async function listTeam(user: TSessionUser, at = new Date()): Promise<TTeamMember[]> {
  const rows = await prisma.dashboardUser.findMany({
    where: { clientId: user.clientId },
    orderBy: [{ email: "asc" }],
    take: 1000,
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      createdAt: true,
      disabledAt: true,
      mustChangePassword: true,
    },
  });
  const throttles = await prisma.signInThrottle.findMany({
    where: { key: { in: rows.map((r) => accountKey(r.email)) } },
  });
  const byKey = new Map(throttles.map((t) => [t.key, t]));
  const now = at.getTime();
  return rows.map((r) => {
    const t = byKey.get(accountKey(r.email));
    const blockedUntil = t?.blockedUntil?.getTime() ?? null;
    return {
      ...r,
      createdAt: r.createdAt.getTime(),
      disabledAt: r.disabledAt?.getTime() ?? null,
      locked: lockHolds(t?.lockedAt, new Date(now)),
      blockedUntil: blockedUntil !== null && blockedUntil > now ? blockedUntil : null,
    };
  });
}

export async function createTeamMember(
  user: TSessionUser,
  input: TCreateTeamMember,
): Promise<{ userId: string }> {
  const prepared = await prepareDashboardUser({
    clientId: user.clientId,
    ...input,
    name: input.name || undefined,
  });
  return prisma.$transaction(async (tx) => {
    const created = await insertDashboardUser(prepared, tx);
    await writeAudit(tx, user, {
      action: "dashboard_user.created",
      entityType: "dashboard_user",
      entityId: created.userId,
      details: { email: input.email, role: input.role },
    });
    return created;
  });
}

export async function disableTeamMember(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ disabled: boolean }> {
  // an admin locking themselves out leaves nobody to undo it
  if (id === user.id) throw new DashboardUserError("You cannot disable your own account");
  return prisma.$transaction(async (tx) => {
    const member = await tx.dashboardUser.findFirst({
      where: { clientId: user.clientId, id },
      select: { disabledAt: true, role: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    if (member.disabledAt) return { disabled: false };
    if (member.role === "admin") await assertAnotherAdmin(tx, user.clientId, id, "disable");
    await tx.dashboardUser.update({ where: { id }, data: { disabledAt: new Date() } });
    await writeAudit(tx, user, {
      action: "dashboard_user.disabled",
      entityType: "dashboard_user",
      entityId: id,
    });
    return { disabled: true };
  });
}

/** Lets a disabled member of the admin's own client sign in again (disabling must not be a dead end). */
export async function enableTeamMember(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ enabled: boolean }> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.dashboardUser.findFirst({
      where: { clientId: user.clientId, id },
      select: { disabledAt: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    if (!member.disabledAt) return { enabled: false };
    await tx.dashboardUser.update({ where: { id }, data: { disabledAt: null } });
    await writeAudit(tx, user, {
      action: "dashboard_user.enabled",
      entityType: "dashboard_user",
      entityId: id,
    });
    return { enabled: true };
  });
}

/** Lifts a sign-in lock or back-off on a member of the admin's own client. */
export async function unlockTeamMember(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ unlocked: boolean }> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.dashboardUser.findFirst({
      where: { clientId: user.clientId, id },
      select: { email: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    const removed = await tx.signInThrottle.deleteMany({ where: { key: accountKey(member.email) } });
    if (removed.count === 0) return { unlocked: false };
    await writeAudit(tx, user, {
      action: "dashboard_user.unlocked",
      entityType: "dashboard_user",
      entityId: id,
    });
    return { unlocked: true };
  });
}

/**
 * Refuses a change that would leave the client without an active admin (nobody could manage the team,
 * keys or webhooks again). Locks the client's active admins, so two admins demoting each other at the
 * same moment cannot both succeed.
 */
async function assertAnotherAdmin(tx: Tx, clientId: string, memberId: string, verb: string): Promise<void> {
  const admins = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM dashboard_users
    WHERE "clientId" = ${clientId} AND role = 'admin' AND "disabledAt" IS NULL
    ORDER BY id FOR UPDATE`;
  if (!admins.some((a) => a.id !== memberId))
    throw new DashboardUserError(`You cannot ${verb} the last admin: make another member an admin first`);
}

/** Gives a member of the admin's own client another role; demoting the last admin is refused. */
export async function changeMemberRole(
  user: TSessionUser,
  { id, role }: { id: string; role: TDashboardRole },
): Promise<{ changed: boolean; role: TDashboardRole }> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.dashboardUser.findFirst({
      where: { clientId: user.clientId, id },
      select: { role: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    if (member.role === role) return { changed: false, role };
    if (member.role === "admin") await assertAnotherAdmin(tx, user.clientId, id, "demote");
    await tx.dashboardUser.update({ where: { id }, data: { role } });
    await writeAudit(tx, user, {
      action: "dashboard_user.role_changed",
      entityType: "dashboard_user",
      entityId: id,
      details: { from: member.role, to: role },
    });
    return { changed: true, role };
  });
}

/**
 * An admin-issued password reset: a one-time temporary password (returned this once, for the admin to
 * pass on), the sign-in lock lifted, and the member must set a password of their own before anything
 * else. The old password stops working at once.
 */
export async function resetMemberPassword(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ temporaryPassword: string }> {
  // your own password is changed by signing in with it, not by resetting it
  if (id === user.id) throw new DashboardUserError("You cannot reset your own password here");
  const temporaryPassword = randomBytes(12).toString("base64url");
  // Hashing takes a quarter of a second: before the transaction, so no row waits on it.
  const passwordHash = await bcrypt.hash(temporaryPassword, 12);
  return prisma.$transaction(async (tx) => {
    const member = await tx.dashboardUser.findFirst({
      where: { clientId: user.clientId, id },
      select: { email: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    await tx.dashboardUser.update({ where: { id }, data: { passwordHash, mustChangePassword: true } });
    await tx.signInThrottle.deleteMany({ where: { key: accountKey(member.email) } });
    await writeAudit(tx, user, {
      action: "dashboard_user.password_reset",
      entityType: "dashboard_user",
      entityId: id,
    });
    return { temporaryPassword };
  });
}

/** The member's own new password after a reset; it must differ from the temporary one. */
export async function setOwnPassword(
  user: TSessionUser,
  { password }: { password: string },
): Promise<{ changed: true }> {
  const current = await prisma.dashboardUser.findUniqueOrThrow({
    where: { id: user.id },
    select: { passwordHash: true },
  });
  if (await bcrypt.compare(password, current.passwordHash))
    throw new DashboardUserError("Choose a password different from the temporary one");
  const passwordHash = await bcrypt.hash(password, 12);
  return prisma.$transaction(async (tx) => {
    await tx.dashboardUser.update({
      where: { id: user.id },
      data: { passwordHash, mustChangePassword: false },
    });
    await writeAudit(tx, user, {
      action: "dashboard_user.password_changed",
      entityType: "dashboard_user",
      entityId: user.id,
    });
    return { changed: true as const };
  });
}
