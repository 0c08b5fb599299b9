"use server";

import { revalidatePath } from "next/cache";
import { ForbiddenError, requireRole } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import type { TActor } from "@/lib/reports/audit";
import { ZReportStatus } from "@/lib/reports/schemas";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { setReportIndicators } from "@/lib/reports/set-report-indicators";
import { transitionReport } from "@/lib/reports/transition-report";

export type TActionState = { ok: boolean; error: string | null; message: string | null };

// Only reporting officers change reports (decisions §3); admins may look.
async function officer(): Promise<{ clientId: string; actor: TActor }> {
  const user = await requireRole(["reporting_officer"]);
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
    if (err instanceof ApiError)
      return { ok: false, error: err.details?.[0]?.replace(/^\/\w*: /, "") ?? err.message, message: null };
    throw err;
  }
}

export async function saveFieldsAction(
  reportId: string,
  _prev: TActionState,
  form: FormData,
): Promise<TActionState> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries())
    if (name.startsWith("field:") && typeof value === "string" && value.trim()) fields[name.slice(6)] = value;
  return run(reportId, "Fields saved.", async () => {
    const { clientId, actor } = await officer();
    await setReportFields({ clientId, reportId, fields, actor });
  });
}

export async function saveIndicatorsAction(
  reportId: string,
  _prev: TActionState,
  form: FormData,
): Promise<TActionState> {
  const listed = form.getAll("indicator").filter((v): v is string => typeof v === "string");
  const free = String(form.get("freeIndicators") ?? "")
    .split(/[,\s]+/)
    .filter(Boolean);
  return run(reportId, "Indicators saved.", async () => {
    const { clientId, actor } = await officer();
    await setReportIndicators({ clientId, reportId, indicators: [...listed, ...free], actor });
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
    });
  });
}
