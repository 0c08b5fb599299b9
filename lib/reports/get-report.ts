import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { appendAudit, listAudit, type TActor } from "@/lib/reports/audit";
import type { TReport } from "@/lib/reports/schemas";
import { serializeReport } from "@/lib/reports/serialize-report";

/** One report, its read recorded in the audit trail first (so an included trail shows this read too). */
export async function getReport({
  clientId,
  reportId,
  include = [],
  actor,
  via = "api",
}: {
  clientId: string;
  reportId: string;
  include?: readonly ("content" | "audit")[];
  actor: TActor;
  via?: string;
}): Promise<TReport> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.report.findUnique({ where: { clientId_id: { clientId, id: reportId } } });
    if (!row) throw notFound("/reportId", "Report not found");
    await appendAudit(tx, {
      clientId,
      reportId,
      actor,
      action: "read",
      changes: { via, include: [...include] },
    });
    const audit = include.includes("audit") ? await listAudit(tx, { clientId, reportId }) : undefined;
    return serializeReport(row, { content: include.includes("content"), audit });
  });
}
