import type { Tx } from "@/lib/db";
import type { Report } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/http/errors";
import type { TReportStatus } from "@/lib/reports/schemas";

/** Content can change only while an officer is preparing the report; later states are frozen for the record. */
export const EDITABLE_STATUSES: readonly TReportStatus[] = ["draft", "amended"];

export function conflict(message: string): ApiError {
  return new ApiError(400, "VALIDATION_ERROR", message, [`/: ${message}`]);
}

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
    throw conflict(`A ${row.status} report cannot be edited; only draft and amended reports can`);
}
