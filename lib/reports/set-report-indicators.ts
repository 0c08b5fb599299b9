import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/errors/domain-error";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { activeSchema, incompleteFor } from "@/lib/reports/goaml-xml";
import { indicatorCodes } from "@/lib/reports/indicators";
import { assertEditable, lockReport } from "@/lib/reports/report-access";
import { readReportProfile } from "@/lib/reports/schemas";

/** Dashboard: replaces the report's indicator codes in row and content; only codes of the active schema's list. */
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
    const client = await tx.client.findUniqueOrThrow({
      where: { id: clientId },
      select: { reportingProfile: true },
    });
    const active = activeSchema(readReportProfile(client.reportingProfile));
    const known = new Set(indicatorCodes(active.schema).map((c) => c.value));
    const unknown = known.size ? next.filter((code) => !known.has(code)) : [];
    if (unknown.length)
      throw new DomainError(
        "validation",
        "Unknown indicator codes",
        unknown.map((code) => `/indicators: ${code} is not an indicator code of ${active.name}`),
      );
    const content = { ...(row.content as TContent), report_indicators: next };
    const incomplete = incompleteFor(content, active.schema);
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
