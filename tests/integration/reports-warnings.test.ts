import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { verifyAuditChain } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { seedDemoReports } from "@/lib/reports/demo-reports";
import { exportGoamlXml } from "@/lib/reports/goaml-xml";
import { readReportProfile } from "@/lib/reports/schemas";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { transitionReport } from "@/lib/reports/transition-report";
import { reportWarnings } from "@/lib/reports/warnings";
import { createTestClient } from "@/tests/factories";

let clientId: string;
const olga = { type: "dashboard" as const, id: "officer-olga" };
const omar = { type: "dashboard" as const, id: "officer-omar" };
const reportId = "demo-report-1";
const AMOUNT = "transactions[0].amount_local";
const BIRTH = "transactions[0].t_from_my_client.from_person.birthdate";
const WHEN = "transactions[0].date_transaction";

const row = () => prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id: reportId } } });
const confirmations = () =>
  prisma.reportAuditEntry.findMany({
    where: { clientId, reportId, action: "warnings_confirmed" },
    orderBy: { seq: "asc" },
  });
const day = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10) + "T10:00:00";

beforeAll(async () => {
  ({ clientId } = await createTestClient({ features: ["reporting"] }));
  await seedDemoReports(clientId);
  await setReportFields({
    clientId,
    reportId,
    actor: olga,
    fields: {
      "transactions[0].t_from_my_client.from_person.birthdate": "1985-06-15T00:00:00",
      "transactions[0].t_from_my_client.from_person.occupation": "Trader",
      "transactions[1].t_from_my_client.from_person.birthdate": "1985-06-15T00:00:00",
      "transactions[1].t_from_my_client.from_person.occupation": "Trader",
      // Tomorrow: a submission date in the future is a warning of its own, and filing moves it to today.
      submission_date: day(1),
    },
  });
});

describe("values a regulator would question", () => {
  it("warns, by path and in words, without touching what is incomplete", async () => {
    const before = await row();
    expect(before.incomplete).toEqual([]);
    expect(reportWarnings(before.content as TContent, new Date())).toEqual([
      { path: "submission_date", message: `The submission date ${day(1).slice(0, 10)} is in the future` },
    ]);
    await setReportFields({
      clientId,
      reportId,
      actor: olga,
      fields: { [AMOUNT]: "-5", [BIRTH]: "2090-01-01", [WHEN]: day(3) },
    });
    const after = await row();
    expect(after.incomplete).toEqual([]);
    const warnings = reportWarnings(after.content as TContent, new Date());
    expect(warnings.map((w) => w.path).sort()).toEqual([AMOUNT, BIRTH, WHEN, "submission_date"].sort());
    expect(Object.fromEntries(warnings.map((w) => [w.path, w.message]))).toEqual({
      [AMOUNT]: "The amount is negative (-5): an FIU expects a positive amount",
      [BIRTH]: "The birth date 2090-01-01 is in the future",
      [WHEN]: `The transaction date ${day(3).slice(0, 10)} is after the report's submission date ${day(1).slice(0, 10)}`,
      submission_date: `The submission date ${day(1).slice(0, 10)} is in the future`,
    });
  });

  it("refuses review without a note, naming every warning, and records the confirmation with one", async () => {
    for (const note of [undefined, "   "]) {
      const refusal = transitionReport({
        clientId,
        reportId,
        to: "pending_review",
        actor: olga,
        warningsNote: note,
      });
      await expect(refusal).rejects.toThrow(/^4 warnings to confirm/);
      await expect(refusal).rejects.toThrow(
        new RegExp(`${AMOUNT.replace(/[[\].]/g, "\\$&")}: The amount is negative`),
      );
    }
    expect((await row()).status).toBe("draft");
    expect(await confirmations()).toHaveLength(0);

    await transitionReport({
      clientId,
      reportId,
      to: "pending_review",
      actor: olga,
      warningsNote:
        "Refund reversal booked as negative by the core system; customer's date of birth per passport scan pending",
    });
    expect((await row()).status).toBe("pending_review");
    const [entry] = await confirmations();
    expect(entry).toMatchObject({ actorType: "dashboard", actorId: "officer-olga" });
    expect((entry!.changes as any).note).toMatch(/^Refund reversal/);
    expect((entry!.changes as any).for).toBe("pending_review");
    expect((entry!.changes as any).warnings.map((w: any) => w.path).sort()).toEqual(
      [AMOUNT, BIRTH, WHEN, "submission_date"].sort(),
    );
    expect(await verifyAuditChain({ clientId, reportId })).toMatchObject({ valid: true });
  });

  it("asks again for a warned value changed after its confirmation, and only for that one", async () => {
    await transitionReport({ clientId, reportId, to: "draft", actor: olga });
    await setReportFields({ clientId, reportId, actor: olga, fields: { [AMOUNT]: "0" } });
    const refusal = transitionReport({ clientId, reportId, to: "pending_review", actor: olga });
    await expect(refusal).rejects.toThrow(/^1 warning to confirm.*amount_local: The amount is zero \(0\)/);
    await transitionReport({
      clientId,
      reportId,
      to: "pending_review",
      actor: olga,
      warningsNote: "Fee waiver, zero on purpose",
    });
    const all = await confirmations();
    expect(all).toHaveLength(2);
    expect((all[1]!.changes as any).warnings).toEqual([
      { path: AMOUNT, message: "The amount is zero (0): an FIU expects a positive amount" },
    ]);
  });

  it("files once the filing officer confirms what the filing date changes, and the download is unchanged", async () => {
    // Filing makes today the submission date: the transaction three days ahead is now after another date, in
    // other words than those confirmed, so the filing officer confirms it; the amount and birth date stand confirmed.
    const file = (warningsNote?: string) =>
      transitionReport({
        clientId,
        reportId,
        to: "submitted",
        actor: omar,
        fiuReferenceNumber: "FIU-W-1",
        warningsNote,
      });
    await expect(file()).rejects.toThrow(
      `1 warning to confirm: write a note saying why the report is right as it is (${WHEN}: The transaction date ${day(3).slice(0, 10)} is after the report's submission date ${day(0).slice(0, 10)})`,
    );
    expect((await row()).status).toBe("pending_review");
    await expect(file("Value-dated forward by the bank, confirmed by phone")).resolves.toEqual({
      status: "submitted",
    });
    const last = (await confirmations()).at(-1)!;
    expect(last).toMatchObject({ actorId: "officer-omar" });
    expect(last.changes).toMatchObject({
      for: "submitted",
      note: "Value-dated forward by the bank, confirmed by phone",
    });
    const filed = await row();
    expect(filed.status).toBe("submitted");
    expect(filed.incomplete).toEqual([]);
    const profile = readReportProfile(
      (await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).reportingProfile,
    );
    const xml = await exportGoamlXml(filed.content as TContent, profile);
    expect(xml.ok).toBe(true);
    if (xml.ok) expect(xml.xml).toContain("<amount_local>0</amount_local>");
    expect(await verifyAuditChain({ clientId, reportId })).toMatchObject({ valid: true });
  });
});
