import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TListReportsQuery, TReportListItem } from "@/lib/reports/schemas";
import { serializeListItem } from "@/lib/reports/serialize-report";

export const REPORTS_PAGE_DEFAULT = 20;

export type TReportList = { reports: TReportListItem[]; total: number; page: number; pages: number };

/** The client's reports, newest first, filtered and paged (API list and dashboard list). */
export async function listReports({
  clientId,
  query,
}: {
  clientId: string;
  query: TListReportsQuery;
}): Promise<TReportList> {
  const page = query.page ?? 1;
  const limit = query.limit ?? REPORTS_PAGE_DEFAULT;
  const where: Prisma.ReportWhereInput = { clientId };
  if (query.status?.length) where.status = { in: query.status };
  if (query.reportType?.length) where.reportType = { in: query.reportType };
  if (query.userId) where.userId = query.userId;
  if (query.transactionId) where.transactionIds = { has: query.transactionId };
  if (query.reportNumber) where.reportNumber = query.reportNumber;
  if (query.createdFrom !== undefined || query.createdTo !== undefined)
    where.createdAt = {
      ...(query.createdFrom !== undefined ? { gte: new Date(query.createdFrom) } : {}),
      ...(query.createdTo !== undefined ? { lte: new Date(query.createdTo) } : {}),
    };
  const [total, rows] = await Promise.all([
    prisma.report.count({ where }),
    prisma.report.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * limit,
      take: limit,
    }),
  ]);
  return { reports: rows.map(serializeListItem), total, page, pages: Math.ceil(total / limit) };
}
