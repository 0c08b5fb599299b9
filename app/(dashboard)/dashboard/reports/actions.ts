"use server";

import type { TActionState } from "@/components/reports/action-state";
import { requirePermission } from "@/lib/auth/permissions";
import { revalidatePath } from "next/cache";
import { ForbiddenError } from "@/lib/auth/session";
import { DomainError } from "@/lib/errors/domain-error";
import type { TActor } from "@/lib/reports/audit";
import { editReportStructure } from "@/lib/reports/edit-report-structure";
import { ZReportStatus } from "@/lib/reports/schemas";
import { z } from "zod";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { setReportIndicators } from "@/lib/reports/set-report-indicators";
import { transitionReport } from "@/lib/reports/transition-report";

// Only reporting officers change reports (docs/decisions.md §3); admins may look.
async function officer(): Promise<{ clientId: string; actor: TActor }> {
  const user = await requirePermission("reports.edit");
  return { clientId: user.clientId, actor: { type: "dashboard", id: user.id } };
}

async function run(reportId: string, message: string, fn: () => Promise<unknown>): Promise<TActionState> {
  try {
    await fn();
    revalidatePath(`/dashboard/reports/${reportId}`);
    return { ok: true, error: null, message };
  } catch (err) {
    if (err instanceof ForbiddenError)
      return { ok: false, error: "Only reporting officers can change reports.", message: null };
    if (err instanceof DomainError) {
      const fieldErrors: Record<string, string> = {};
      for (const d of err.details ?? []) {
        const m = /^\/([^:]+): (.*)$/.exec(d);
        if (m && m[1] !== "indicators" && m[1] !== "reportId") fieldErrors[m[1]!] = m[2]!;
      }
      const error =
        Object.keys(fieldErrors).length > 0
          ? "Nothing was saved: correct the values marked below."
          : (err.details?.map((d) => d.replace(/^\/\w*: /, "")).join("; ") ?? err.message);
      return { ok: false, error, message: null, fieldErrors };
    }
    throw err;
  }
}

/** One editor field: the value and every content path it is applied to (a grouped person, account or entity). */
export async function saveFieldsAction(
  reportId: string,
  entries: { paths: string[]; value: string }[],
): Promise<TActionState> {
  const fields: Record<string, string> = {};
  for (const { paths, value } of entries) for (const path of paths) fields[path] = String(value);
  return run(reportId, "Saved.", async () => {
    const { clientId, actor } = await officer();
    await setReportFields({ clientId, reportId, fields, actor });
  });
}

const ZPaths = z.array(z.string().max(2000)).min(1).max(500);
const ZStructureChange = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add"), parents: ZPaths, element: z.string().regex(/^[A-Za-z_][\w.-]{0,99}$/) }),
  z.object({ op: z.literal("remove"), paths: ZPaths }),
]);

/** Adds an element the schema allows to a part of the report (in every place a grouped part appears), or removes one. */
export async function editStructureAction(reportId: string, change: unknown): Promise<TActionState> {
  const parsed = ZStructureChange.safeParse(change);
  if (!parsed.success) return { ok: false, error: "That change is not one the editor makes.", message: null };
  const state = await run(reportId, parsed.data.op === "add" ? "Added." : "Removed.", async () => {
    const { clientId, actor } = await officer();
    await editReportStructure({ clientId, reportId, change: parsed.data, actor });
  });
  // A refused change is about the part, not a typed value: say why in the sentence itself.
  const reasons = Object.values(state.fieldErrors ?? {});
  return reasons.length ? { ok: false, error: [...new Set(reasons)].join("; "), message: null } : state;
}

export async function saveIndicatorsAction(
  reportId: string,
  _prev: TActionState,
  form: FormData,
): Promise<TActionState> {
  const listed = form.getAll("indicator").filter((v): v is string => typeof v === "string");
  return run(reportId, "Indicators saved.", async () => {
    const { clientId, actor } = await officer();
    await setReportIndicators({ clientId, reportId, indicators: listed, actor });
  });
}

export async function transitionAction(
  reportId: string,
  _prev: TActionState,
  form: FormData,
): Promise<TActionState> {
  const to = ZReportStatus.safeParse(form.get("to"));
  if (!to.success) return { ok: false, error: "Unknown status.", message: null };
  return run(reportId, `Report moved to ${to.data.replace("_", " ")}.`, async () => {
    const { clientId, actor } = await officer();
    await transitionReport({
      clientId,
      reportId,
      to: to.data,
      actor,
      fiuReferenceNumber: String(form.get("fiuReferenceNumber") ?? "") || undefined,
      comment: String(form.get("comment") ?? "") || undefined,
      warningsNote: String(form.get("warningsNote") ?? "") || undefined,
    });
  });
}
