import { beforeAll, describe, expect, it, vi } from "vitest";

// After an FIU's new schema: one list of problems (API = page = download), everything that no longer fits in one
// place, stale codes mapped in one step, and a profile save that a stale code elsewhere never blocks.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { POST: postReport } = await import("@/app/v1/report/route");
const { GET: getReportRoute } = await import("@/app/v1/reports/[reportId]/route");
const { GET: downloadRoute } = await import("@/app/api/reports/[reportId]/goaml/route");
const { PUT: putSchema } = await import("@/app/dashboard-api/settings/goaml-schema/route");
const { GET: getSettings, PUT: putSettings } = await import("@/app/dashboard-api/settings/route");
const { GET: getCodes, POST: postCodes } = await import("@/app/dashboard-api/settings/goaml-codes/route");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { prisma } = await import("@/lib/db");
const { seedDemoReports } = await import("@/lib/reports/demo-reports");
const { activeSchema, reportProblems } = await import("@/lib/reports/goaml-xml");
const { reportVerdict } = await import("@/lib/reports/report-verdict");
const { readReportProfile } = await import("@/lib/reports/schemas");
const { withReportingPerson } = await import("@/lib/reports/transition-report");
const { call, createTestClient } = await import("@/tests/factories");
const { enumerationVariant, GENERIC_XSD } = await import("@/tests/goaml-variants");

type TContent = import("@/lib/reports/content").TContent;

let clientId: string;
let apiKey: string;
let adminId: string;
let officerId: string;
const customer = "transactions[0].t_from_my_client.from_person";

const asAdmin = () => (session.current = { user: { id: adminId } });
const asOfficer = () => (session.current = { user: { id: officerId } });
const row = (id: string) => prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id } } });
const profileOf = async () =>
  readReportProfile((await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).reportingProfile);
const createDraft = (id: string, indicators = ["STR-STRUCT"]) =>
  call(postReport, {
    apiKey,
    body: {
      id,
      reportType: "STR",
      userId: "demo-report-subject",
      transactionIds: ["demo-report-tx-1"],
      indicators,
    },
  });

/** The three lists of one draft: the API's `incomplete`, the page's verdict (its items' paths), the download's 422. */
async function threeLists(reportId: string) {
  const api = await call(getReportRoute, { apiKey, params: { reportId } });
  expect(api.status).toBe(200);
  const stored = (await row(reportId)).content as TContent;
  const checked = await withReportingPerson(prisma, stored, { type: "dashboard", id: officerId });
  const verdict = await reportVerdict(stored, activeSchema(await profileOf()), checked);
  asOfficer();
  const download = await call(downloadRoute, { params: { reportId } });
  expect(download.status).toBe(422);
  return {
    api: api.body.incomplete as string[],
    page: verdict.items.flatMap((i) => i.paths),
    pageCount: verdict.items.length,
    download: (download.body.error.details as string[]).map((d) => d.slice(0, d.indexOf(": "))),
  };
}

async function uploadVariant() {
  asAdmin();
  const res = await call(putSchema, {
    method: "PUT",
    rawBody: enumerationVariant(GENERIC_XSD),
    headers: { "content-type": "application/xml" },
    query: { name: "National FIU goAML" },
    path: "/dashboard-api/settings/goaml-schema",
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  ({ clientId, apiKey } = await createTestClient({ features: ["reporting"] }));
  await seedDemoReports(clientId);
  const user = (role: "admin" | "reporting_officer", name: string) =>
    createDashboardUser({
      clientId,
      email: `${role}-${clientId}@test.dev`,
      password: "correct horse battery",
      role,
      name,
    });
  adminId = (await user("admin", "Ada Admin")).userId;
  officerId = (await user("reporting_officer", "Otto Officer")).userId;
});

describe("one list of problems", () => {
  it("is the same in the API, on the page and in the download's refusal: missing, invalid and stale codes", async () => {
    const created = await createDraft("switch-1");
    expect(created.status).toBe(200);
    // A code nobody can type in the editor, as an older import might have stored it.
    const content = (await row("switch-1")).content as any;
    content.transactions[0].t_from_my_client.from_person.nationality1 = "XX";
    await prisma.report.update({
      where: { clientId_id: { clientId, id: "switch-1" } },
      data: { content },
    });
    await uploadVariant();

    const lists = await threeLists("switch-1");
    expect(lists.page).toEqual(lists.api);
    expect(lists.download).toEqual(lists.api);
    expect(lists.api).toEqual(
      expect.arrayContaining([
        `${customer}.birthdate`, // missing
        `${customer}.nationality1`, // invalid
        `${customer}.phones[0].tph_contact_type`, // stale: contact type 1 of the previous schema
        "transactions[0].transmode_code", // stale: transmission mode B
        "report_indicators[0]", // stale: STR-STRUCT
      ]),
    );
    // The page shows each grouped field once; its items stand for exactly the API's paths.
    expect(lists.pageCount).toBeLessThanOrEqual(lists.api.length);
  });

  it("agrees for a draft created over the API after the switch too", async () => {
    const created = await createDraft("switch-2");
    expect(created.status).toBe(200);
    const lists = await threeLists("switch-2");
    expect(created.body.incomplete).toEqual(lists.api);
    expect(lists.page).toEqual(lists.api);
    expect(lists.download).toEqual(lists.api);
    // The profile's stale codes were not copied: they are missing (listed), never a silent stale value.
    const stale = reportProblems(
      (await row("switch-2")).content as TContent,
      activeSchema(await profileOf()).schema,
    ).filter((p) => p.kind === "invalid" && !p.path.startsWith("report_indicators"));
    expect(stale).toEqual([]);
    expect(lists.api).toContain(`${customer}.phones[0].tph_contact_type`);
  });
});

describe("after a schema change the admin is never trapped", () => {
  it("saves a profile that still holds stale codes; a new bad code blocks only its own field", async () => {
    asAdmin();
    const before = await call(getSettings, { path: "/dashboard-api/settings" });
    expect(before.status).toBe(200);
    const profile = before.body.reportingProfile;
    const saved = await call(putSettings, {
      method: "PUT",
      path: "/dashboard-api/settings",
      body: {
        reportingProfile: {
          ...profile,
          entityName: "شركة المدفوعات التجريبية",
          codes: { ...profile.codes, fundsCode: "NOPE" },
        },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.notSaved).toEqual([
      "/reportingProfile/codes/fundsCode: Funds code: NOPE is not a code of National FIU goAML; not saved",
    ]);
    const stored = await profileOf();
    expect(stored.entityName).toBe("شركة المدفوعات التجريبية");
    expect(stored.codes?.fundsCode).toBe("K");
    expect(stored.indicatorMapping?.["TX-LARGE-AMOUNT"]).toEqual(["STR-PROFILE"]);
  });

  it("lists every stale code with every place that uses it", async () => {
    asAdmin();
    const res = await call(getCodes, { path: "/dashboard-api/settings/goaml-codes" });
    expect(res.status).toBe(200);
    const codes = res.body.codes as { list: string; code: string; uses: any[]; options: any[] }[];
    const contact = codes.find((c) => c.list === "contact_type" && c.code === "1")!;
    expect(contact.options.map((o) => o.value)).toEqual(["PRV", "BUS"]);
    expect(contact.uses).toEqual(
      expect.arrayContaining([
        { kind: "profile", label: "Contact type (phones, addresses)" },
        { kind: "draft", reportId: "switch-1", path: `${customer}.phones[0].tph_contact_type` },
      ]),
    );
    const profileIndicator = codes.find((c) => c.code === "STR-PROFILE")!;
    expect(profileIndicator.list).toBe("report_indicator_type");
    expect(profileIndicator.uses).toEqual(
      expect.arrayContaining([
        { kind: "mapping", ruleId: "TX-LARGE-AMOUNT" },
        { kind: "mapping", ruleId: "TX-VERY-LARGE-AMOUNT" },
      ]),
    );
    expect(res.body.drafts.map((d: { reportId: string }) => d.reportId)).toEqual(
      expect.arrayContaining(["demo-report-1", "demo-report-2", "switch-1"]),
    );
  });

  it("refuses a mapping to a code of another list and changes nothing", async () => {
    asAdmin();
    const audits = await prisma.auditLog.count({ where: { clientId } });
    const res = await call(postCodes, {
      path: "/dashboard-api/settings/goaml-codes",
      body: { mappings: [{ list: "contact_type", from: "1", to: "CASH" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      "/mappings/0/to: CASH is not a contact_type code of National FIU goAML",
    ]);
    expect((await profileOf()).codes?.contactType).toBe("1");
    expect(await prisma.auditLog.count({ where: { clientId } })).toBe(audits);
  });

  it("maps every stale code in one audited step, after which a new draft has no lookup problem", async () => {
    asAdmin();
    const misfits = (await call(getCodes, { path: "/dashboard-api/settings/goaml-codes" })).body;
    const target: Record<string, string> = {
      contact_type: "PRV",
      conduction_type: "WIRE",
      funds_type: "ACC",
      report_indicator_type: "NAT-STRUCT",
    };
    const mappings = misfits.codes.map((c: { list: string; code: string }) => ({
      list: c.list,
      from: c.code,
      // the invalid nationality of one draft is dropped (left missing for its officer)
      to: target[c.list] ?? null,
    }));
    const audits = await prisma.auditLog.count({ where: { clientId, action: "client.goaml_codes_mapped" } });
    const res = await call(postCodes, { path: "/dashboard-api/settings/goaml-codes", body: { mappings } });
    expect(res.status).toBe(200);
    expect(res.body.codes).toEqual([]);
    expect(res.body.drafts).toEqual([]);
    expect(await prisma.auditLog.count({ where: { clientId, action: "client.goaml_codes_mapped" } })).toBe(
      audits + 1,
    );

    const profile = await profileOf();
    expect(profile.codes).toMatchObject({
      contactType: "PRV",
      fundsCode: "ACC",
      transmode: { default: "WIRE", bank: "WIRE", card: "WIRE" },
    });
    expect(profile.indicatorMapping?.["TX-VERY-LARGE-AMOUNT"]).toEqual(["NAT-STRUCT"]);
    const draft = await row("switch-1");
    expect(draft.indicators).toEqual(["NAT-STRUCT"]);
    expect((draft.content as any).transactions[0].t_from_my_client.from_person.nationality1).toBeNull();
    expect(draft.incomplete).toContain(`${customer}.nationality1`);
    const trail = await prisma.reportAuditEntry.findFirstOrThrow({
      where: { clientId, reportId: "switch-1" },
      orderBy: { seq: "desc" },
    });
    expect(trail).toMatchObject({ action: "fields_updated", actorId: adminId });

    const fresh = await createDraft("switch-3", ["NAT-STRUCT"]);
    expect(fresh.status).toBe(200);
    const problems = reportProblems(
      (await row("switch-3")).content as TContent,
      activeSchema(await profileOf()).schema,
    );
    expect(problems.filter((p) => p.kind === "invalid")).toEqual([]);
    expect(fresh.body.incomplete).toEqual(problems.map((p) => p.path));
    expect(fresh.body.incomplete).not.toContain(`${customer}.phones[0].tph_contact_type`);
  });
});
