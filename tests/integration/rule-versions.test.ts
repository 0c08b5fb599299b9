// Versions that cannot lose coverage. Screening goes through the real route (and
// its per-process rules cache) before and after each change.
import { describe, expect, it } from "vitest";
import * as transactionRoute from "@/app/v1/transaction/route";
import { GET as listRulesRoute } from "@/app/v1/rules/route";
import { changeRuleStatus, publishRule } from "@/lib/admin/change-rule-status";
import { getRuleDetail } from "@/lib/admin/get-rule-detail";
import { saveRule } from "@/lib/admin/save-rule";
import type { TSessionUser } from "@/lib/auth/session";
import { ForbiddenError } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { exportRules } from "@/lib/rules/export-rules";
import { importRules } from "@/lib/rules/import-rules";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import { RuleImportError } from "@/lib/rules/validate-rule";
import { call, createTestClient } from "@/tests/factories";

const LARGE = DEMO_RULES.find((r) => r.id === "TX-LARGE-AMOUNT")!;

let seq = 0;
async function screen(apiKey: string, amount: number) {
  const res = await call(transactionRoute.POST, {
    apiKey,
    body: {
      id: `tx-${++seq}`,
      userId: "u-1",
      status: "PENDING",
      currencyCode: "USD",
      amount,
      timestamp: Date.now() - 60_000,
    },
  });
  expect(res.status).toBe(200);
  return res.body as { riskLevel: string; triggered: Array<{ id: string }> };
}

const fired = (body: { triggered: Array<{ id: string }> }) => body.triggered.map((t) => t.id);

function users(clientId: string) {
  const base = { clientId, name: null, email: "" };
  return {
    admin: { ...base, id: "admin-1", email: "admin@test", role: "admin" } as TSessionUser,
    reviewer: { ...base, id: "rev-1", email: "rev@test", role: "reviewer" } as TSessionUser,
  };
}

async function decisionsFiring(clientId: string, ruleId: string) {
  const decisions = await prisma.decision.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
  return decisions.map((d) =>
    (d.evaluated as Array<{ ruleId: string; version: number; triggered: boolean }>)
      .filter((e) => e.ruleId === ruleId)
      .map((e) => [e.version, e.triggered]),
  );
}

describe("rule versions", () => {
  it("a draft save changes no decision; publishing switches the live version in one step", async () => {
    const { clientId, apiKey } = await createTestClient();
    const { admin, reviewer } = users(clientId);
    await importRules({ clientId, rules: [LARGE] });
    expect(fired(await screen(apiKey, 30_000))).toEqual(["TX-LARGE-AMOUNT"]);

    // the edit: raise the threshold, saved as a draft (v2), by a reviewer even
    const draft = await saveRule(reviewer, {
      ruleId: LARGE.id,
      definition: { ...LARGE, condition: "transaction.amount >= 50000", status: "active" },
    });
    expect(draft).toMatchObject({ version: 2, status: "active", liveVersion: 1 });
    // screening is unchanged: v1 still fires on 30,000 and the rule stays active
    expect(fired(await screen(apiKey, 30_000))).toEqual(["TX-LARGE-AMOUNT"]);
    const listed = await call(listRulesRoute, { apiKey });
    expect(listed.body).toEqual([expect.objectContaining({ id: LARGE.id, status: "active" })]);
    const detail = await getRuleDetail(admin, { ruleId: LARGE.id });
    expect(detail).toMatchObject({ status: "active", liveVersion: 1, editingVersion: 2, screening: true });
    expect(detail.versions.map((v) => [v.version, v.isLive, v.definition.status])).toEqual([
      [2, false, "draft"],
      [1, true, "active"],
    ]);
    // export is what screens: the live version
    expect((await exportRules({ clientId })).rules[0]).toMatchObject({
      condition: LARGE.condition,
      status: "active",
    });

    // only an admin publishes an active rule; then v2 screens
    expect(
      await publishRule(reviewer, { ruleId: LARGE.id, version: 2, status: "active" }).catch(
        (e: unknown) => e,
      ),
    ).toBeInstanceOf(ForbiddenError);
    const published = await publishRule(admin, { ruleId: LARGE.id, version: 2, status: "active" });
    expect(published).toMatchObject({
      from: { status: "active", liveVersion: 1 },
      to: { status: "active", liveVersion: 2 },
    });
    expect(fired(await screen(apiKey, 30_000))).toEqual([]);
    expect(fired(await screen(apiKey, 60_000))).toEqual(["TX-LARGE-AMOUNT"]);
    // every decision records the version that ran: v1 while v2 was a draft, v2 after publishing
    expect(await decisionsFiring(clientId, LARGE.id)).toEqual([
      [[1, true]],
      [[1, true]],
      [[2, false]],
      [[2, true]],
    ]);

    const audit = await prisma.auditLog.findMany({
      where: { clientId, entityId: LARGE.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["rule.updated", "rev-1"],
      ["rule.published", "admin-1"],
    ]);
  });

  it("switching off is its own action; switching on again restores the last live version", async () => {
    const { clientId, apiKey } = await createTestClient();
    const { admin, reviewer } = users(clientId);
    await importRules({ clientId, rules: [LARGE] });
    expect(
      await changeRuleStatus(reviewer, { ruleId: LARGE.id, status: "inactive" }).catch((e: unknown) => e),
    ).toBeInstanceOf(ForbiddenError);
    await changeRuleStatus(admin, { ruleId: LARGE.id, status: "inactive" });
    const off = await screen(apiKey, 30_000);
    expect(off).toMatchObject({ riskLevel: "n/a", triggered: [] });
    // a draft saved while the rule is off keeps it off
    await saveRule(admin, {
      ruleId: LARGE.id,
      definition: { ...LARGE, condition: "transaction.amount > 1" },
    });
    expect((await screen(apiKey, 30_000)).riskLevel).toBe("n/a");
    await changeRuleStatus(admin, { ruleId: LARGE.id, status: "active" });
    expect(fired(await screen(apiKey, 30_000))).toEqual(["TX-LARGE-AMOUNT"]);
    expect(fired(await screen(apiKey, 5_000))).toEqual([]);
    const actions = await prisma.auditLog.findMany({
      where: { clientId, entityId: LARGE.id },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((a) => a.action)).toEqual([
      "rule.switched_off",
      "rule.updated",
      "rule.status_changed",
    ]);
  });

  it("a new rule starts as a draft that does not screen; a version that no longer validates cannot be published", async () => {
    const { clientId, apiKey } = await createTestClient({ actions: ["ALLOW", "REVIEW", "BLOCK"] });
    const { admin } = users(clientId);
    const created = await saveRule(admin, {
      definition: {
        ...LARGE,
        id: "NEW-BLOCK",
        recommendedAction: "BLOCK",
        condition: "transaction.amount > 1",
      },
    });
    expect(created).toMatchObject({ version: 1, status: "draft", liveVersion: null });
    expect((await screen(apiKey, 30_000)).riskLevel).toBe("n/a");
    // a rule with nothing published cannot be switched on, only published
    expect(
      await changeRuleStatus(admin, { ruleId: "NEW-BLOCK", status: "active" }).catch((e: unknown) => e),
    ).toBeInstanceOf(RuleImportError);

    await prisma.client.update({ where: { id: clientId }, data: { actions: ["ALLOW", "REVIEW"] } });
    const refused = await publishRule(admin, { ruleId: "NEW-BLOCK", version: 1, status: "active" }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RuleImportError);
    expect((refused as RuleImportError).errors[0]!.message).toMatch(/BLOCK is not enabled/);
    expect((await screen(apiKey, 30_000)).riskLevel).toBe("n/a");
  });

  it("re-importing an id creates a new version that becomes live, with the file's status", async () => {
    const { clientId, apiKey } = await createTestClient();
    const { admin } = users(clientId);
    await importRules({ clientId, rules: [LARGE] });
    await saveRule(admin, {
      ruleId: LARGE.id,
      definition: { ...LARGE, condition: "transaction.amount > 1" },
    });
    await importRules({
      clientId,
      rules: [{ ...LARGE, condition: "transaction.amount >= 20000", status: "dry-run" }],
    });
    const rule = await prisma.rule.findFirstOrThrow({ where: { clientId, ruleId: LARGE.id } });
    expect(rule).toMatchObject({ currentVersion: 3, liveVersion: 3, status: "dry-run" });
    // dry-run: evaluated and recorded, never in the answer
    const body = await screen(apiKey, 25_000);
    expect(body).toMatchObject({ riskLevel: "n/a", triggered: [] });
    expect((await decisionsFiring(clientId, LARGE.id)).at(-1)).toEqual([[3, true]]);
    const listed = await call(listRulesRoute, { apiKey });
    expect(listed.body).toEqual([expect.objectContaining({ id: LARGE.id, status: "dry-run" })]);
  });
});
