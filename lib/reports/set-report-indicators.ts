import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import { incompletePaths, type TContent } from "@/lib/reports/content";
import { assertEditable, lockReport } from "@/lib/reports/report-access";

/** Dashboard: replaces the report's indicator codes (the client's code list or free codes) in row and content. */
export async function setReportIndicators({
  clientId,
  reportId,
  indicators,
  actor,
}: {
  clientId: string;
  reportId: string;
  indicators: string[];
  actor: TActor;
}): Promise<{ indicators: string[]; incomplete: string[] }> {
  const next = [...new Set(indicators.map((i) => i.trim()).filter(Boolean))];
  return prisma.$transaction(async (tx) => {
    const row = await lockReport(tx, { clientId, reportId });
    assertEditable(row);
    const content = { ...(row.content as TContent), report_indicators: next };
    const incomplete = incompletePaths(content);
    await tx.report.update({
      where: { clientId_id: { clientId, id: reportId } },
      data: {
        indicators: next,
        content: content as Prisma.InputJsonValue,
        incomplete,
        updatedAt: new Date(),
        updatedById: actor.id,
      },
    });
    await appendAudit(tx, {
      clientId,
      reportId,
      actor,
      action: "indicators_updated",
      changes: { from: row.indicators, to: next },
    });
    return { indicators: next, incomplete };
  });
}
