import { beforeAll, describe, expect, it } from "vitest";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { createDashboardApiKey, listApiKeys, revokeDashboardApiKey } from "@/lib/admin/api-keys";
import { changeRuleStatus } from "@/lib/admin/change-rule-status";
import { getRuleDetail } from "@/lib/admin/get-rule-detail";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";
import { saveRule } from "@/lib/admin/save-rule";
import { getClientSettings, updateClientSettings } from "@/lib/admin/settings";
import { createTeamMember, disableTeamMember, listTeam } from "@/lib/admin/team";
import { validateRuleDraft } from "@/lib/admin/validate-rule-draft";
import {
  createWebhookSubscription,
  disableWebhookSubscription,
  listWebhookDeliveries,
  redeliverDelivery,
} from "@/lib/admin/webhooks";
import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { runBacktestBatch } from "@/lib/backtest/run-backtest-batch";
import { prisma } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import { RuleImportError } from "@/lib/rules/validate-rule";
import { call, createTestClient } from "@/tests/factories";

// Admin screens' domain functions, called as the server routes call them: (sessionUser, input). Roles are
// checked by the route wrapper, not here: tests/integration/dashboard-permissions.test.ts.

type TClient = { clientId: string; apiKey: string };
let a: TClient;
let b: TClient;
let admin: TSessionUser;
let reviewer: TSessionUser;
let officer: TSessionUser;
let adminB: TSessionUser;

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 5, 1, 12);

const draft = (over: Record<string, unknown> = {}) => ({
  id: "BIG-REPEAT",
  name: "Big amount, repeated",
  subject: "transaction",
  status: "draft",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  reason: "Two or more big payments within a day",
  condition: "transaction.amount >= 1000 && aggregates.big24h >= 2",
  aggregates: {
    big24h: {
      function: "count",
      over: "transaction",
      groupBy: "userId",
      window: "24h",
      where: "transaction.amount >= 1000",
    },
  },
  ...over,
});

async function rejected(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function expectNotFound(promise: Promise<unknown>) {
  const err = await rejected(promise);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(404);
}

async function screen(client: TClient, id: string, amount: number, at: number, userId = "u-1") {
  const res = await call(postTransaction, {
    apiKey: client.apiKey,
    body: { id, userId, status: "PENDING", currencyCode: "EUR", amount, timestamp: at },
  });
  expect(res.status).toBe(200);
  return res.body as { triggered: Array<{ id: string }> };
}

beforeAll(async () => {
  a = await createTestClient({ type: "consumer" });
  b = await createTestClient({ type: "business" });
  const user = (clientId: string, role: TSessionUser["role"], email: string): TSessionUser => ({
    id: `du-${email}`,
    clientId,
    email,
    name: null,
    role,
  });
  admin = user(a.clientId, "admin", "admin@a.test");
  reviewer = user(a.clientId, "reviewer", "rev@a.test");
  officer = user(a.clientId, "reporting_officer", "off@a.test");
  adminB = user(b.clientId, "admin", "admin@b.test");
});

describe("rules", () => {
  it("shows the engine's messages for a bad condition, field by field", async () => {
    const unknownVar = await validateRuleDraft(reviewer, {
      definition: draft({ condition: "transaction.amount > 1 && foo == 2" }),
    });
    expect(unknownVar.valid).toBe(false);
    expect(unknownVar.errors[0]).toMatchObject({ field: "condition" });
    expect(unknownVar.errors[0]!.message).toMatch(/Unknown variable/);

    const syntax = await validateRuleDraft(admin, {
      definition: draft({ condition: "transaction.amount >" }),
    });
    expect(syntax.errors.map((e) => e.field)).toEqual(["condition"]);

    const undefinedAgg = await validateRuleDraft(admin, {
      definition: draft({ condition: "aggregates.nope > 1" }),
    });
    expect(undefinedAgg.errors).toEqual([
      { field: "condition", message: "aggregates.nope is not defined by the rule" },
    ]);

    const badWhere = await validateRuleDraft(admin, {
      definition: draft({
        aggregates: {
          big24h: { function: "count", over: "transaction", groupBy: "userId", window: "24h", where: "(" },
        },
      }),
    });
    expect(badWhere.errors[0]!.field).toBe("aggregates.big24h.where");

    expect(await validateRuleDraft(admin, { definition: draft() })).toEqual({ valid: true, errors: [] });
  });

  it("saving creates the rule, and each edit a new version with an audit row", async () => {
    const first = await saveRule(reviewer, { definition: draft() });
    expect(first).toMatchObject({ ruleId: "BIG-REPEAT", version: 1, status: "draft" });
    const second = await saveRule(reviewer, {
      ruleId: "BIG-REPEAT",
      definition: draft({ reason: "edited", status: "dry-run" }),
    });
    expect(second.version).toBe(2);

    const detail = await getRuleDetail(officer, { ruleId: "BIG-REPEAT" });
    expect(detail.versions.map((v) => [v.version, v.definition.reason, v.definition.status])).toEqual([
      [2, "edited", "dry-run"],
      [1, "Two or more big payments within a day", "draft"],
    ]);
    const audit = await prisma.auditLog.findMany({
      where: { clientId: a.clientId, entityType: "rule", entityId: "BIG-REPEAT" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((r) => [r.action, r.actorId])).toEqual([
      ["rule.created", reviewer.id],
      ["rule.updated", reviewer.id],
    ]);

    // a new rule may not take an existing id; an invalid edit writes nothing
    const dup = await rejected(saveRule(admin, { definition: draft() }));
    expect((dup as ApiError).details).toEqual(["/id: A rule with id BIG-REPEAT already exists"]);
    const bad = await rejected(
      saveRule(admin, { ruleId: "BIG-REPEAT", definition: draft({ condition: "nope ==" }) }),
    );
    expect(bad).toBeInstanceOf(RuleImportError);
    expect((await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).currentVersion).toBe(2);
  });

  it("publishing is admin-only; reporting officers cannot write rules", async () => {
    expect(
      await rejected(changeRuleStatus(reviewer, { ruleId: "BIG-REPEAT", status: "active" })),
    ).toBeInstanceOf(ForbiddenError);
    expect(
      await rejected(saveRule(reviewer, { ruleId: "BIG-REPEAT", definition: draft({ status: "active" }) })),
    ).toBeInstanceOf(ForbiddenError);
    expect(await rejected(saveRule(officer, { ruleId: "BIG-REPEAT", definition: draft() }))).toBeInstanceOf(
      ForbiddenError,
    );
    expect((await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).status).toBe("dry-run");

    await saveRule(admin, {
      definition: draft({
        id: "LIVE",
        condition: "transaction.amount > 1000000",
        aggregates: undefined,
        status: "active",
      }),
    });
    // an active rule is the admin's too: a reviewer cannot edit or unpublish it
    expect(
      await rejected(
        saveRule(reviewer, {
          ruleId: "LIVE",
          definition: draft({ id: "LIVE", aggregates: undefined, condition: "true" }),
        }),
      ),
    ).toBeInstanceOf(ForbiddenError);
    expect(await rejected(changeRuleStatus(reviewer, { ruleId: "LIVE", status: "inactive" }))).toBeInstanceOf(
      ForbiddenError,
    );
  });

  it("backtests a rule version over stored history with aggregates as of each transaction", async () => {
    // u-1: big, small, big (2 big within 24h -> fires on the third), then big 3 days later (alone -> no)
    await screen(a, "h1", 1500, BASE);
    await screen(a, "h2", 20, BASE + HOUR);
    await screen(a, "h3", 2500, BASE + 2 * HOUR);
    await screen(a, "h4", 3000, BASE + 72 * HOUR);
    // u-2: two big ones 30 h apart: never two in a window
    await screen(a, "h5", 5000, BASE, "u-2");
    await screen(a, "h6", 5000, BASE + 30 * HOUR, "u-2");
    // outside the chosen period
    await screen(a, "h7", 9000, BASE + 2 * HOUR + 1, "u-1");

    const hits: string[] = [];
    let cursor: string | undefined;
    let total: number | null = null;
    let processed = 0;
    let batches = 0;
    do {
      const batch = await runBacktestBatch(reviewer, {
        ruleId: "BIG-REPEAT",
        from: BASE,
        to: BASE + 100 * HOUR,
        cursor,
        batchSize: 2,
      });
      if (batches === 0) total = batch.total;
      batches++;
      processed += batch.processed;
      hits.push(...batch.hits.map((h) => h.transactionId));
      expect(batch.errors).toBe(0);
      cursor = batch.nextCursor ?? undefined;
    } while (cursor);
    expect(total).toBe(7);
    expect(processed).toBe(7);
    expect(batches).toBeGreaterThanOrEqual(4);
    // h7 (2 h after BASE, within 24h of h1/h3) counts h1, h3, h7: fires; h3 sees h1+h3: fires
    expect(hits.sort()).toEqual(["h3", "h7"]);

    const narrow = await runBacktestBatch(admin, {
      ruleId: "BIG-REPEAT",
      from: BASE,
      to: BASE + 2 * HOUR,
      batchSize: 100,
    });
    expect(narrow.total).toBe(4);
    expect(narrow.hits.map((h) => [h.transactionId, h.amount])).toEqual([["h3", "2500"]]);

    // the earlier version (draft v1) can be backtested too
    const v1 = (await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).versions.find((v) => v.version === 1)!;
    const old = await runBacktestBatch(admin, {
      ruleId: "BIG-REPEAT",
      versionId: v1.id,
      from: BASE,
      to: BASE + 2 * HOUR,
    });
    expect(old.version).toBe(1);
  });

  it("lists rules with alert hit counts", async () => {
    await saveRule(admin, {
      definition: draft({
        id: "ANY",
        condition: "transaction.amount > 0",
        aggregates: undefined,
        status: "active",
      }),
    });
    await saveRule(reviewer, {
      definition: draft({
        id: "SHADOW",
        condition: "transaction.amount > 5",
        aggregates: undefined,
        status: "dry-run",
      }),
    });
    await screen(a, "now-1", 10, Date.now() - 60_000, "u-9");
    await screen(a, "now-2", 1, Date.now() - 30_000, "u-9");
    const rows = await listRulesWithHits(officer);
    const any = rows.find((r) => r.ruleId === "ANY")!;
    expect(any).toMatchObject({ status: "active", hits24h: 2, hits7d: 2, hitsSource: "alerts" });
    expect(any.daily).toHaveLength(7);
    expect(any.daily[6]).toBe(2);
    // dry-run hits are counted from the recorded decisions (no alerts exist for them)
    expect(rows.find((r) => r.ruleId === "SHADOW")).toMatchObject({
      hits24h: 1,
      hits7d: 1,
      hitsSource: "decisions",
      sampledSince: null,
    });
    expect(await prisma.alert.count({ where: { clientId: a.clientId, ruleId: "SHADOW" } })).toBe(0);
  });

  it("another client's rules are not found", async () => {
    await expectNotFound(getRuleDetail(adminB, { ruleId: "BIG-REPEAT" }));
    await expectNotFound(changeRuleStatus(adminB, { ruleId: "BIG-REPEAT", status: "active" }));
    await expectNotFound(saveRule(adminB, { ruleId: "BIG-REPEAT", definition: draft() }));
    await expectNotFound(runBacktestBatch(adminB, { ruleId: "BIG-REPEAT", from: BASE, to: BASE + HOUR }));
    expect((await listRulesWithHits(adminB)).length).toBe(0);
  });
});

describe("api keys", () => {
  it("creates a key shown once, lists it by prefix, and revokes it", async () => {
    const created = await createDashboardApiKey(admin, { name: "ci" });
    expect(await authenticateApiKey(created.apiKey)).toMatchObject({ id: a.clientId });
    const listed = (await listApiKeys(admin)).find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ name: "ci", revokedAt: null });
    expect(created.apiKey.startsWith(listed.prefix)).toBe(true);
    expect(JSON.stringify(await listApiKeys(admin))).not.toContain(created.apiKey);

    await expectNotFound(revokeDashboardApiKey(adminB, { id: created.id }));
    expect(await revokeDashboardApiKey(admin, { id: created.id })).toEqual({ revoked: true });
    expect(await authenticateApiKey(created.apiKey)).toBeNull();
    expect((await listApiKeys(admin)).find((k) => k.id === created.id)!.revokedAt).not.toBeNull();
    const audit = await prisma.auditLog.findMany({
      where: { clientId: a.clientId, entityType: "api_key", entityId: created.id },
    });
    expect(audit.map((r) => r.action).sort()).toEqual(["api_key.created", "api_key.revoked"]);
  });
});

describe("webhooks", () => {
  it("creates with a generated secret, disables, and scopes to the client", async () => {
    const sub = await createWebhookSubscription(admin, {
      url: "https://hooks.example.test/a",
      events: ["alert.created"],
    });
    expect(sub.secret).toMatch(/^whsec_/);
    const given = await createWebhookSubscription(admin, {
      url: "https://hooks.example.test/b",
      events: ["alert.created"],
      secret: "s3cret",
    });
    expect(given.secret).toBeNull();

    // business clients only get their documented events
    const refused = await rejected(
      createWebhookSubscription(adminB, { url: "https://hooks.example.test/c", events: ["user.screened"] }),
    );
    expect((refused as ApiError).status).toBe(400);

    await expectNotFound(disableWebhookSubscription(adminB, { id: sub.id }));
    expect(await disableWebhookSubscription(admin, { id: sub.id })).toEqual({ disabled: true });
    const row = await prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(row.active).toBe(false);
    expect(row.disabledAt).not.toBeNull();
    expect(await disableWebhookSubscription(admin, { id: sub.id })).toEqual({ disabled: false });
  });

  it("redelivers a failed delivery (admin only) and lists failed ones", async () => {
    const sub = await createWebhookSubscription(admin, {
      url: "https://hooks.example.test/r",
      events: ["alert.created"],
      secret: "k",
    });
    const delivery = await prisma.webhookDelivery.create({
      data: {
        clientId: a.clientId,
        subscriptionId: sub.id,
        outboxEventId: "ob-test-1",
        eventType: "alert.created",
        body: JSON.stringify({ event: "alert.created", payload: {}, timestamp: Date.now() }),
        status: "failed",
        attempts: 3,
        lastError: "HTTP 500",
        attemptLog: { create: [{ attempt: 1, startedAt: new Date(), durationMs: 12, responseStatus: 500 }] },
      },
    });
    const failed = await listWebhookDeliveries(admin, { status: "failed", limit: 50 });
    expect(failed.deliveries.map((d) => d.id)).toContain(delivery.id);
    expect(failed.deliveries.find((d) => d.id === delivery.id)!.attemptLog[0]).toMatchObject({
      responseStatus: 500,
      durationMs: 12,
    });
    expect((await listWebhookDeliveries(adminB, { limit: 50 })).deliveries).toEqual([]);

    await expectNotFound(redeliverDelivery(adminB, { deliveryId: delivery.id }));
    expect(await redeliverDelivery(admin, { deliveryId: delivery.id })).toEqual({
      id: delivery.id,
      status: "pending",
      requeued: true,
    });
    const reset = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(reset).toMatchObject({ status: "pending", lastError: null });
    const queued = await prisma.outboxEvent.findMany({ where: { clientId: a.clientId } });
    expect(queued.some((o) => JSON.stringify(o.data).includes(delivery.id))).toBe(true);
    expect(
      await prisma.auditLog.count({ where: { entityId: delivery.id, action: "webhook.redelivered" } }),
    ).toBe(1);
  });
});

describe("settings and team", () => {
  it("updates features, actions and the reporting profile of the session's client only", async () => {
    const view = await updateClientSettings(admin, {
      features: ["reporting"],
      actions: ["ALLOW", "REVIEW", "BLOCK"],
      reportingProfile: { entityId: "E-1", entityName: "Acme", codes: { contactType: "1" } },
    });
    expect(view).toMatchObject({
      features: ["reporting"],
      actions: ["ALLOW", "REVIEW", "BLOCK"],
      reportingProfile: { entityId: "E-1" },
    });
    expect(view.goaml).toMatchObject({ generic: true, version: "5.0.1" });
    expect(view.goaml.lookups.contactType.map((c) => c.value)).toEqual(["-", "1", "2", "3", "4"]);
    // A lookup code the active schema does not have is refused and nothing changes.
    await expect(
      updateClientSettings(admin, {
        reportingProfile: { entityId: "E-2", codes: { contactType: "PRIVATE" } },
      }),
    ).rejects.toMatchObject({
      details: ["/reportingProfile: Contact type PRIVATE is not a code of the generic goAML 5.0.1 schema"],
    });
    expect((await getClientSettings(admin)).reportingProfile.entityId).toBe("E-1");
    expect((await getClientSettings(adminB)).features).toEqual([]);
    // the editor now refuses a disabled action
    const v = await validateRuleDraft(admin, { definition: draft({ recommendedAction: "STEP_UP_ID" }) });
    expect(v.errors[0]!.field).toBe("recommendedAction");
  });

  it("creates and disables dashboard users within the client", async () => {
    const { userId } = await createTeamMember(admin, {
      email: "new@a.test",
      role: "reviewer",
      password: "long-enough-1",
    });
    expect((await listTeam(admin)).map((m) => m.email)).toContain("new@a.test");
    expect((await listTeam(adminB)).map((m) => m.email)).not.toContain("new@a.test");
    await expectNotFound(disableTeamMember(adminB, { id: userId }));
    expect(await disableTeamMember(admin, { id: userId })).toEqual({ disabled: true });
    expect(
      (await prisma.dashboardUser.findUniqueOrThrow({ where: { id: userId } })).disabledAt,
    ).not.toBeNull();
  });
});
