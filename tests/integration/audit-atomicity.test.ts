import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as postUser } from "@/app/v1/user/route";
import { createDashboardApiKey, revokeDashboardApiKey } from "@/lib/admin/api-keys";
import { changeRuleStatus, publishRule } from "@/lib/admin/change-rule-status";
import { saveRule } from "@/lib/admin/save-rule";
import { updateClientSettings } from "@/lib/admin/settings";
import { createTeamMember, disableTeamMember, enableTeamMember, unlockTeamMember } from "@/lib/admin/team";
import {
  createWebhookSubscription,
  disableWebhookSubscription,
  redeliverDelivery,
} from "@/lib/admin/webhooks";
import type { TSessionUser } from "@/lib/auth/session";
import { accountKey, signInWithPassword } from "@/lib/auth/sign-in";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { changeUserStatusFromDashboard } from "@/lib/users/change-user-status-from-dashboard";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { call, createTestClient, emitTestDelivery } from "@/tests/factories";

// Crash injection: a trigger makes every audit_logs insert fail, as a crash between the change and
// its audit row would. Every audited change must then leave the database exactly as it was; without
// the trigger the same call makes the change and writes its audit row.

let admin: TSessionUser;
let apiKey: string;

async function snapshot(): Promise<string> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
    ORDER BY table_name`;
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await prisma.$queryRawUnsafe<{ rows: unknown }[]>(
        `SELECT coalesce(json_agg(t ORDER BY t::text), '[]'::json) AS rows FROM "${name}" t`,
      );
      return [name, row?.rows] as const;
    }),
  );
  return JSON.stringify(parts);
}

async function injectAuditCrash(): Promise<void> {
  await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION crash_before_audit() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'injected crash before the audit row'; END $$ LANGUAGE plpgsql`);
  await prisma.$executeRawUnsafe(
    `CREATE TRIGGER crash_before_audit BEFORE INSERT ON audit_logs FOR EACH ROW EXECUTE FUNCTION crash_before_audit()`,
  );
}

async function removeAuditCrash(): Promise<void> {
  await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS crash_before_audit ON audit_logs`);
}

afterEach(removeAuditCrash);

/** The change fails with the injected crash and changes nothing; then, without it, commits with its audit row. */
async function atomically(action: string, change: () => Promise<unknown>): Promise<void> {
  const before = await snapshot();
  await injectAuditCrash();
  await expect(change()).rejects.toThrow(/injected crash before the audit row/);
  expect(await snapshot(), `${action} left a change without its audit row`).toBe(before);
  await removeAuditCrash();
  const audits = await prisma.auditLog.count({ where: { action } });
  await change();
  expect(await prisma.auditLog.count({ where: { action } }), action).toBe(audits + 1);
  expect(await snapshot()).not.toBe(before);
}

beforeAll(async () => {
  const client = await createTestClient({ type: "consumer" });
  apiKey = client.apiKey;
  const { userId } = await createDashboardUser({
    clientId: client.clientId,
    email: "admin@atomic.test",
    password: "atomic-password",
    role: "admin",
  });
  admin = { id: userId, clientId: client.clientId, email: "admin@atomic.test", name: null, role: "admin" };
});

describe("every audited change commits with its audit row", () => {
  it("settings", async () => {
    await atomically("client.configured", () =>
      updateClientSettings(admin, { features: ["eventRules"], actions: ["ALLOW", "BLOCK"] }),
    );
  });

  it("team: create, disable, enable, unlock", async () => {
    await atomically("dashboard_user.created", () =>
      createTeamMember(admin, { email: "new@atomic.test", role: "reviewer", password: "long enough" }),
    );
    const member = await prisma.dashboardUser.findFirstOrThrow({ where: { email: "new@atomic.test" } });
    await atomically("dashboard_user.disabled", () => disableTeamMember(admin, { id: member.id }));
    await atomically("dashboard_user.enabled", () => enableTeamMember(admin, { id: member.id }));
    await prisma.signInThrottle.create({
      data: { key: accountKey(member.email), failures: 10, lastFailureAt: new Date(), lockedAt: new Date() },
    });
    await atomically("dashboard_user.unlocked", () => unlockTeamMember(admin, { id: member.id }));
  });

  it("webhooks: subscribe, disable, redeliver", async () => {
    await atomically("webhook.created", () =>
      createWebhookSubscription(admin, { url: "https://hooks.example.com/a", events: ["user.status.block"] }),
    );
    const sub = await prisma.webhookSubscription.findFirstOrThrow({ where: { clientId: admin.clientId } });
    await atomically("webhook.disabled", () => disableWebhookSubscription(admin, { id: sub.id }));

    await createSubscription({
      clientId: admin.clientId,
      clientType: "consumer",
      url: "https://hooks.example.com/b",
      events: ["user.status.block"],
      secret: "s",
    });
    const delivery = await emitTestDelivery(admin.clientId);
    await prisma.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "failed", attempts: 9, lastError: "HTTP 500" },
    });
    await atomically("webhook.redelivered", () => redeliverDelivery(admin, { deliveryId: delivery.id }));
  });

  it("API keys: create and revoke", async () => {
    await atomically("api_key.created", () => createDashboardApiKey(admin, { name: "ci" }));
    const key = await prisma.apiKey.findFirstOrThrow({ where: { clientId: admin.clientId, name: "ci" } });
    await atomically("api_key.revoked", () => revokeDashboardApiKey(admin, { id: key.id }));
  });

  it("rules: save a draft, publish it, switch it off", async () => {
    const definition = {
      id: "ATOMIC-1",
      name: "Big amount",
      subject: "transaction",
      status: "draft",
      riskLevel: "high",
      // the settings test above left ALLOW and BLOCK enabled
      recommendedAction: "BLOCK",
      reason: "Big",
      condition: "transaction.amount > 1000",
    };
    await atomically("rule.created", () => saveRule(admin, { definition }));
    await atomically("rule.published", () =>
      publishRule(admin, { ruleId: "ATOMIC-1", version: 1, status: "active" }),
    );
    await atomically("rule.switched_off", () =>
      changeRuleStatus(admin, { ruleId: "ATOMIC-1", status: "inactive" }),
    );
  });

  it("user status from the dashboard", async () => {
    const res = await call(postUser, { apiKey, body: { id: "u-atomic", timestamp: Date.now() - 1000 } });
    expect(res.status).toBe(200);
    // the key's lastUsedAt is written after the answer, off the request path: let it land before the
    // snapshot, or it would show up as a change the crashed action made
    await expect
      .poll(() => prisma.apiKey.count({ where: { clientId: admin.clientId, lastUsedAt: { not: null } } }))
      .toBeGreaterThan(0);
    await atomically("user.status.blocked", () =>
      changeUserStatusFromDashboard({
        closeAlerts: true,
        clientId: admin.clientId,
        userId: "u-atomic",
        status: "blocked",
        comment: "fraud ring",
        actor: admin,
      }),
    );
  });

  it("sign-in: a failure is counted only with its audit row", async () => {
    const t = new Date(Date.UTC(2026, 0, 9));
    await atomically("sign_in.failed", () =>
      signInWithPassword({ email: admin.email, password: "wrong", address: "192.0.2.9", now: t }),
    );
  });
});
