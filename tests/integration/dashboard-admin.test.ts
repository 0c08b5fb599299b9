import { beforeAll, describe, expect, it } from "vitest";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { createDashboardApiKey, listApiKeys, revokeDashboardApiKey } from "@/lib/admin/api-keys";
import { changeRuleStatus, publishRule } from "@/lib/admin/change-rule-status";
import { getRuleDetail } from "@/lib/admin/get-rule-detail";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";
import { saveRule } from "@/lib/admin/save-rule";
import { getClientSettings, updateClientSettings } from "@/lib/admin/settings";
import { createTeamMember, disableTeamMember, enableTeamMember, listTeam } from "@/lib/admin/team";
import { validateRuleDraft } from "@/lib/admin/validate-rule-draft";
import {
  createWebhookSubscription,
  disableWebhookSubscription,
  listWebhookDeliveries,
  redeliverDelivery,
} from "@/lib/admin/webhooks";
import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { continueBacktest, latestBacktest, startBacktest } from "@/lib/backtest/run-backtest";
import { prisma } from "@/lib/db";
import { knownApiError } from "@/lib/http/errors";
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
  expect(knownApiError(err)?.status).toBe(404);
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
    expect(unknownVar.errors[0]!.message).toMatch(/unknown variable foo/);

    const syntax = await validateRuleDraft(admin, {
      definition: draft({ condition: "transaction.amount >" }),
    });
    expect(syntax.errors.map((e) => e.field)).toEqual(["condition"]);

    const undefinedAgg = await validateRuleDraft(admin, {
      definition: draft({ condition: "aggregates.nope > 1" }),
    });
    expect(undefinedAgg.errors).toEqual([
      { field: "condition", message: "1:12: aggregates.nope is not defined by the rule", start: 11, end: 15 },
    ]);
    // a typo is located in the source, with a suggestion; an empty name is "Required"
    const typo = await validateRuleDraft(admin, {
      definition: draft({ name: "", condition: "transaction.amout >= 10000", aggregates: undefined }),
    });
    expect(typo).toEqual({
      valid: false,
      errors: [
        { field: "name", message: "Required" },
        {
          field: "condition",
          message: "1:13: unknown field transaction.amout; did you mean amount?",
          start: 12,
          end: 17,
        },
      ],
    });
    const typoOnly = await validateRuleDraft(admin, {
      definition: draft({ condition: "transaction.amout >= 10000", aggregates: undefined }),
    });
    expect(typoOnly.errors).toEqual([
      {
        field: "condition",
        message: "1:13: unknown field transaction.amout; did you mean amount?",
        start: 12,
        end: 17,
      },
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
    // a save is a draft whatever status the form sent: publishing picks the live status
    expect(detail.versions.map((v) => [v.version, v.definition.reason, v.definition.status])).toEqual([
      [2, "edited", "draft"],
      [1, "Two or more big payments within a day", "draft"],
    ]);
    expect(detail).toMatchObject({ status: "draft", liveVersion: null, screening: false, editingVersion: 2 });
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
    expect(knownApiError(dup)?.details).toEqual(["/id: A rule with id BIG-REPEAT already exists"]);
    const bad = await rejected(
      saveRule(admin, { ruleId: "BIG-REPEAT", definition: draft({ condition: "nope ==" }) }),
    );
    expect(bad).toBeInstanceOf(RuleImportError);
    expect((await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).currentVersion).toBe(2);
  });

  it("publishing is admin-only; reporting officers cannot write rules", async () => {
    expect(
      await rejected(publishRule(reviewer, { ruleId: "BIG-REPEAT", version: 2, status: "active" })),
    ).toBeInstanceOf(ForbiddenError);
    expect(await rejected(saveRule(officer, { ruleId: "BIG-REPEAT", definition: draft() }))).toBeInstanceOf(
      ForbiddenError,
    );
    // a dry-run rule runs on every screening too: publishing it is an admin's
    expect(
      await rejected(publishRule(reviewer, { ruleId: "BIG-REPEAT", version: 2, status: "dry-run" })),
    ).toBeInstanceOf(ForbiddenError);
    await publishRule(admin, { ruleId: "BIG-REPEAT", version: 2, status: "dry-run" });
    expect((await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).status).toBe("dry-run");
    // a reviewer may mute a dry-run rule or switch it off, but not switch it on again
    await changeRuleStatus(reviewer, { ruleId: "BIG-REPEAT", status: "muted" });
    await changeRuleStatus(reviewer, { ruleId: "BIG-REPEAT", status: "inactive" });
    expect(
      await rejected(changeRuleStatus(reviewer, { ruleId: "BIG-REPEAT", status: "dry-run" })),
    ).toBeInstanceOf(ForbiddenError);
    await changeRuleStatus(admin, { ruleId: "BIG-REPEAT", status: "dry-run" });
    expect((await getRuleDetail(admin, { ruleId: "BIG-REPEAT" })).status).toBe("dry-run");

    await saveRule(admin, {
      definition: draft({ id: "LIVE", condition: "transaction.amount > 1000000", aggregates: undefined }),
    });
    await publishRule(admin, { ruleId: "LIVE", version: 1, status: "active" });
    // a reviewer may draft an edit of an active rule (it changes nothing), never switch it off
    const drafted = await saveRule(reviewer, {
      ruleId: "LIVE",
      definition: draft({ id: "LIVE", aggregates: undefined, condition: "true" }),
    });
    expect(drafted).toMatchObject({ version: 2, status: "active", liveVersion: 1 });
    expect(await rejected(changeRuleStatus(reviewer, { ruleId: "LIVE", status: "inactive" }))).toBeInstanceOf(
      ForbiddenError,
    );
    expect(
      await rejected(publishRule(reviewer, { ruleId: "LIVE", version: 2, status: "dry-run" })),
    ).toBeInstanceOf(ForbiddenError);
  });

  it("backtests a draft against the live version over stored history, aggregates as of each transaction", async () => {
    // u-1: big, small, big, then big 3 days later; u-2: two big ones 30 h apart
    await screen(a, "h1", 1500, BASE);
    await screen(a, "h2", 20, BASE + HOUR);
    await screen(a, "h3", 2500, BASE + 2 * HOUR);
    await screen(a, "h4", 3000, BASE + 72 * HOUR);
    await screen(a, "h5", 5000, BASE, "u-2");
    await screen(a, "h6", 5000, BASE + 30 * HOUR, "u-2");
    await screen(a, "h7", 9000, BASE + 2 * HOUR + 1, "u-1");
    await screen(a, "h8", 9000, BASE + 200 * HOUR, "u-1"); // outside the period

    // live (v2, dry-run): 2+ payments >= 1000 within 24h -> h3, h7
    // draft (v3): amount >= 2600 and 2+ payments >= 1000 within 72h -> h7, h4, h6
    const saved = await saveRule(reviewer, {
      ruleId: "BIG-REPEAT",
      definition: draft({
        condition: "transaction.amount >= 2600 && aggregates.big72h >= 2",
        aggregates: {
          big72h: {
            function: "count",
            over: "transaction",
            groupBy: "userId",
            window: "72h",
            where: "transaction.amount >= 1000",
          },
        },
      }),
    });
    expect(saved).toMatchObject({ version: 3, liveVersion: 2 });

    let run = await startBacktest(reviewer, { ruleId: "BIG-REPEAT", from: BASE, to: BASE + 100 * HOUR });
    expect(run).toMatchObject({
      draftVersion: 3,
      liveVersion: 2,
      liveStatus: "dry-run",
      total: 7,
      state: "running",
    });
    let batches = 0;
    while (run.state === "running") {
      run = await continueBacktest(reviewer, { runId: run.id, batchSize: 2 });
      batches++;
    }
    expect(batches).toBe(4);
    expect(run).toMatchObject({
      state: "done",
      processed: 7,
      draftHits: 3,
      liveHits: 2,
      onlyDraft: 2,
      onlyLive: 1,
      both: 1,
      draftErrors: 0,
      liveErrors: 0,
      firstError: null,
    });
    const ids = (list: Array<{ subjectId: string }>) => list.map((h) => h.subjectId).sort();
    expect(ids(run.samples.onlyDraft)).toEqual(["h4", "h6"]);
    expect(ids(run.samples.onlyLive)).toEqual(["h3"]);
    expect(run.samples.both).toEqual([
      { subjectId: "h7", occurredAt: BASE + 2 * HOUR + 1, amount: "9000", currencyCode: "EUR" },
    ]);

    // kept until the next run, for every role that reads rules; a finished run takes no more batches
    expect(await latestBacktest(officer, { ruleId: "BIG-REPEAT" })).toEqual(run);
    expect(await continueBacktest(admin, { runId: run.id })).toEqual(run);
    // the next run replaces it: v1 (the first draft) over two hours, stopped after one batch
    const v1 = await startBacktest(admin, {
      ruleId: "BIG-REPEAT",
      version: 1,
      from: BASE,
      to: BASE + 2 * HOUR,
    });
    expect(v1).toMatchObject({ draftVersion: 1, total: 4, processed: 0 });
    await continueBacktest(admin, { runId: v1.id, batchSize: 1 });
    const stopped = await continueBacktest(admin, { runId: v1.id, stop: true });
    expect(stopped).toMatchObject({ state: "stopped", processed: 1 });
    expect((await latestBacktest(admin, { ruleId: "BIG-REPEAT" }))?.id).toBe(v1.id);
    expect(await prisma.backtestRun.count({ where: { clientId: a.clientId } })).toBe(1);
  });

  it("lists rules with alert hit counts", async () => {
    await saveRule(admin, {
      definition: draft({ id: "ANY", condition: "transaction.amount > 0", aggregates: undefined }),
    });
    await publishRule(admin, { ruleId: "ANY", version: 1, status: "active" });
    await saveRule(reviewer, {
      definition: draft({ id: "SHADOW", condition: "transaction.amount > 5", aggregates: undefined }),
    });
    await publishRule(admin, { ruleId: "SHADOW", version: 1, status: "dry-run" });
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
    await expectNotFound(publishRule(adminB, { ruleId: "BIG-REPEAT", version: 1, status: "dry-run" }));
    await expectNotFound(startBacktest(adminB, { ruleId: "BIG-REPEAT", from: BASE, to: BASE + HOUR }));
    await expectNotFound(latestBacktest(adminB, { ruleId: "BIG-REPEAT" }));
    const runA = await latestBacktest(admin, { ruleId: "BIG-REPEAT" });
    await expectNotFound(continueBacktest(adminB, { runId: runA!.id }));
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
    expect(knownApiError(refused)?.status).toBe(400);

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
    // A lookup code the active schema does not have is not saved and named; the rest of the profile is saved.
    const partial = await updateClientSettings(admin, {
      reportingProfile: { entityId: "E-2", codes: { contactType: "PRIVATE" } },
    });
    expect(partial.notSaved).toEqual([
      "/reportingProfile/codes/contactType: Contact type (phones, addresses): PRIVATE is not a code of the generic goAML 5.0.1 schema; not saved",
    ]);
    expect((await getClientSettings(admin)).reportingProfile).toMatchObject({ entityId: "E-2" });
    // the field keeps the code it had
    expect((await getClientSettings(admin)).reportingProfile.codes?.contactType).toBe("1");
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
    // and back: another client's admin cannot, this one can, once
    await expectNotFound(enableTeamMember(adminB, { id: userId }));
    expect(await enableTeamMember(admin, { id: userId })).toEqual({ enabled: true });
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: userId } })).disabledAt).toBeNull();
    expect(await enableTeamMember(admin, { id: userId })).toEqual({ enabled: false });
  });
});
