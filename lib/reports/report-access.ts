import type { Tx } from "@/lib/db";
import type { Report } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/errors/domain-error";
import type { TReportStatus } from "@/lib/reports/schemas";

/**
 * Content can change while an officer prepares the report (draft, amended) or must correct it for the FIU
 * (resubmission_required); states under review or filed are frozen for the record.
 */
export const EDITABLE_STATUSES: readonly TReportStatus[] = ["draft", "amended", "resubmission_required"];

/** The report row locked for update inside the caller's transaction; 404 when the client has no such report. */
export async function lockReport(
  tx: Tx,
  { clientId, reportId }: { clientId: string; reportId: string },
): Promise<Report> {
  await tx.$queryRaw`SELECT 1 FROM reports WHERE "clientId" = ${clientId} AND id = ${reportId} FOR UPDATE`;
  const row = await tx.report.findUnique({ where: { clientId_id: { clientId, id: reportId } } });
  if (!row) throw notFound("/reportId", "Report not found");
  return row;
}

export function assertEditable(row: Report): void {
  if (!EDITABLE_STATUSES.includes(row.status as TReportStatus))
    throw conflict(
      `A ${row.status} report cannot be edited; only draft, amended and resubmission-required reports can`,
    );
}
