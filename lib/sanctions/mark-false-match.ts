import { writeAudit } from "@/lib/admin/audit";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import type { SanctionsFalseMatch } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/errors/domain-error";

export type TFalseMatch = {
  userId: string;
  datasetId: string;
  entityId: string;
  entityName: string;
  screenedName: string;
  note: string | null;
  createdById: string;
  createdAt: number;
};

/**
 * A reviewer's "not this person": from the next screening on, the entity no longer scores for the
 * user. Idempotent; audited in the same transaction. 404 for another client's user or an unknown entity.
 */
export async function markSanctionsFalseMatch(args: {
  actor: TSessionUser;
  userId: string;
  datasetId: string;
  entityId: string;
  screenedName: string;
  note?: string;
}): Promise<{ falseMatch: TFalseMatch; created: boolean }> {
  const clientId = args.actor.clientId;
  const [user, entity] = await Promise.all([
    prisma.user.findUnique({ where: { clientId_id: { clientId, id: args.userId } }, select: { id: true } }),
    prisma.sanctionsEntity.findUnique({
      where: { datasetId_entityId: { datasetId: args.datasetId, entityId: args.entityId } },
      select: { name: true },
    }),
  ]);
  if (!user) throw notFound("/userId", "User not found");
  if (!entity) throw notFound("/entityId", "Sanctions entity not found");
  return prisma.$transaction(async (tx) => {
    const key = { clientId, userId: args.userId, datasetId: args.datasetId, entityId: args.entityId };
    const existing = await tx.sanctionsFalseMatch.findUnique({
      where: { clientId_userId_datasetId_entityId: key },
    });
    if (existing) return { falseMatch: serialize(existing), created: false };
    const row = await tx.sanctionsFalseMatch.create({
      data: {
        ...key,
        entityName: entity.name,
        screenedName: args.screenedName,
        note: args.note || null,
        createdById: args.actor.id,
      },
    });
    await writeAudit(tx, args.actor, {
      action: "sanctions.false_match.marked",
      entityType: "user",
      entityId: args.userId,
      details: {
        datasetId: args.datasetId,
        entityId: args.entityId,
        entityName: entity.name,
        screenedName: args.screenedName,
        ...(args.note ? { note: args.note } : {}),
      },
    });
    return { falseMatch: serialize(row), created: true };
  });
}

/** Withdraws a false-match mark: the entity scores for the user again. Audited; 404 when not marked. */
export async function removeSanctionsFalseMatch(args: {
  actor: TSessionUser;
  userId: string;
  datasetId: string;
  entityId: string;
}): Promise<{ removed: true }> {
  const key = {
    clientId: args.actor.clientId,
    userId: args.userId,
    datasetId: args.datasetId,
    entityId: args.entityId,
  };
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.sanctionsFalseMatch.deleteMany({ where: key });
    if (count === 0) throw notFound("/entityId", "No false-match mark for this user and entity");
    await writeAudit(tx, args.actor, {
      action: "sanctions.false_match.removed",
      entityType: "user",
      entityId: args.userId,
      details: { datasetId: args.datasetId, entityId: args.entityId },
    });
    return { removed: true as const };
  });
}

/** The user's false-match marks, newest first (client-scoped). */
export async function listSanctionsFalseMatches(args: {
  clientId: string;
  userId: string;
}): Promise<TFalseMatch[]> {
  const rows = await prisma.sanctionsFalseMatch.findMany({
    where: { clientId: args.clientId, userId: args.userId },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(serialize);
}

function serialize(row: SanctionsFalseMatch): TFalseMatch {
  return {
    userId: row.userId,
    datasetId: row.datasetId,
    entityId: row.entityId,
    entityName: row.entityName,
    screenedName: row.screenedName,
    note: row.note,
    createdById: row.createdById,
    createdAt: row.createdAt.getTime(),
  };
}
