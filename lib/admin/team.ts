import type { TSessionUser } from "@/lib/auth/session";
import {
  DashboardUserError,
  insertDashboardUser,
  prepareDashboardUser,
} from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import { writeAudit } from "@/lib/admin/audit";
import type { TCreateTeamMember } from "@/lib/admin/schemas";
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
};

export async function listTeam(user: TSessionUser, at = new Date()): Promise<TTeamMember[]> {
  const rows = await prisma.dashboardUser.findMany({
    where: { clientId: user.clientId },
    orderBy: [{ email: "asc" }],
    take: 1000,
    select: { id: true, email: true, name: true, role: true, createdAt: true, disabledAt: true },
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
      select: { disabledAt: true },
    });
    if (!member) throw notFound("/userId", "Dashboard user not found");
    if (member.disabledAt) return { disabled: false };
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
