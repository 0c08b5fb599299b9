import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { decodeCursor, encodeCursor } from "@/lib/alerts/keyset-cursor";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import type { TCaseInboxQuery, TCaseStatus } from "@/lib/cases/schemas";

export type TCaseInboxItem = {
  id: string;
  subject: { type: string; id: string; name: string | null };
  status: TCaseStatus;
  priority: string;
  assignee: { id: string; name: string | null; email: string } | null;
  dueAt: number;
  overdue: boolean;
  alertCount: number;
  openAlertCount: number;
  rules: string[];
  reportId: string | null;
  createdAt: number;
  lastAlertAt: number;
};

export type TCaseInbox = { cases: TCaseInboxItem[]; nextCursor: string | null };

type TRow = {
  id: string;
  subjectType: string;
  subjectId: string;
  status: string;
  priority: string;
  assigneeId: string | null;
  dueAt: Date;
  alertCount: number;
  reportId: string | null;
  createdAt: Date;
  lastAlertAt: Date;
};

/**
 * The case inbox, due first, keyset-paginated over (dueAt, id): served by the (clientId, status, dueAt, id)
 * and (clientId, dueAt, id) indexes, so a page costs the same at any depth. Reporting officers see the
 * cases escalated to them (those with a report). Names, assignees and alert counts: one read each per page.
 */
export async function listCaseInbox({
  clientId,
  query,
  viewer,
}: {
  clientId: string;
  query: TCaseInboxQuery;
  viewer: { id: string; role: TDashboardRole };
}): Promise<TCaseInbox> {
  const now = new Date();
  const where: Prisma.Sql[] = [Prisma.sql`c."clientId" = ${clientId}`];
  if (query.status === "active") where.push(Prisma.sql`c.status <> 'closed'`);
  else if (query.status !== "all") where.push(Prisma.sql`c.status = ${query.status}`);
  if (viewer.role === "reporting_officer") where.push(Prisma.sql`c."reportId" IS NOT NULL`);
  if (query.priority) where.push(Prisma.sql`c.priority = ${query.priority}`);
  if (query.assignee === "me") where.push(Prisma.sql`c."assigneeId" = ${viewer.id}`);
  else if (query.assignee === "unassigned") where.push(Prisma.sql`c."assigneeId" IS NULL`);
  else if (query.assignee) where.push(Prisma.sql`c."assigneeId" = ${query.assignee}`);
  if (query.overdue === "true") where.push(Prisma.sql`c."dueAt" < ${now} AND c.status <> 'closed'`);
  if (query.overdue === "false") where.push(Prisma.sql`(c."dueAt" >= ${now} OR c.status = 'closed')`);
  if (query.userId) where.push(Prisma.sql`c."subjectType" = 'user' AND c."subjectId" = ${query.userId}`);
  if (query.ruleId)
    where.push(
      Prisma.sql`EXISTS (SELECT 1 FROM alerts a WHERE a."caseId" = c.id AND a."ruleId" = ${query.ruleId})`,
    );
  const cursor = decodeCursor(query.cursor);
  if (cursor) where.push(Prisma.sql`(c."dueAt", c.id) > (${cursor.at}, ${cursor.id})`);
  const rows = await prisma.$queryRaw<TRow[]>`
    SELECT c.id, c."subjectType", c."subjectId", c.status, c.priority, c."assigneeId", c."dueAt",
           c."alertCount", c."reportId", c."createdAt", c."lastAlertAt"
    FROM cases c
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY c."dueAt", c.id
    LIMIT ${query.limit + 1}`;
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ at: last.dueAt, id: last.id }) : null;

  const ids = page.map((r) => r.id);
  const userIds = page.filter((r) => r.subjectType === "user").map((r) => r.subjectId);
  const merchantIds = page.filter((r) => r.subjectType === "merchant").map((r) => r.subjectId);
  const assigneeIds = [...new Set(page.map((r) => r.assigneeId).filter((v): v is string => !!v))];
  const [alerts, users, merchants, people] = await Promise.all([
    ids.length
      ? prisma.alert.findMany({
          where: { clientId, caseId: { in: ids } },
          select: { caseId: true, ruleName: true, status: true },
        })
      : [],
    userIds.length
      ? prisma.user.findMany({
          where: { clientId, id: { in: userIds } },
          select: { id: true, firstName: true, lastName: true, email: true },
        })
      : [],
    merchantIds.length
      ? prisma.merchant.findMany({
          where: { clientId, id: { in: merchantIds } },
          select: { id: true, name: true },
        })
      : [],
    assigneeIds.length
      ? prisma.dashboardUser.findMany({
          where: { clientId, id: { in: assigneeIds } },
          select: { id: true, name: true, email: true },
        })
      : [],
  ]);
  const names = new Map<string, string | null>();
  for (const u of users)
    names.set(`user:${u.id}`, [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email);
  for (const m of merchants) names.set(`merchant:${m.id}`, m.name);
  const assignees = new Map(people.map((p) => [p.id, p]));
  const rules = new Map<string, Set<string>>();
  const open = new Map<string, number>();
  for (const a of alerts) {
    if (!a.caseId) continue;
    rules.set(a.caseId, (rules.get(a.caseId) ?? new Set()).add(a.ruleName));
    if (a.status === "open") open.set(a.caseId, (open.get(a.caseId) ?? 0) + 1);
  }
  return {
    nextCursor,
    cases: page.map((r) => ({
      id: r.id,
      subject: {
        type: r.subjectType,
        id: r.subjectId,
        name: names.get(`${r.subjectType}:${r.subjectId}`) ?? null,
      },
      status: r.status as TCaseStatus,
      priority: r.priority,
      assignee: r.assigneeId ? (assignees.get(r.assigneeId) ?? null) : null,
      dueAt: r.dueAt.getTime(),
      overdue: r.status !== "closed" && r.dueAt < now,
      alertCount: r.alertCount,
      openAlertCount: open.get(r.id) ?? 0,
      rules: [...(rules.get(r.id) ?? [])].sort(),
      reportId: r.reportId,
      createdAt: r.createdAt.getTime(),
      lastAlertAt: r.lastAlertAt.getTime(),
    })),
  };
}
