import { createHash } from "node:crypto";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { exportGoamlXml, type TGoamlExport } from "@/lib/reports/goaml-xml";
import { readReportProfile } from "@/lib/reports/schemas";
import { withReportingPerson } from "@/lib/reports/transition-report";

/**
 * Dashboard: the report's goAML XML, checked exactly as the report page checks it (the same problem list; a blank
 * reporting person is the officer who downloads, as filing would make it), then validated; a successful download
 * and a refusal are both written to the audit trail.
 */
export async function downloadGoaml({
  clientId,
  reportId,
  actor,
}: {
  clientId: string;
  reportId: string;
  actor: TActor;
}): Promise<TGoamlExport> {
  const [row, client] = await Promise.all([
    prisma.report.findUnique({ where: { clientId_id: { clientId, id: reportId } } }),
    prisma.client.findUniqueOrThrow({ where: { id: clientId }, select: { reportingProfile: true } }),
  ]);
  if (!row) throw notFound("/reportId", "Report not found");
  const content = await withReportingPerson(prisma, row.content as TContent, actor);
  const result = await exportGoamlXml(content, readReportProfile(client.reportingProfile));
  await prisma.$transaction((tx) =>
    appendAudit(tx, {
      clientId,
      reportId,
      actor,
      action: result.ok ? "goaml_downloaded" : "goaml_refused",
      changes: result.ok
        ? { sha256: createHash("sha256").update(result.xml).digest("hex") }
        : {
            reason: result.reason,
            ...(result.reason === "incomplete"
              ? { missing: result.missing }
              : { errors: result.errors.slice(0, 20) }),
          },
    }),
  );
  return result;
}
