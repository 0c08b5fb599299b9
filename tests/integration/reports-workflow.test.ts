import { beforeAll, describe, expect, it } from "vitest";
import { GET as getReportRoute } from "@/app/v1/reports/[reportId]/route";
import { prisma } from "@/lib/db";
import { verifyAuditChain } from "@/lib/reports/audit";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { createReport } from "@/lib/reports/create-report";
import { DEMO_REPORTING_PROFILE, seedDemoReports } from "@/lib/reports/demo-reports";
import { ZCreateReport } from "@/lib/reports/schemas";
import { getReport } from "@/lib/reports/get-report";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { setReportIndicators } from "@/lib/reports/set-report-indicators";
import { FOUR_EYES_MESSAGE, transitionReport } from "@/lib/reports/transition-report";
import { call, createTestClient } from "@/tests/factories";

let clientId: string;
let apiKey: string;
const olga = { type: "dashboard" as const, id: "officer-olga" };
const omar = { type: "dashboard" as const, id: "officer-omar" };
const reportId = "demo-report-1";

const row = () => prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id: reportId } } });
const fill = () =>
  setReportFields({
    clientId,
    reportId,
    actor: olga,
    fields: {
      "transactions[0].t_from_my_client.from_person.birthdate": "1985-06-15T00:00:00",
      "transactions[0].t_from_my_client.from_person.occupation": "Trader",
      "transactions[1].t_from_my_client.from_person.birthdate": "1985-06-15T00:00:00",
      "transactions[1].t_from_my_client.from_person.occupation": "Trader",
    },
  });

beforeAll(async () => {
  ({ clientId, apiKey } = await createTestClient({ features: ["reporting"] }));
  await seedDemoReports(clientId);
});

describe("report review workflow", () => {
  it("records edits of fields and indicators with what changed", async () => {
    await fill();
    await setReportIndicators({
      clientId,
      reportId,
      indicators: ["STR-STRUCT", "STR-RAPID", " STR-MULE ", "STR-RAPID"],
      actor: olga,
    });
    // Only codes of the active schema's indicator list.
    await expect(
      setReportIndicators({ clientId, reportId, indicators: ["STR-STRUCT", "FREE-1"], actor: olga }),
    ).rejects.toThrow("Unknown indicator codes");
    const r = await row();
    expect(r.indicators).toEqual(["STR-STRUCT", "STR-RAPID", "STR-MULE"]);
    expect((r.content as any).report_indicators).toEqual(r.indicators);
    expect(r.incomplete).toEqual([]);
    expect(r.updatedById).toBe("officer-olga");
    const audit = await prisma.reportAuditEntry.findMany({
      where: { clientId, reportId },
      orderBy: { seq: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual(["created", "fields_updated", "indicators_updated"]);
    expect(audit[1]).toMatchObject({ actorType: "dashboard", actorId: "officer-olga" });
    expect(
      (audit[1]!.changes as any).fields["transactions[0].t_from_my_client.from_person.occupation"],
    ).toEqual({ from: null, to: "Trader" });
    expect(audit[2]!.changes).toEqual({ from: ["STR-STRUCT"], to: ["STR-STRUCT", "STR-RAPID", "STR-MULE"] });
    await setReportIndicators({ clientId, reportId, indicators: ["STR-STRUCT", "STR-RAPID"], actor: olga });
  });

  it("refuses to set a path that is not a field of the report", async () => {
    await expect(
      setReportFields({ clientId, reportId, actor: olga, fields: { "transactions[9].x": "1" } }),
    ).rejects.toThrow(/not a field/);
    await expect(
      setReportFields({ clientId, reportId, actor: olga, fields: { transactions: "1" } }),
    ).rejects.toThrow(/not a field/);
  });

  it("refuses transitions the workflow does not have", async () => {
    await expect(
      transitionReport({ clientId, reportId, to: "submitted", actor: olga, fiuReferenceNumber: "X" }),
    ).rejects.toThrow("A draft report cannot move to submitted");
  });

  it("sends for review, then only another officer can file, with an FIU reference", async () => {
    await transitionReport({ clientId, reportId, to: "pending_review", actor: olga });
    expect((await row()).preparedById).toBe("officer-olga");
    // Frozen while under review.
    await expect(setReportIndicators({ clientId, reportId, indicators: [], actor: omar })).rejects.toThrow(
      /cannot be edited/,
    );
    await expect(
      transitionReport({ clientId, reportId, to: "submitted", actor: olga, fiuReferenceNumber: "FIU-1" }),
    ).rejects.toThrow(FOUR_EYES_MESSAGE);
    await expect(transitionReport({ clientId, reportId, to: "submitted", actor: omar })).rejects.toThrow(
      /FIU reference number is required/,
    );
    // one admin made both officer accounts: four eyes, one person
    for (const officer of ["officer-olga", "officer-omar"])
      await prisma.auditLog.create({
        data: {
          clientId,
          actorType: "dashboard_user",
          actorId: "admin-ada",
          action: "dashboard_user.created",
          entityType: "dashboard_user",
          entityId: officer,
          details: { role: "reporting_officer" },
        },
      });
    const before = Date.now();
    await transitionReport({
      clientId,
      reportId,
      to: "submitted",
      actor: omar,
      fiuReferenceNumber: "FIU-2026-0042",
    });
    const filed = await prisma.reportAuditEntry.findFirstOrThrow({
      where: { clientId, reportId, action: "status_changed" },
      orderBy: { seq: "desc" },
    });
    expect(filed.changes).toMatchObject({
      preparedById: "officer-olga",
      accountsCreatedBy: { "officer-olga": "admin-ada", "officer-omar": "admin-ada" },
    });
    const r = await row();
    expect(r).toMatchObject({
      status: "submitted",
      fiuReferenceNumber: "FIU-2026-0042",
      submittedById: "officer-omar",
      preparedById: "officer-olga",
    });
    expect(r.submittedAt!.getTime()).toBeGreaterThanOrEqual(before);
    const api = await call(getReportRoute, { apiKey, params: { reportId } });
    expect(api.body).toMatchObject({
      status: "submitted",
      fiuReferenceNumber: "FIU-2026-0042",
      submittedById: "officer-omar",
      requiresReview: false,
    });
  });

  it("refuses to send a report for review while its file does not validate, naming what is missing", async () => {
    await expect(
      transitionReport({ clientId, reportId: "demo-report-2", to: "pending_review", actor: olga }),
    ).rejects.toThrow(
      /does not validate against .*: Grace Wanjiru · National ID number is missing; .*Occupation is missing/,
    );
    expect(
      (await prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "demo-report-2" } } }))
        .status,
    ).toBe("draft");
  });

  it("goes through rejected → amended → pending_review → submitted again, or archived", async () => {
    await transitionReport({
      clientId,
      reportId,
      to: "resubmission_required",
      actor: omar,
      comment: "FIU asked for the recipient's address",
    });
    await transitionReport({ clientId, reportId, to: "amended", actor: omar });
    await setReportIndicators({ clientId, reportId, indicators: ["STR-STRUCT"], actor: omar });
    await transitionReport({ clientId, reportId, to: "pending_review", actor: omar });
    await expect(
      transitionReport({ clientId, reportId, to: "submitted", actor: omar, fiuReferenceNumber: "FIU-3" }),
    ).rejects.toThrow(FOUR_EYES_MESSAGE);
    await transitionReport({
      clientId,
      reportId,
      to: "submitted",
      actor: olga,
      fiuReferenceNumber: "FIU-2026-0043",
    });
    await transitionReport({ clientId, reportId, to: "archived", actor: olga });
    await expect(transitionReport({ clientId, reportId, to: "draft", actor: olga })).rejects.toThrow(
      /archived report cannot move/,
    );
  });
});

describe("audit trail", () => {
  it("records every read, API and dashboard, and the chain verifies", async () => {
    const count = await prisma.reportAuditEntry.count({ where: { clientId, reportId } });
    await getReport({ clientId, reportId, include: ["content"], actor: olga, via: "dashboard" });
    await call(getReportRoute, { apiKey, params: { reportId }, query: { include: "audit" } });
    const entries = await prisma.reportAuditEntry.findMany({
      where: { clientId, reportId },
      orderBy: { seq: "asc" },
    });
    expect(entries).toHaveLength(count + 2);
    expect(entries.at(-2)).toMatchObject({
      action: "read",
      actorType: "dashboard",
      actorId: "officer-olga",
      changes: { via: "dashboard", include: ["content"] },
    });
    expect(entries.at(-1)).toMatchObject({ action: "read", actorType: "api" });
    entries.forEach((e, i) => expect(e.seq).toBe(i + 1));
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.prevHash).toBe(entries[i - 1]!.hash);
    expect(await verifyAuditChain({ clientId, reportId })).toEqual({
      valid: true,
      entries: entries.length,
      brokenAt: null,
      reason: null,
    });
  });

  it("detects a stored audit row altered with SQL", async () => {
    await prisma.$executeRaw`UPDATE report_audit_entries SET changes = '{"from":["STR-STRUCT"],"to":[]}'::jsonb
      WHERE "clientId" = ${clientId} AND "reportId" = ${reportId} AND action = 'indicators_updated' AND seq = 3`;
    const result = await verifyAuditChain({ clientId, reportId });
    expect(result).toMatchObject({ valid: false, brokenAt: 3, reason: "Entry 3 was altered" });
  });

  it("detects an altered actor, a re-hashed row whose successor no longer links, and a deleted row", async () => {
    const other = "demo-report-2";
    await getReport({ clientId, reportId: other, actor: olga, via: "dashboard" });
    await getReport({ clientId, reportId: other, actor: olga, via: "dashboard" });
    expect((await verifyAuditChain({ clientId, reportId: other })).valid).toBe(true);

    await prisma.$executeRaw`UPDATE report_audit_entries SET "actorId" = 'someone-else' WHERE "clientId" = ${clientId} AND "reportId" = ${other} AND seq = 2`;
    expect(await verifyAuditChain({ clientId, reportId: other })).toMatchObject({
      valid: false,
      brokenAt: 2,
    });

    // A forger who also recomputes that row's hash still breaks the next link.
    const rows = await prisma.reportAuditEntry.findMany({
      where: { clientId, reportId: other },
      orderBy: { seq: "asc" },
    });
    const { entryHash } = await import("@/lib/reports/audit");
    const forged = entryHash(rows[1]!, rows[1]!.prevHash);
    await prisma.$executeRaw`UPDATE report_audit_entries SET hash = ${forged} WHERE "clientId" = ${clientId} AND "reportId" = ${other} AND seq = 2`;
    expect(await verifyAuditChain({ clientId, reportId: other })).toMatchObject({
      valid: false,
      brokenAt: 3,
      reason: "Entry 3 does not link to the previous entry",
    });

    await prisma.$executeRaw`DELETE FROM report_audit_entries WHERE "clientId" = ${clientId} AND "reportId" = ${other} AND seq = 2`;
    expect(await verifyAuditChain({ clientId, reportId: other })).toMatchObject({
      valid: false,
      brokenAt: 3,
      reason: "Entry 2 is missing",
    });
  });
});

describe("reporting person", () => {
  it("is the filing officer when the client's profile names none", async () => {
    const { clientId: cid } = await createTestClient({
      features: ["reporting"],
      name: "No reporting person",
    });
    await seedDemoReports(cid);
    const seeded = (await prisma.client.findUniqueOrThrow({ where: { id: cid } })).reportingProfile as object;
    const { reportingPerson: _none, ...profile } = { ...DEMO_REPORTING_PROFILE, ...seeded };
    await prisma.client.update({ where: { id: cid }, data: { reportingProfile: profile } });
    const preparer = await createDashboardUser({
      clientId: cid,
      email: `prep-${cid}@test.dev`,
      password: "password-123456",
      role: "reporting_officer",
      name: "Pat Preparer",
    });
    const filer = await createDashboardUser({
      clientId: cid,
      email: `filer-${cid}@test.dev`,
      password: "password-123456",
      role: "reporting_officer",
      name: "Fiona Mwangi Filer",
    });
    const client = await prisma.client.findUniqueOrThrow({ where: { id: cid } });
    const created = await createReport({
      client: {
        id: cid,
        name: client.name,
        type: client.type,
        features: new Set(client.features),
        actions: client.actions,
        apiKeyId: "test",
      },
      body: ZCreateReport.parse({
        reportType: "STR",
        userId: "demo-report-subject",
        transactionIds: ["demo-report-tx-1"],
        indicators: ["STR-STRUCT"],
      }),
    });
    expect(created.incomplete).toEqual(
      expect.arrayContaining(["reporting_person.first_name", "reporting_person.last_name"]),
    );
    const others = created.incomplete.filter((p) => !p.startsWith("reporting_person"));
    const prep = { type: "dashboard" as const, id: preparer.userId };
    await setReportFields({
      clientId: cid,
      reportId: created.reportId,
      actor: prep,
      fields: Object.fromEntries(
        others.map((p) => [p, p.endsWith("birthdate") ? "1985-06-15T00:00:00" : "Trader"]),
      ),
    });
    await transitionReport({ clientId: cid, reportId: created.reportId, to: "pending_review", actor: prep });
    await transitionReport({
      clientId: cid,
      reportId: created.reportId,
      to: "submitted",
      actor: { type: "dashboard", id: filer.userId },
      fiuReferenceNumber: "FIU-RP-1",
    });
    const r = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId: cid, id: created.reportId } },
    });
    expect((r.content as any).reporting_person).toMatchObject({
      first_name: "Fiona",
      last_name: "Mwangi Filer",
      email: `filer-${cid}@test.dev`,
    });
    expect(r.incomplete).toEqual([]);
  });
});
