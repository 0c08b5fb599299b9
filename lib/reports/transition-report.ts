import { prisma, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import { incompletePaths, type TContent } from "@/lib/reports/content";
import { exportGoamlXml } from "@/lib/reports/goaml-xml";
import { goamlDate } from "@/lib/reports/populate-report";
import { conflict, lockReport } from "@/lib/reports/report-access";
import { readReportProfile, type TReportStatus } from "@/lib/reports/schemas";

// decisions §8: draft → pending_review → submitted → rejected / resubmission_required → amended, or archived.
export const TRANSITIONS: Record<TReportStatus, readonly TReportStatus[]> = {
  draft: ["pending_review", "archived"],
  pending_review: ["submitted", "draft", "archived"],
  submitted: ["rejected", "resubmission_required", "archived"],
  rejected: ["amended", "archived"],
  resubmission_required: ["amended", "archived"],
  amended: ["pending_review", "archived"],
  archived: [],
};

async function withReportingPerson(tx: Tx, content: TContent, actor: TActor): Promise<TContent> {
  const person = content.reporting_person;
  if (
    !person ||
    typeof person !== "object" ||
    Array.isArray(person) ||
    actor.type !== "dashboard" ||
    !actor.id
  )
    return content;
  if (person.first_name !== null && person.last_name !== null) return content;
  const officer = await tx.dashboardUser.findUnique({
    where: { id: actor.id },
    select: { name: true, email: true },
  });
  const [first, ...rest] = (officer?.name ?? "").trim().split(/\s+/);
  return {
    ...content,
    reporting_person: {
      ...person,
      first_name: person.first_name ?? (first || null),
      last_name: person.last_name ?? (rest.join(" ") || null),
      email: person.email ?? officer?.email,
    },
  };
}

export const FOUR_EYES_MESSAGE =
  "The officer who prepared this report cannot file it; another reporting officer must";

/**
 * Dashboard: moves a report to its next status. Sending for review records the preparer; filing (submitted)
 * needs a different officer (four-eyes), an FIU reference number, and content that renders to valid goAML.
 */
export async function transitionReport({
  clientId,
  reportId,
  to,
  actor,
  fiuReferenceNumber,
  comment,
}: {
  clientId: string;
  reportId: string;
  to: TReportStatus;
  actor: TActor;
  fiuReferenceNumber?: string;
  comment?: string;
}): Promise<{ status: TReportStatus }> {
  return prisma.$transaction(
    async (tx) => {
      const row = await lockReport(tx, { clientId, reportId });
      const from = row.status as TReportStatus;
      if (!TRANSITIONS[from].includes(to)) throw conflict(`A ${from} report cannot move to ${to}`);
      const now = new Date();
      const data: Prisma.ReportUpdateInput = { status: to, updatedAt: now, updatedById: actor.id };
      const changes: Record<string, unknown> = { from, to, ...(comment ? { comment } : {}) };

      if (to === "pending_review") data.preparedById = actor.id;
      if (to === "submitted") {
        if (!row.preparedById || row.preparedById === actor.id) throw conflict(FOUR_EYES_MESSAGE);
        const reference = fiuReferenceNumber?.trim();
        if (!reference) throw conflict("The FIU reference number is required to file a report");
        const client = await tx.client.findUniqueOrThrow({
          where: { id: clientId },
          select: { reportingProfile: true },
        });
        // goAML's submission date is the day the report is filed; the filing officer is the reporting person
        // wherever the client's profile names none.
        const content = await withReportingPerson(
          tx,
          { ...(row.content as TContent), submission_date: goamlDate(now) },
          actor,
        );
        const goaml = await exportGoamlXml(content, readReportProfile(client.reportingProfile));
        if (!goaml.ok)
          throw conflict(
            goaml.reason === "incomplete"
              ? `The report is incomplete: ${goaml.missing.join(", ")}`
              : `The goAML XML does not validate: ${goaml.errors.join("; ")}`,
          );
        Object.assign(data, {
          fiuReferenceNumber: reference,
          submittedAt: now,
          submittedById: actor.id,
          content: content as Prisma.InputJsonValue,
          incomplete: incompletePaths(content),
        });
        changes.fiuReferenceNumber = reference;
      }
      await tx.report.update({ where: { clientId_id: { clientId, id: reportId } }, data });
      await appendAudit(tx, { clientId, reportId, actor, action: "status_changed", changes, at: now });
      return { status: to };
    },
    { timeout: 30_000 },
  );
}
