import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { appendAudit, listAudit, type TActor } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { activeSchema, incompleteFor } from "@/lib/reports/goaml-xml";
import { readReportProfile, type TReport } from "@/lib/reports/schemas";
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
    // A report not yet filed is checked against the schema active now (the same list as the page's verdict),
    // whenever its stored list was written; a filed report keeps the list it was filed with.
    if (!["submitted", "archived"].includes(row.status)) {
      const client = await tx.client.findUniqueOrThrow({
        where: { id: clientId },
        select: { reportingProfile: true },
      });
      row.incomplete = incompleteFor(
        row.content as TContent,
        activeSchema(readReportProfile(client.reportingProfile)).schema,
      );
    }
    return serializeReport(row, { content: include.includes("content"), audit });
  });
}
