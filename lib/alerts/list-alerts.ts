import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TListAlertsQuery } from "@/lib/alerts/schemas";
import { decodeCursor, encodeCursor } from "@/lib/alerts/keyset-cursor";

export type TAlertListItem = {
  id: string;
  transactionId: string;
  userId: string | null;
  userName: string | null;
  caseId: string | null;
  ruleId: string;
  ruleName: string;
  level: string;
  reason: string;
  recommendedAction: string;
  status: string;
  assignedTo: { id: string; label: string } | null;
  reviewedBy: string | null;
  reviewedAt: number | null;
  feedback: string | null;
  createdAt: number;
  transaction: { amount: string; currencyCode: string; status: string } | null;
};

export type TAlertList = { alerts: TAlertListItem[]; nextCursor: string | null };

/**
 * The alerts queue, newest first, keyset-paginated. Served by the (clientId, status, createdAt)
 * and (clientId, createdAt) indexes; level, rule and assignee narrow the index range scan.
 * No total count: on a large queue a count is the slowest part and nobody reads it.
 */
export async function listAlerts({
  clientId,
  query,
  currentUserId,
}: {
  clientId: string;
  query: TListAlertsQuery;
  /** Needed for the "assigned to me" filter. */
  currentUserId?: string;
}): Promise<TAlertList> {
  const and: Prisma.AlertWhereInput[] = [];
  const cursor = decodeCursor(query.cursor);
  // the plain bound starts the index scan at the cursor; the OR alone would be checked on every newer alert
  if (cursor)
    and.push(
      { createdAt: { lte: cursor.at } },
      { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] },
    );
  const where: Prisma.AlertWhereInput = {
    clientId,
    ...(query.status !== "all" && { status: query.status }),
    ...(query.level && { level: query.level }),
    ...(query.ruleId && { ruleId: query.ruleId }),
    ...(query.userId && { userId: query.userId }),
    ...(query.assigned === "me" && { assignedToId: currentUserId ?? "-" }),
    ...(query.assigned === "unassigned" && { assignedToId: null }),
    ...((query.from || query.to) && { createdAt: { gte: query.from, lte: query.to } }),
    ...(and.length && { AND: and }),
  };
  const rows = await prisma.alert.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null;

  // One primary-key lookup per related table for the page, never a join over the whole queue.
  const txIds = [...new Set(page.map((a) => a.transactionId))];
  const userIds = [...new Set(page.map((a) => a.userId).filter((v): v is string => !!v))];
  const assigneeIds = [...new Set(page.map((a) => a.assignedToId).filter((v): v is string => !!v))];
  const [transactions, users, assignees] = await Promise.all([
    txIds.length
      ? prisma.transaction.findMany({
          where: { clientId, id: { in: txIds } },
          select: { id: true, amount: true, currencyCode: true, status: true },
        })
      : [],
    userIds.length
      ? prisma.user.findMany({
          where: { clientId, id: { in: userIds } },
          select: { id: true, firstName: true, lastName: true },
        })
      : [],
    assigneeIds.length
      ? prisma.dashboardUser.findMany({
          where: { clientId, id: { in: assigneeIds } },
          select: { id: true, name: true, email: true },
        })
      : [],
  ]);
  const txById = new Map(transactions.map((t) => [t.id, t]));
  const userById = new Map(users.map((u) => [u.id, u]));
  const assigneeById = new Map(assignees.map((u) => [u.id, u]));

  return {
    nextCursor,
    alerts: page.map((a) => {
      const tx = txById.get(a.transactionId);
      const user = a.userId ? userById.get(a.userId) : undefined;
      const assignee = a.assignedToId ? assigneeById.get(a.assignedToId) : undefined;
      const userName = user ? [user.firstName, user.lastName].filter(Boolean).join(" ") || null : null;
      return {
        id: a.id,
        transactionId: a.transactionId,
        userId: a.userId,
        userName,
        caseId: a.caseId,
        ruleId: a.ruleId,
        ruleName: a.ruleName,
        level: a.level,
        reason: a.reason,
        recommendedAction: a.recommendedAction,
        status: a.status,
        assignedTo: a.assignedToId
          ? { id: a.assignedToId, label: assignee?.name ?? assignee?.email ?? a.assignedToId }
          : null,
        reviewedBy: a.reviewedBy,
        reviewedAt: a.reviewedAt?.getTime() ?? null,
        feedback: a.feedback,
        createdAt: a.createdAt.getTime(),
        transaction: tx
          ? { amount: tx.amount.toString(), currencyCode: tx.currencyCode, status: tx.status }
          : null,
      };
    }),
  };
}

/** Rule ids that have alerts, for the filter's select: from the rules table, not a scan of alerts. */
export async function alertRuleOptions({
  clientId,
}: {
  clientId: string;
}): Promise<{ ruleId: string; name: string }[]> {
  const rules = await prisma.rule.findMany({
    where: { clientId, subject: "transaction" },
    select: { id: true, ruleId: true, currentVersion: true, liveVersion: true },
    orderBy: { ruleId: "asc" },
    take: 500,
  });
  // each rule by the name of the version that screens (the newest while none is published)
  const versions = rules.length
    ? await prisma.ruleVersion.findMany({
        where: {
          clientId,
          OR: rules.map((r) => ({ ruleRef: r.id, version: r.liveVersion ?? r.currentVersion })),
        },
        select: { ruleRef: true, name: true },
      })
    : [];
  const nameByRef = new Map(versions.map((v) => [v.ruleRef, v.name]));
  return rules.map((r) => ({ ruleId: r.ruleId, name: nameByRef.get(r.id) ?? r.ruleId }));
}
