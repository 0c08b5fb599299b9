import { conflict } from "@/lib/errors/domain-error";
import { closeReportedCase } from "@/lib/cases/close-case";
import { prisma, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { activeSchema, exportGoamlXml, incompleteFor } from "@/lib/reports/goaml-xml";
import { goamlDate } from "@/lib/reports/populate-report";
import { lockReport } from "@/lib/reports/report-access";
import { reportVerdict, verdictReasons } from "@/lib/reports/report-verdict";
import { readReportProfile, type TReportStatus } from "@/lib/reports/schemas";
import {
  reportWarnings,
  unconfirmedWarnings,
  warningsRefusal,
  type TReportWarning,
} from "@/lib/reports/warnings";

// docs/decisions.md §8: draft → pending_review → submitted → rejected / resubmission_required → amended, or archived.
export const TRANSITIONS: Record<TReportStatus, readonly TReportStatus[]> = {
  draft: ["pending_review", "archived"],
  pending_review: ["submitted", "draft", "archived"],
  submitted: ["rejected", "resubmission_required", "archived"],
  rejected: ["amended", "archived"],
  resubmission_required: ["amended", "archived"],
  amended: ["pending_review", "archived"],
  archived: [],
};

/** For each dashboard user id, who created the account ("cli" when the operator did, null when unknown). */
async function accountCreators(
  tx: Tx,
  clientId: string,
  ids: (string | null)[],
): Promise<Record<string, string | null>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const created = await tx.auditLog.findMany({
    where: {
      clientId,
      action: "dashboard_user.created",
      entityType: "dashboard_user",
      entityId: { in: wanted },
    },
    select: { entityId: true, actorId: true },
  });
  const users = await tx.dashboardUser.findMany({
    where: { clientId, id: { in: wanted } },
    select: { id: true },
  });
  const byId = new Map(created.map((c) => [c.entityId, c.actorId]));
  const known = new Set(users.map((u) => u.id));
  return Object.fromEntries(wanted.map((id) => [id, byId.get(id) ?? (known.has(id) ? "cli" : null)]));
}

/** The content with the filing officer as reporting person wherever the client's profile names none. */
export async function withReportingPerson(
  tx: Pick<Tx, "dashboardUser">,
  content: TContent,
  actor: TActor,
): Promise<TContent> {
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
  "You prepared this report and sent it for review, so you cannot file it yourself: the four-eyes rule needs another reporting officer to check and file it";

/** Why `actorId` may not file a report prepared by `preparedById`, or null when they may. */
export function fourEyesRefusal(preparedById: string | null, actorId: string | null): string | null {
  if (!preparedById)
    return "The report has not been sent for review yet; only a reviewed report can be filed";
  return preparedById === actorId ? FOUR_EYES_MESSAGE : null;
}

/**
 * Review and filing hold back a report with warnings no officer has confirmed: with a note they are confirmed
 * (which warnings, the note, by whom) in the report's trail, in the transition's transaction; without, refused.
 */
async function confirmWarnings(
  tx: Tx,
  input: { clientId: string; reportId: string; actor: TActor; to: TReportStatus; at: Date; note?: string },
  content: TContent,
): Promise<TReportWarning[]> {
  const { clientId, reportId } = input;
  const trail = await tx.reportAuditEntry.findMany({
    where: { clientId, reportId, action: { in: ["warnings_confirmed", "fields_updated"] } },
    orderBy: { seq: "asc" },
    select: { action: true, changes: true },
  });
  const open = unconfirmedWarnings(reportWarnings(content, input.at), trail);
  if (open.length === 0) return open;
  const note = input.note?.trim();
  if (!note) throw conflict(warningsRefusal(open));
  await appendAudit(tx, {
    clientId,
    reportId,
    actor: input.actor,
    action: "warnings_confirmed",
    changes: { warnings: open, note, for: input.to },
    at: input.at,
  });
  return open;
}

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
  warningsNote,
}: {
  clientId: string;
  reportId: string;
  to: TReportStatus;
  actor: TActor;
  fiuReferenceNumber?: string;
  comment?: string;
  /** The officer's note confirming the report's warnings (a negative amount, a birth date in the future…). */
  warningsNote?: string;
}): Promise<{ status: TReportStatus }> {
  const outcome = await prisma.$transaction(
    async (tx): Promise<{ status: TReportStatus } | { refused: string }> => {
      const row = await lockReport(tx, { clientId, reportId });
      const from = row.status as TReportStatus;
      if (!TRANSITIONS[from].includes(to)) throw conflict(`A ${from} report cannot move to ${to}`);
      const now = new Date();
      const data: Prisma.ReportUpdateInput = { status: to, updatedAt: now, updatedById: actor.id };
      const changes: Record<string, unknown> = { from, to, ...(comment ? { comment } : {}) };

      const client = await tx.client.findUniqueOrThrow({
        where: { id: clientId },
        select: { reportingProfile: true },
      });
      if (to === "pending_review") {
        // Review is for a file that validates: the reviewer checks facts, not whether the XML is well formed.
        // The reporting person left blank by the profile is the filing officer, filled at filing.
        const stored = row.content as TContent;
        const verdict = await reportVerdict(
          stored,
          activeSchema(readReportProfile(client.reportingProfile)),
          await withReportingPerson(tx, stored, actor),
        );
        if (!verdict.valid) throw conflict(verdictReasons(verdict));
        await confirmWarnings(tx, { clientId, reportId, actor, to, at: now, note: warningsNote }, stored);
        data.preparedById = actor.id;
      }
      if (to === "submitted") {
        const refusal = fourEyesRefusal(row.preparedById, actor.id);
        if (refusal) {
          // The refused attempt is part of the record; it commits, then the caller gets the refusal.
          await appendAudit(tx, {
            clientId,
            reportId,
            actor,
            action: "filing_refused",
            changes: { reason: refusal, preparedById: row.preparedById },
            at: now,
          });
          return { refused: refusal };
        }
        const reference = fiuReferenceNumber?.trim();
        if (!reference) throw conflict("The FIU reference number is required to file a report");
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
        await confirmWarnings(tx, { clientId, reportId, actor, to, at: now, note: warningsNote }, content);
        Object.assign(data, {
          fiuReferenceNumber: reference,
          submittedAt: now,
          submittedById: actor.id,
          content: content as Prisma.InputJsonValue,
          incomplete: incompleteFor(content, activeSchema(readReportProfile(client.reportingProfile)).schema),
        });
        changes.fiuReferenceNumber = reference;
        // Four eyes are two accounts, not two people: an admin can create two officers and file alone.
        // Who created each account goes into the report's own trail, where an auditor reads the filing.
        changes.preparedById = row.preparedById;
        changes.accountsCreatedBy = await accountCreators(tx, clientId, [row.preparedById, actor.id]);
      }
      await tx.report.update({ where: { clientId_id: { clientId, id: reportId } }, data });
      await appendAudit(tx, { clientId, reportId, actor, action: "status_changed", changes, at: now });
      // docs/decisions.md §12: filing the report of an escalated case closes that case as reported
      if (to === "submitted")
        await closeReportedCase(tx, {
          clientId,
          reportId,
          officerId: actor.id,
          reference: String(changes.fiuReferenceNumber),
        });
      return { status: to };
    },
    { timeout: 30_000 },
  );
  if ("refused" in outcome) throw conflict(outcome.refused);
  return outcome;
}
