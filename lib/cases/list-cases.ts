import { prisma } from "@/lib/db";
import type { Case, Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/errors/domain-error";
import { CASES_PAGE_DEFAULT, type TCaseResponse, type TListCasesQuery } from "@/lib/cases/schemas";
import { serializeCase, type TAssignee } from "@/lib/cases/serialize-case";

/** alertIds and assignees of a page of cases, two indexed reads for the whole page. */
async function withRelations(clientId: string, rows: Case[]): Promise<TCaseResponse[]> {
  const ids = rows.map((r) => r.id);
  const assigneeIds = [...new Set(rows.map((r) => r.assigneeId).filter((v): v is string => !!v))];
  const [alerts, people] = await Promise.all([
    ids.length
      ? prisma.alert.findMany({
          where: { clientId, caseId: { in: ids } },
          select: { id: true, caseId: true },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        })
      : [],
    assigneeIds.length
      ? prisma.dashboardUser.findMany({
          where: { clientId, id: { in: assigneeIds } },
          select: { id: true, name: true, email: true },
        })
      : [],
  ]);
  const alertIds = new Map<string, string[]>();
  for (const a of alerts) if (a.caseId) alertIds.set(a.caseId, [...(alertIds.get(a.caseId) ?? []), a.id]);
  const byId = new Map<string, TAssignee>(people.map((p) => [p.id, p]));
  return rows.map((row) =>
    serializeCase(row, {
      alertIds: alertIds.get(row.id) ?? [],
      assignee: row.assigneeId ? (byId.get(row.assigneeId) ?? null) : null,
    }),
  );
}

/** GET /v1/cases: the client's cases, most recently created first, filtered by status and paged. */
export async function listCases({
  clientId,
  query,
}: {
  clientId: string;
  query: TListCasesQuery;
}): Promise<{ cases: TCaseResponse[]; total: number; page: number; pages: number }> {
  const page = query.page ?? 1;
  const limit = query.limit ?? CASES_PAGE_DEFAULT;
  const where: Prisma.CaseWhereInput = { clientId };
  if (query.status?.length) where.status = { in: query.status };
  const [total, rows] = await Promise.all([
    prisma.case.count({ where }),
    prisma.case.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * limit,
      take: limit,
    }),
  ]);
  return { cases: await withRelations(clientId, rows), total, page, pages: Math.ceil(total / limit) };
}

/** GET /v1/cases/{caseId}: one of the client's cases; another client's id is not found. */
export async function getCase({
  clientId,
  caseId,
}: {
  clientId: string;
  caseId: string;
}): Promise<TCaseResponse> {
  const row = await prisma.case.findFirst({ where: { clientId, id: caseId } });
  if (!row) throw notFound("/caseId", "Case not found");
  const [serialized] = await withRelations(clientId, [row]);
  return serialized!;
}
