// The audit trail for admins: every audited change of the client, newest first, filtered and paged.
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { auditActionLabel, auditObjectHref } from "@/lib/admin/audit-actions";
import type { TAuditQuery } from "@/lib/admin/schemas";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import type { TPerson } from "@/lib/format";

export type TAuditEntry = {
  id: string;
  at: number;
  actorType: string;
  actorId: string | null;
  /** The dashboard user who acted, by name; null for the operator CLI or the system. */
  actor: TPerson | null;
  action: string;
  actionLabel: string;
  entityType: string;
  entityId: string;
  /** A readable name of the object when the entry carries one (a list's or a member's name). */
  entityLabel: string | null;
  href: string | null;
  details: unknown;
};

export const AUDIT_EXPORT_MAX = 50_000;

function where(clientId: string, q: Omit<TAuditQuery, "cursor" | "limit">): Prisma.AuditLogWhereInput {
  return {
    clientId,
    ...(q.actorId && { actorId: q.actorId }),
    ...(q.action && { action: q.action }),
    ...(q.entityType && { entityType: q.entityType }),
    ...(q.entityId && { entityId: q.entityId }),
    ...((q.from || q.to) && { createdAt: { ...(q.from && { gte: q.from }), ...(q.to && { lte: q.to }) } }),
  };
}

type TRow = {
  id: string;
  createdAt: Date;
  actorType: string;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  details: Prisma.JsonValue;
};

/** Names the actors and links the objects of a page of rows: one read of users, one of alerts' cases. */
async function present(clientId: string, rows: TRow[]): Promise<TAuditEntry[]> {
  const actorIds = rows.filter((r) => r.actorType === "dashboard_user" && r.actorId).map((r) => r.actorId!);
  const memberIds = rows.filter((r) => r.entityType === "dashboard_user").map((r) => r.entityId);
  const alertIds = [...new Set(rows.filter((r) => r.entityType === "alert").map((r) => r.entityId))];
  const [people, alerts] = await Promise.all([
    resolvePeople({ clientId, ids: [...actorIds, ...memberIds] }),
    alertIds.length
      ? prisma.alert.findMany({
          where: { clientId, id: { in: alertIds } },
          select: { id: true, caseId: true },
        })
      : Promise.resolve([]),
  ]);
  const caseOf = new Map(alerts.map((a) => [a.id, a.caseId]));
  return rows.map((r) => {
    const details = r.details as Record<string, unknown> | null;
    const listName = r.entityType === "list" && typeof details?.list === "string" ? details.list : null;
    const member = r.entityType === "dashboard_user" ? people.byId(r.entityId) : null;
    return {
      id: r.id,
      at: r.createdAt.getTime(),
      actorType: r.actorType,
      actorId: r.actorId,
      actor: r.actorType === "dashboard_user" && r.actorId ? people.byId(r.actorId) : null,
      action: r.action,
      actionLabel: auditActionLabel(r.action),
      entityType: r.entityType,
      entityId: r.entityId,
      entityLabel: listName ?? (member ? member.name || member.email : null),
      href: auditObjectHref(r.entityType, r.entityId, caseOf.get(r.entityId)),
      details: r.details,
    };
  });
}

const SELECT = {
  id: true,
  createdAt: true,
  actorType: true,
  actorId: true,
  action: true,
  entityType: true,
  entityId: true,
  details: true,
} as const;

/** Newest first, keyset-paginated on (createdAt, id): a deep page costs what the first does. */
export async function listAuditLog(
  user: TSessionUser,
  query: TAuditQuery,
): Promise<{ entries: TAuditEntry[]; nextCursor: string | null }> {
  let after: { createdAt: Date; id: string } | null = null;
  if (query.cursor) {
    after = await prisma.auditLog.findFirst({
      where: { clientId: user.clientId, id: query.cursor },
      select: { createdAt: true, id: true },
    });
  }
  const rows = await prisma.auditLog.findMany({
    where: {
      ...where(user.clientId, query),
      ...(after && {
        OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
      }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    select: SELECT,
  });
  const page = rows.slice(0, query.limit);
  return {
    entries: await present(user.clientId, page),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** Every entry the filters match, newest first, up to AUDIT_EXPORT_MAX (for the CSV export). */
export async function exportAuditLog(
  user: TSessionUser,
  query: Omit<TAuditQuery, "cursor" | "limit">,
): Promise<{ entries: TAuditEntry[]; truncated: boolean }> {
  const rows = await prisma.auditLog.findMany({
    where: where(user.clientId, query),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: AUDIT_EXPORT_MAX + 1,
    select: SELECT,
  });
  const truncated = rows.length > AUDIT_EXPORT_MAX;
  return { entries: await present(user.clientId, rows.slice(0, AUDIT_EXPORT_MAX)), truncated };
}
