import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import { getAtPath, incompletePaths, setAtPath, type TContent } from "@/lib/reports/content";
import { assertEditable, conflict, lockReport } from "@/lib/reports/report-access";

/**
 * Dashboard: a reviewer supplies content values (usually the `incomplete` paths). Only existing leaves can be
 * set, so the goAML structure stays the one populateReport built; an empty value marks the field missing again.
 */
export async function setReportFields({
  clientId,
  reportId,
  fields,
  actor,
}: {
  clientId: string;
  reportId: string;
  fields: Record<string, string>;
  actor: TActor;
}): Promise<{ incomplete: string[] }> {
  return prisma.$transaction(async (tx) => {
    const row = await lockReport(tx, { clientId, reportId });
    assertEditable(row);
    let content = row.content as TContent;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const [path, raw] of Object.entries(fields)) {
      const value = raw.trim() === "" ? null : raw.trim();
      const from = getAtPath(content, path);
      if (from === value) continue;
      const next = setAtPath(content, path, value);
      if (!next) throw conflict(`${path} is not a field of this report`);
      content = next;
      changes[path] = { from: from ?? null, to: value };
    }
    if (Object.keys(changes).length === 0) return { incomplete: row.incomplete };
    const incomplete = incompletePaths(content);
    await tx.report.update({
      where: { clientId_id: { clientId, id: reportId } },
      data: {
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
      action: "fields_updated",
      changes: { fields: changes },
    });
    return { incomplete };
  });
}
