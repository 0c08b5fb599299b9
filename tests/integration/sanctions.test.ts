import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as onboard } from "@/app/v1/user/onboard/route";
import {
  DELETE as withdrawRoute,
  POST as markRoute,
} from "@/app/dashboard-api/users/[userId]/sanctions-false-matches/route";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import { SANCTIONS_FIXTURES, SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";
import { importSanctions } from "@/lib/sanctions/import-sanctions";
import { markSanctionsFalseMatch } from "@/lib/sanctions/mark-false-match";
import type { TSanctionsHit } from "@/lib/sanctions/score-context";
import { listSanctionsDatasets } from "@/lib/sanctions/list-sanctions-datasets";
import { getTransactionDetail } from "@/lib/transactions/get-transaction-detail";
import { call, createTestClient } from "@/tests/factories";

// Sanctions lists are shared by all clients: one database per file, imports in test order.
// The dashboard session is the signed-in user set here (next-auth reads no cookie in tests).
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

const dir = mkdtempSync(path.join(tmpdir(), "sanctions-"));
const OPENSANCTIONS = path.join(SANCTIONS_FIXTURES, "targets.simple.csv");
const SDN = path.join(SANCTIONS_FIXTURES, "sdn.csv");
const ALT = path.join(SANCTIONS_FIXTURES, "alt.csv");

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function entityIds(datasetId: string): Promise<string[]> {
  const rows = await prisma.sanctionsEntity.findMany({ where: { datasetId }, orderBy: { entityId: "asc" } });
  return rows.map((r) => r.entityId);
}

type TStoredEvaluation = { ruleId: string; triggered: boolean; error?: string; sanctions?: TSanctionsHit[] };

let client: { clientId: string; apiKey: string };
let reviewer: TSessionUser;
let officerId: string;

async function onboardUser(body: Record<string, unknown>) {
  const res = await call(onboard, {
    apiKey: client.apiKey,
    body: { timestamp: Date.now() - 60_000, ...body },
  });
  expect(res.status).toBe(200);
  const user = await prisma.user.findUniqueOrThrow({
    where: { clientId_id: { clientId: client.clientId, id: body.id as string } },
  });
  const decision = await prisma.decision.findUniqueOrThrow({ where: { id: user.decisionId! } });
  const rule = (decision.evaluated as TStoredEvaluation[]).find((e) => e.ruleId === "SANCTIONS-USER")!;
  return { body: res.body as { riskLevel: string; triggered: Array<{ id: string }> }, rule };
}

beforeAll(async () => {
  client = await createTestClient();
  await importRules({ clientId: client.clientId, rules: SANCTIONS_RULES, actor: "test" });
  const dashboardUser = await prisma.dashboardUser.create({
    data: {
      clientId: client.clientId,
      email: "rev@example.test",
      name: "Rev",
      role: "reviewer",
      passwordHash: "x",
    },
  });
  const officer = await prisma.dashboardUser.create({
    data: {
      clientId: client.clientId,
      email: "officer@example.test",
      name: "Off",
      role: "reporting_officer",
      passwordHash: "x",
    },
  });
  officerId = officer.id;
  reviewer = {
    id: dashboardUser.id,
    clientId: client.clientId,
    email: dashboardUser.email,
    name: "Rev",
    role: "reviewer",
  };
});

describe("sanctions import", () => {
  it("loads the OpenSanctions layout and the OFAC sdn.csv + alt.csv pair", async () => {
    expect(await importSanctions({ file: OPENSANCTIONS })).toEqual({
      dataset: "opensanctions",
      entities: 8,
      names: 25,
    });
    expect(await importSanctions({ file: SDN, altFile: ALT, format: "ofac" })).toEqual({
      dataset: "us_ofac_sdn",
      entities: 5,
      names: 11,
    });
    const kovalenko = await prisma.sanctionsEntity.findUniqueOrThrow({
      where: { datasetId_entityId: { datasetId: "us_ofac_sdn", entityId: "9100001" } },
    });
    expect(kovalenko).toMatchObject({
      name: "KOVALENKO, Dmitri Petrovich",
      schema: "individual",
      aliases: ["KOVALENKO, Dmitriy", "КОВАЛЕНКО, Дмитрий Петрович"],
      birthDates: ["1970-07-22"],
      programme: "RUSSIA-EO14024",
    });
    const rashidi = await prisma.sanctionsEntity.findUniqueOrThrow({
      where: { datasetId_entityId: { datasetId: "opensanctions", entityId: "NK-demo-rashidi" } },
    });
    expect(rashidi).toMatchObject({
      birthDates: ["1975", "1976"],
      countries: ["sy", "lb"],
      schema: "Person",
    });
    const datasets = await listSanctionsDatasets();
    expect(datasets.map((d) => [d.dataset, d.format, d.entities, d.names])).toEqual([
      ["opensanctions", "opensanctions", 8, 25],
      ["us_ofac_sdn", "ofac", 5, 11],
    ]);
  });

  it("a bad file fails naming the line and changes nothing", async () => {
    const before = await prisma.sanctionsDataset.findUniqueOrThrow({ where: { id: "opensanctions" } });
    const lines = readFileSync(OPENSANCTIONS, "utf8").split("\n");
    lines[4] = "NK-broken,Person,,,,,,,,,,,,,,";
    await expect(importSanctions({ file: writeFile("bad.csv", lines.join("\n")) })).rejects.toThrow(
      "bad.csv line 5: 'name' is empty for NK-broken",
    );
    const unclosed = `${lines.slice(0, 3).join("\n")}\nNK-x,Person,"Open quote,,,,,,,,,,,,,,\n`;
    await expect(importSanctions({ file: writeFile("unclosed.csv", unclosed) })).rejects.toThrow(
      "unclosed.csv line 4: a quoted field is not closed",
    );
    const alt = `9100001,1,"aka","SOMEONE","-0- "\n9999999,2,"aka","NOBODY","-0- "\n`;
    await expect(
      importSanctions({ file: SDN, altFile: writeFile("alt.csv", alt), format: "ofac" }),
    ).rejects.toThrow("alt.csv line 2: ent_num '9999999' is not in sdn.csv");
    expect(await prisma.sanctionsDataset.findUniqueOrThrow({ where: { id: "opensanctions" } })).toEqual(
      before,
    );
    expect(await entityIds("opensanctions")).toHaveLength(8);
    expect(await prisma.sanctionsEntity.count({ where: { datasetId: "us_ofac_sdn" } })).toBe(5);
    expect(
      (
        await prisma.sanctionsEntity.findUniqueOrThrow({
          where: { datasetId_entityId: { datasetId: "us_ofac_sdn", entityId: "9100001" } },
        })
      ).aliases,
    ).toEqual(["KOVALENKO, Dmitriy", "КОВАЛЕНКО, Дмитрий Петрович"]);
  });
});

describe("sanctions screening", () => {
  it("a matching onboard triggers SANCTIONS-USER with the entity on the decision", async () => {
    const { body, rule } = await onboardUser({
      id: "u-match",
      firstName: "Wiktor",
      lastName: "Morozenko",
      dateOfBirth: "1968-04-12",
    });
    expect(body.riskLevel).toBe("very_high");
    expect(body.triggered.map((t) => t.id)).toEqual(["SANCTIONS-USER"]);
    expect(rule.triggered).toBe(true);
    expect(rule.sanctions?.[0]).toMatchObject({
      screenedName: "Wiktor Morozenko",
      datasetId: "opensanctions",
      entityId: "NK-demo-morozenko",
      entityName: "Viktor Aleksandrovich Morozenko",
      programme: "Synthetic Russia-related designations (demo)",
    });
    expect(rule.sanctions![0]!.score).toBeGreaterThanOrEqual(0.9);
  });

  it("an unrelated name does not trigger; a listed name with another birth date is a possible match", async () => {
    const unrelated = await onboardUser({ id: "u-plain", firstName: "Maria", lastName: "Garcia" });
    expect(unrelated.body.riskLevel).toBe("low");
    expect(unrelated.rule).toMatchObject({ triggered: false });
    expect(unrelated.rule.error).toBeUndefined();
    const otherBirth = await onboardUser({
      id: "u-other-birth",
      firstName: "Viktor",
      lastName: "Morozenko",
      dateOfBirth: "1999-01-01",
    });
    expect(otherBirth.body.riskLevel).toBe("medium");
    expect(otherBirth.body.triggered.map((t) => t.id)).toEqual(["SANCTIONS-USER-POSSIBLE"]);
    // an alias, exactly, with another birth date
    const alias = await onboardUser({
      id: "u-alias-other-birth",
      firstName: "Viktor",
      lastName: "Morozenko",
      dateOfBirth: "1975-06-30",
    });
    expect(alias.body.triggered.map((t) => t.id)).toEqual(["SANCTIONS-USER-POSSIBLE"]);
  });

  it("a recipient matching an OFAC alias in Cyrillic triggers SANCTIONS-RECIPIENT; the page data shows it", async () => {
    const res = await call(postTransaction, {
      apiKey: client.apiKey,
      body: {
        id: "t-recipient",
        userId: "u-plain",
        status: "PENDING",
        currencyCode: "EUR",
        amount: 100,
        timestamp: Date.now() - 60_000,
        recipient: { firstName: "Дмитрий", lastName: "Коваленко" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.triggered.map((t: { id: string }) => t.id)).toEqual(["SANCTIONS-RECIPIENT"]);
    const detail = await getTransactionDetail({ clientId: client.clientId, transactionId: "t-recipient" });
    const fired = detail.decision!.fired.find((r) => r.ruleId === "SANCTIONS-RECIPIENT")!;
    expect(fired.sanctions[0]).toMatchObject({
      screenedName: "Дмитрий Коваленко",
      datasetId: "us_ofac_sdn",
      entityId: "9100001",
      entityName: "KOVALENKO, Dmitri Petrovich",
      programme: "RUSSIA-EO14024",
      score: 1,
    });
  });

  it("a false-match mark silences that user and entity only, and is audited", async () => {
    const mark = {
      params: { userId: "u-match" },
      body: {
        datasetId: "opensanctions",
        entityId: "NK-demo-morozenko",
        screenedName: "Wiktor Morozenko",
        note: "Different person: passport checked",
      },
    };
    session.current = null;
    expect((await call(markRoute, mark)).status).toBe(401);
    session.current = { user: { id: officerId } };
    expect((await call(markRoute, mark)).status).toBe(403);
    expect(await prisma.sanctionsFalseMatch.count()).toBe(0);
    session.current = { user: { id: reviewer.id } };
    const marked = await call(markRoute, mark);
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({
      created: true,
      falseMatch: { userId: "u-match", entityId: "NK-demo-morozenko" },
    });
    const audit = await prisma.auditLog.findMany({
      where: { clientId: client.clientId, action: "sanctions.false_match.marked" },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: reviewer.id, entityType: "user", entityId: "u-match" });
    expect(audit[0]!.details).toMatchObject({ datasetId: "opensanctions", entityId: "NK-demo-morozenko" });

    // the same user no longer matches that entity
    const again = await onboardUser({
      id: "u-match",
      firstName: "Wiktor",
      lastName: "Morozenko",
      dateOfBirth: "1968-04-12",
    });
    expect(again.body.riskLevel).toBe("low");
    expect(again.rule.triggered).toBe(false);
    // another user with the same name still does
    const other = await onboardUser({
      id: "u-match-2",
      firstName: "Wiktor",
      lastName: "Morozenko",
      dateOfBirth: "1968-04-12",
    });
    expect(other.rule.sanctions?.[0]?.entityId).toBe("NK-demo-morozenko");
    // and the marked user still matches other entities
    const renamed = await onboardUser({ id: "u-match", firstName: "Elena", lastName: "Dragunova" });
    expect(renamed.rule.sanctions?.[0]?.entityId).toBe("NK-demo-dragunova");
  });

  it("another client's user cannot be marked; unknown entities are 404", async () => {
    const other = await createTestClient();
    const outsider = { ...reviewer, clientId: other.clientId };
    await expect(
      markSanctionsFalseMatch({
        actor: outsider,
        userId: "u-match-2",
        datasetId: "opensanctions",
        entityId: "NK-demo-morozenko",
        screenedName: "x",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      markSanctionsFalseMatch({
        actor: reviewer,
        userId: "u-match-2",
        datasetId: "opensanctions",
        entityId: "nope",
        screenedName: "x",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await prisma.sanctionsFalseMatch.count({ where: { userId: "u-match-2" } })).toBe(0);
  });

  it("withdrawing the mark makes the entity score for the user again, audited", async () => {
    session.current = { user: { id: reviewer.id } };
    const withdrawn = await call(withdrawRoute, {
      method: "DELETE",
      params: { userId: "u-match" },
      query: { datasetId: "opensanctions", entityId: "NK-demo-morozenko" },
    });
    expect(withdrawn.status).toBe(200);
    expect(
      await prisma.auditLog.count({
        where: { clientId: client.clientId, action: "sanctions.false_match.removed" },
      }),
    ).toBe(1);
    const again = await onboardUser({
      id: "u-match",
      firstName: "Wiktor",
      lastName: "Morozenko",
      dateOfBirth: "1968-04-12",
    });
    expect(again.rule.sanctions?.[0]?.entityId).toBe("NK-demo-morozenko");
    const twice = await call(withdrawRoute, {
      method: "DELETE",
      params: { userId: "u-match" },
      query: { datasetId: "opensanctions", entityId: "NK-demo-morozenko" },
    });
    expect(twice.status).toBe(404);
  });

  it("a re-import replaces the dataset and the next screening sees it", async () => {
    const lines = readFileSync(OPENSANCTIONS, "utf8").trimEnd().split("\n");
    const without = lines.filter((l) => !l.startsWith("NK-demo-dragunova"));
    expect(
      await importSanctions({ file: writeFile("smaller.csv", without.join("\n") + "\n") }),
    ).toMatchObject({
      dataset: "opensanctions",
      entities: 7,
    });
    expect(await entityIds("opensanctions")).not.toContain("NK-demo-dragunova");
    expect(await prisma.sanctionsEntity.count({ where: { datasetId: "us_ofac_sdn" } })).toBe(5);
    const after = await onboardUser({ id: "u-dragunova", firstName: "Elena", lastName: "Dragunova" });
    expect(after.rule.triggered).toBe(false);
    expect(after.body.riskLevel).toBe("low");
  });
});
