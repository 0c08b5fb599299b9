import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TJobDriver } from "@/lib/jobs/driver";
import type { TReceiver } from "@/tests/support/webhook-receiver";

// The admin's tools, through their dashboard routes as each role: the audit trail and its CSV, a
// member's role and password reset, webhook "retry now" and "redeliver all failed", publish notes and
// list additions. Every change is tenant-scoped and leaves its audit row; reviewers and reporting
// officers get 403 and change nothing.

const session = vi.hoisted(() => {
  // a long schedule: a retrying delivery waits ten minutes unless an admin retries it now
  process.env.WEBHOOK_RETRY_DELAYS_MS = "600000,600000,600000";
  process.env.WEBHOOK_TIMEOUT_MS = "4000";
  return { current: null as null | { user: { id: string } } };
});
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

const { prisma } = await import("@/lib/db");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { call, createTestClient } = await import("@/tests/factories");
const { signInWithPassword } = await import("@/lib/auth/sign-in");
const auditRoute = await import("@/app/dashboard-api/audit/route");
const auditExport = await import("@/app/dashboard-api/audit/export/route");
const roleRoute = await import("@/app/dashboard-api/team/[userId]/role/route");
const resetRoute = await import("@/app/dashboard-api/team/[userId]/reset-password/route");
const disableRoute = await import("@/app/dashboard-api/team/[userId]/disable/route");
const passwordRoute = await import("@/app/dashboard-api/account/password/route");
const teamRoute = await import("@/app/dashboard-api/team/route");
const retryNowRoute = await import("@/app/dashboard-api/webhooks/deliveries/[deliveryId]/retry-now/route");
const redeliverFailedRoute =
  await import("@/app/dashboard-api/webhooks/[subscriptionId]/redeliver-failed/route");
const publishRoute = await import("@/app/dashboard-api/rules/[ruleId]/publish/route");
const saveRoute = await import("@/app/dashboard-api/rules/[ruleId]/route");
const listsRoute = await import("@/app/dashboard-api/lists/route");
const entriesRoute = await import("@/app/dashboard-api/lists/[listId]/entries/route");
const uploadRoute = await import("@/app/dashboard-api/lists/[listId]/upload/route");
const { createSubscription } = await import("@/lib/webhooks/create-subscription");
const { emitWebhookEvent, WEBHOOK_DELIVERY_EVENT } = await import("@/lib/webhooks/emit");
const { sendDeliveryAttempt } = await import("@/lib/webhooks/send-delivery-attempt");
const { getRuleDetail } = await import("@/lib/admin/get-rule-detail");
const { seedDemoRules } = await import("@/lib/rules/demo-rules");

const PASSWORD = "correct horse battery";
type TRole = "admin" | "reviewer" | "reporting_officer";
type TMember = { id: string; email: string; clientId: string };

let clientId: string;
let otherClientId: string;
const m = {} as Record<"admin" | "admin2" | "reviewer" | "officer" | "otherAdmin", TMember>;

async function member(client: string, email: string, role: TRole, name: string): Promise<TMember> {
  const { userId } = await createDashboardUser({ clientId: client, email, password: PASSWORD, role, name });
  return { id: userId, email, clientId: client };
}

function as(who: TMember | null) {
  session.current = who ? { user: { id: who.id } } : null;
}

async function audits(action: string, entityId?: string) {
  return prisma.auditLog.findMany({ where: { action, ...(entityId && { entityId }) } });
}

beforeAll(async () => {
  clientId = (await createTestClient({ name: "Trail" })).clientId;
  otherClientId = (await createTestClient({ name: "Other" })).clientId;
  m.admin = await member(clientId, "ada@trail.test", "admin", "Ada Admin");
  m.admin2 = await member(clientId, "ben@trail.test", "admin", "Ben Admin");
  m.reviewer = await member(clientId, "rita@trail.test", "reviewer", "Rita Reviewer");
  m.officer = await member(clientId, "otto@trail.test", "reporting_officer", "Otto Officer");
  m.otherAdmin = await member(otherClientId, "olga@other.test", "admin", "Olga Other");
});

describe("roles", () => {
  it("refuses every new admin route to reviewers and reporting officers with 403, changing nothing", async () => {
    const before = await prisma.auditLog.count();
    const routes: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ["audit", () => call(auditRoute.GET as never, { path: "/dashboard-api/audit" })],
      ["export", () => call(auditExport.GET as never, { path: "/dashboard-api/audit/export" })],
      [
        "role",
        () => call(roleRoute.POST as never, { params: { userId: m.officer.id }, body: { role: "admin" } }),
      ],
      ["reset", () => call(resetRoute.POST as never, { params: { userId: m.admin.id }, body: {} })],
      ["retry", () => call(retryNowRoute.POST as never, { params: { deliveryId: "x" }, body: {} })],
      [
        "redeliver-failed",
        () => call(redeliverFailedRoute.POST as never, { params: { subscriptionId: "x" }, body: {} }),
      ],
    ];
    for (const who of [m.reviewer, m.officer]) {
      as(who);
      for (const [name, run] of routes) {
        const res = await run();
        expect([name, res.status, res.body?.error?.type]).toEqual([name, 403, "FORBIDDEN"]);
      }
    }
    as(null);
    expect((await routes[0]![1]()).status).toBe(401);
    expect(await prisma.auditLog.count()).toBe(before);
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: m.officer.id } })).role).toBe(
      "reporting_officer",
    );
  });
});

describe("team: role change and password reset", () => {
  it("changes a member's role, audited, and only within the admin's client", async () => {
    as(m.admin);
    const res = await call(roleRoute.POST as never, {
      params: { userId: m.reviewer.id },
      body: { role: "reporting_officer" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ changed: true, role: "reporting_officer" });
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: m.reviewer.id } })).role).toBe(
      "reporting_officer",
    );
    const [row] = await audits("dashboard_user.role_changed", m.reviewer.id);
    expect(row).toMatchObject({
      clientId,
      actorId: m.admin.id,
      details: { from: "reviewer", to: "reporting_officer" },
    });

    // another client's member: 404, untouched
    const foreign = await call(roleRoute.POST as never, {
      params: { userId: m.otherAdmin.id },
      body: { role: "reviewer" },
    });
    expect(foreign.status).toBe(404);
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: m.otherAdmin.id } })).role).toBe(
      "admin",
    );

    const bad = await call(roleRoute.POST as never, {
      params: { userId: m.reviewer.id },
      body: { role: "owner" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe("VALIDATION_ERROR");

    // back, for the tests below
    await call(roleRoute.POST as never, { params: { userId: m.reviewer.id }, body: { role: "reviewer" } });
  });

  it("never demotes or disables the last active admin", async () => {
    const solo = (await createTestClient({ name: "Solo" })).clientId;
    const only = await member(solo, "only@solo.test", "admin", "Only Admin");
    const second = await member(solo, "second@solo.test", "admin", "Second Admin");
    const role = (who: TMember, to: TRole) =>
      call(roleRoute.POST as never, { params: { userId: who.id }, body: { role: to } });
    as(only);
    // with two admins, one may step down
    expect((await role(second, "reviewer")).status).toBe(200);
    // now `only` is the last admin: demoting themselves is refused, nothing written
    const self = await role(only, "reviewer");
    expect(self.status).toBe(400);
    expect(self.body.error.details.join(" ")).toContain("last admin");
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: only.id } })).role).toBe("admin");
    expect(await audits("dashboard_user.role_changed", only.id)).toHaveLength(0);

    // a disabled admin does not count: `second`, admin again, disables `only` and is then the last one
    expect((await role(second, "admin")).status).toBe(200);
    as(second);
    expect((await call(disableRoute.POST as never, { params: { userId: only.id }, body: {} })).status).toBe(
      200,
    );
    const alone = await role(second, "reporting_officer");
    expect(alone.status).toBe(400);
    expect((await prisma.dashboardUser.findUniqueOrThrow({ where: { id: second.id } })).role).toBe("admin");
  });

  it("two admins disabling each other at the same moment leave one admin, not none", async () => {
    const duo = (await createTestClient({ name: "Duo" })).clientId;
    const a1 = await member(duo, "a1@duo.test", "admin", "A One");
    const a2 = await member(duo, "a2@duo.test", "admin", "A Two");
    // each request runs as its own admin: the session is read when the route starts
    const disable = async (actor: TMember, target: TMember) => {
      as(actor);
      return call(disableRoute.POST as never, { params: { userId: target.id }, body: {} });
    };
    const results = await Promise.all([disable(a1, a2), disable(a2, a1)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const active = await prisma.dashboardUser.count({
      where: { clientId: duo, role: "admin", disabledAt: null },
    });
    expect(active).toBe(1);
    expect(await prisma.auditLog.count({ where: { clientId: duo, action: "dashboard_user.disabled" } })).toBe(
      1,
    );
  });

  it("resets a password: the old one stops working, the member must set a new one before anything else", async () => {
    as(m.admin);
    const res = await call(resetRoute.POST as never, { params: { userId: m.reviewer.id }, body: {} });
    expect(res.status).toBe(200);
    const temporary = res.body.temporaryPassword as string;
    expect(temporary).toMatch(/^[\w-]{16}$/);
    expect(await audits("dashboard_user.password_reset", m.reviewer.id)).toHaveLength(1);
    const team = await call(teamRoute.GET as never, {});
    expect(team.body.members.find((x: { id: string }) => x.id === m.reviewer.id).mustChangePassword).toBe(
      true,
    );

    expect(
      await signInWithPassword({ email: m.reviewer.email, password: PASSWORD, address: null }),
    ).toBeNull();
    expect(
      await signInWithPassword({ email: m.reviewer.email, password: temporary, address: null }),
    ).not.toBeNull();

    // signed in with the temporary password: every route but setting one's own password answers 403
    as(m.reviewer);
    const blocked = await call(auditRoute.GET as never, {});
    expect(blocked.status).toBe(403);
    const alerts = await import("@/app/dashboard-api/alerts/route");
    const alertList = await call(alerts.GET as never, { path: "/dashboard-api/alerts" });
    expect(alertList.status).toBe(403);
    expect(alertList.body.error.message).toContain("Set a new password");

    const same = await call(passwordRoute.POST as never, {
      body: { password: temporary, confirm: temporary },
    });
    expect(same.status).toBe(400);
    const mismatch = await call(passwordRoute.POST as never, {
      body: { password: "new secret 1", confirm: "x" },
    });
    expect(mismatch.status).toBe(400);
    const ok = await call(passwordRoute.POST as never, {
      body: { password: "a new secret 42", confirm: "a new secret 42" },
    });
    expect(ok.status).toBe(200);
    expect(await audits("dashboard_user.password_changed", m.reviewer.id)).toHaveLength(1);
    expect((await call(alerts.GET as never, { path: "/dashboard-api/alerts" })).status).toBe(200);
    expect(
      await signInWithPassword({ email: m.reviewer.email, password: "a new secret 42", address: null }),
    ).not.toBeNull();

    // an admin cannot reset another client's member
    as(m.admin);
    const foreign = await call(resetRoute.POST as never, { params: { userId: m.otherAdmin.id }, body: {} });
    expect(foreign.status).toBe(404);
    expect(
      (await prisma.dashboardUser.findUniqueOrThrow({ where: { id: m.otherAdmin.id } })).mustChangePassword,
    ).toBe(false);
  });
});

describe("audit trail", () => {
  it("lists the client's entries newest first with actors by name and actions in words, filtered and paged", async () => {
    // entries of both clients at known times
    const base = Date.UTC(2026, 0, 10, 12);
    const rows = Array.from({ length: 7 }, (_, i) => ({
      clientId,
      actorType: "dashboard_user",
      actorId: i % 2 ? m.admin.id : m.admin2.id,
      action: i % 3 ? "rule.published" : "api_key.revoked",
      entityType: i % 3 ? "rule" : "api_key",
      entityId: i % 3 ? "TX-LARGE" : `key-${i}`,
      createdAt: new Date(base + i * 86_400_000),
    }));
    await prisma.auditLog.createMany({
      data: [
        ...rows,
        {
          clientId: otherClientId,
          actorType: "dashboard_user",
          actorId: m.otherAdmin.id,
          action: "rule.published",
          entityType: "rule",
          entityId: "TX-LARGE",
          createdAt: new Date(base),
        },
      ],
    });
    as(m.admin);
    const q = { from: "2026-01-10", to: "2026-01-16" };
    const all = await call(auditRoute.GET as never, { path: "/dashboard-api/audit", query: q });
    expect(all.status).toBe(200);
    expect(all.body.entries).toHaveLength(7);
    const times = all.body.entries.map((e: { at: number }) => e.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const first = all.body.entries[0];
    // the newest (day 7) is an API key revoked by Ben; a rule entry links to its rule
    expect(first).toMatchObject({
      action: "api_key.revoked",
      actionLabel: "Revoked an API key",
      actor: { name: "Ben Admin", email: m.admin2.email },
      href: "/dashboard/api-keys",
    });
    expect(all.body.entries[1]).toMatchObject({
      actionLabel: "Published a rule",
      actor: { name: "Ada Admin" },
      href: "/dashboard/rules/TX-LARGE",
    });

    const byActor = await call(auditRoute.GET as never, { query: { ...q, actorId: m.admin.id } });
    expect(byActor.body.entries).toHaveLength(3);
    expect(
      byActor.body.entries.every((e: { actor: { email: string } }) => e.actor.email === m.admin.email),
    ).toBe(true);
    const byAction = await call(auditRoute.GET as never, { query: { ...q, action: "api_key.revoked" } });
    expect(byAction.body.entries.map((e: { entityId: string }) => e.entityId)).toEqual([
      "key-6",
      "key-3",
      "key-0",
    ]);
    expect(byAction.body.entries[0].href).toBe("/dashboard/api-keys");
    const byObject = await call(auditRoute.GET as never, {
      query: { ...q, entityType: "rule", entityId: "TX-LARGE" },
    });
    expect(byObject.body.entries).toHaveLength(4);
    const oneDay = await call(auditRoute.GET as never, { query: { from: "2026-01-12", to: "2026-01-12" } });
    expect(oneDay.body.entries).toHaveLength(1);

    // keyset pages: 3 + 3 + 1, no overlap, same order as one page
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const res = await call(auditRoute.GET as never, {
        query: { ...q, limit: "3", ...(cursor && { cursor }) },
      });
      seen.push(...res.body.entries.map((e: { id: string }) => e.id));
      cursor = res.body.nextCursor ?? undefined;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(all.body.entries.map((e: { id: string }) => e.id));

    // the other client's admin sees only its own entry
    as(m.otherAdmin);
    const other = await call(auditRoute.GET as never, { query: q });
    expect(other.body.entries).toHaveLength(1);

    as(m.admin);
    const bad = await call(auditRoute.GET as never, { query: { from: "yesterday" } });
    expect(bad.status).toBe(400);
  });

  it("exports the filtered trail as CSV with formula cells neutralised", async () => {
    const list = await prisma.list.create({ data: { clientId, name: "evil", kind: "string" } });
    await prisma.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: m.admin.id,
        action: "list.entry_added",
        entityType: "list",
        entityId: list.id,
        details: { list: '=HYPERLINK("http://evil.test")', value: "@SUM(1+1)" },
        createdAt: new Date(Date.UTC(2026, 1, 1)),
      },
    });
    await prisma.dashboardUser.update({ where: { id: m.admin2.id }, data: { name: "+cmd|' /C calc'!A0" } });
    await prisma.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: m.admin2.id,
        action: "api_key.created",
        entityType: "api_key",
        entityId: "-key",
        createdAt: new Date(Date.UTC(2026, 1, 2)),
      },
    });
    as(m.admin);
    const res = await call(auditExport.GET as never, { query: { from: "2026-02-01", to: "2026-02-02" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="audit-trail-/);
    const lines = (res.body as string).trim().split(/\r?\n/);
    expect(lines[0]).toBe("time,actor,actor email,action,action code,object type,object,details");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("'+cmd|' /C calc'!A0");
    expect(lines[1]).toContain("Created an API key");
    expect(lines[1]).toContain(",'-key");
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.test"") (${list.id})"`);
    expect(lines[2]).toContain("Added a list entry");
    // no cell of the file starts a formula
    for (const line of lines.slice(1))
      for (const cell of line.split(",")) expect(cell.replace(/^"/, "")).not.toMatch(/^[=+\-@\t\r]/);
    await prisma.dashboardUser.update({ where: { id: m.admin2.id }, data: { name: "Ben Admin" } });
  });
});

describe("webhooks: retry now and redeliver all failed", () => {
  let driver: TJobDriver;
  let serve: { url: string; close: () => Promise<void> };
  let receiver: TReceiver;
  const SECRET = "whsec_trail-secret";
  let answers: number[] = [];

  beforeAll(async () => {
    const { POST, GET, PUT } = await import("@/app/api/inngest/route");
    const { INNGEST_APP_ID, inngest } = await import("@/inngest/client");
    const { eventsWithoutFunctions, functions, functionVersions } = await import("@/inngest/index");
    const { startJobDriver } = await import("@/lib/jobs/driver");
    const { describeFunctions } = await import("@/lib/jobs/function-table");
    const { servingSigningKey } = await import("@/lib/jobs/signing-key");
    const { inProcessRunner } = await import("@/lib/jobs/run-in-process");
    const { startRouteServer } = await import("@/tests/support/serve-server");
    const { startReceiver } = await import("@/tests/support/webhook-receiver");
    receiver = await startReceiver(SECRET, (_id, nth) => answers[nth] ?? 200);
    serve = await startRouteServer({ POST: POST as never, GET: GET as never, PUT: PUT as never });
    driver = startJobDriver({
      mode: "embedded",
      functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
      eventsWithoutFunctions,
      serveUrl: serve.url,
      runInProcess: inProcessRunner(inngest, functions),
      signingKey: servingSigningKey()!,
      pollMs: 50,
      leaseMs: 5000,
      retryBaseMs: 100,
    });
  });

  afterAll(async () => {
    await driver.stop();
    await serve.close();
    await receiver.close();
  });

  async function until<T>(read: () => Promise<T | null>, what: string): Promise<T> {
    const { waitFor } = await import("@/tests/support/webhook-receiver");
    return waitFor(read, 30_000, what);
  }

  async function emit(client: string, id: string) {
    await prisma.$transaction((tx) =>
      emitWebhookEvent(tx, {
        clientId: client,
        event: "user.status.block",
        payload: { id, status: "blocked", reason: "fraud", updatedAt: 1 },
      }),
    );
    return prisma.webhookDelivery.findFirstOrThrow({
      where: { clientId: client, body: { contains: `"${id}"` } },
    });
  }

  it("retry now sends a retrying delivery's next attempt at once; the old schedule stands down", async () => {
    answers = [500, 500, 200];
    const sub = await createSubscription({
      clientId,
      clientType: "consumer",
      url: receiver.url,
      events: ["user.status.block"],
      secret: SECRET,
    });
    const delivery = await emit(clientId, "u-retry");
    const retrying = await until(async () => {
      const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      return d.attempts === 1 && d.status === "pending" ? d : null;
    }, "the first attempt to fail");
    const scheduled = retrying.nextAttemptAt!.getTime();
    expect(scheduled).toBeGreaterThan(Date.now() + 500_000);

    // another client's admin cannot touch it
    as(m.otherAdmin);
    expect(
      (await call(retryNowRoute.POST as never, { params: { deliveryId: delivery.id }, body: {} })).status,
    ).toBe(404);

    as(m.admin);
    const res = await call(retryNowRoute.POST as never, { params: { deliveryId: delivery.id }, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: delivery.id, status: "pending", requeued: true });
    expect(await audits("webhook.retried_now", delivery.id)).toHaveLength(1);

    // the second attempt went out now (not in ten minutes), signed, and failed again: a new schedule
    const again = await until(async () => {
      const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      return d.attempts === 2 ? d : null;
    }, "the retried attempt");
    expect(receiver.received.filter((r) => r.deliveryId === delivery.id)).toHaveLength(2);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(again.status).toBe("pending");
    expect(again.nextAttemptAt!.getTime()).not.toBe(scheduled);

    // the run that waited for the old time finds the delivery moved on and sends nothing
    const stale = await sendDeliveryAttempt({ deliveryId: delivery.id, dueAt: scheduled });
    expect(stale).toEqual({ skipped: true, status: "superseded" });
    expect(receiver.received.filter((r) => r.deliveryId === delivery.id)).toHaveLength(2);

    // retry now again: delivered
    expect(
      (await call(retryNowRoute.POST as never, { params: { deliveryId: delivery.id }, body: {} })).body
        .requeued,
    ).toBe(true);
    await until(async () => {
      const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      return d.status === "delivered" ? d : null;
    }, "the delivery to be delivered");
    // nothing left to retry: answered, not requeued, not audited
    const done = await call(retryNowRoute.POST as never, { params: { deliveryId: delivery.id }, body: {} });
    expect(done.body).toEqual({ id: delivery.id, status: "delivered", requeued: false });
    expect(await audits("webhook.retried_now", delivery.id)).toHaveLength(2);
    await prisma.webhookSubscription.update({ where: { id: sub.id }, data: { active: false } });
  });

  it("redelivers every failed delivery of one subscription, and only those", async () => {
    answers = [];
    const mk = (url: string) =>
      createSubscription({
        clientId,
        clientType: "consumer",
        url,
        events: ["user.status.block"],
        secret: SECRET,
      });
    const subA = await mk(`${receiver.url}/a`);
    const subB = await mk(`${receiver.url}/b`);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await emit(clientId, `u-all-${i}`)).id);
    // wait for the driver to deliver them all, then mark some failed as if every retry had been spent
    await until(async () => {
      const n = await prisma.webhookDelivery.count({
        where: { clientId, status: "delivered", body: { contains: "u-all-" } },
      });
      return n === 8 ? n : null;
    }, "the first deliveries");
    await prisma.webhookDelivery.updateMany({
      where: { subscriptionId: subA.id, body: { contains: "u-all-" } },
      data: { status: "failed", lastError: "HTTP 500" },
    });
    await prisma.webhookDelivery.updateMany({
      where: { subscriptionId: subB.id, body: { contains: "u-all-0" } },
      data: { status: "failed", lastError: "HTTP 500" },
    });
    const outboxBefore = await prisma.outboxEvent.count({ where: { name: WEBHOOK_DELIVERY_EVENT } });

    as(m.otherAdmin);
    const foreign = await call(redeliverFailedRoute.POST as never, {
      params: { subscriptionId: subA.id },
      body: {},
    });
    expect(foreign.status).toBe(404);

    as(m.admin);
    const res = await call(redeliverFailedRoute.POST as never, {
      params: { subscriptionId: subA.id },
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requeued: 4 });
    expect(await prisma.outboxEvent.count({ where: { name: WEBHOOK_DELIVERY_EVENT } })).toBe(
      outboxBefore + 4,
    );
    const [audit] = await audits("webhook.redelivered_failed", subA.id);
    expect(audit).toMatchObject({ actorId: m.admin.id, details: { deliveries: 4 } });
    // subscription B's failed delivery is untouched
    expect(await prisma.webhookDelivery.count({ where: { subscriptionId: subB.id, status: "failed" } })).toBe(
      1,
    );
    await until(async () => {
      const n = await prisma.webhookDelivery.count({
        where: { subscriptionId: subA.id, status: "delivered" },
      });
      return n === 4 ? n : null;
    }, "the redelivered deliveries");
    const again = await call(redeliverFailedRoute.POST as never, {
      params: { subscriptionId: subA.id },
      body: {},
    });
    expect(again.body).toEqual({ requeued: 0 });
    expect(await audits("webhook.redelivered_failed", subA.id)).toHaveLength(1);
    void ids;
  });
});

describe("rules: publish with a change note", () => {
  it("requires a note, keeps it with the version and in the audit row", async () => {
    await seedDemoRules(clientId);
    as(m.admin);
    const detail = await getRuleDetail(
      { ...m.admin, name: null, role: "admin" },
      { ruleId: "TX-LARGE-AMOUNT" },
    );
    const def = detail.versions[0]!.definition;
    const saved = await call(saveRoute.PUT as never, {
      method: "PUT",
      params: { ruleId: "TX-LARGE-AMOUNT" },
      body: { definition: { ...def, reason: "Large amount (raised threshold)" } },
    });
    expect(saved.status).toBe(200);
    const draft = (
      await getRuleDetail({ ...m.admin, name: null, role: "admin" }, { ruleId: "TX-LARGE-AMOUNT" })
    ).currentVersion;

    const noNote = await call(publishRoute.POST as never, {
      params: { ruleId: "TX-LARGE-AMOUNT" },
      body: { version: draft, status: "dry-run" },
    });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error.details.join(" ")).toContain("change note");
    const blank = await call(publishRoute.POST as never, {
      params: { ruleId: "TX-LARGE-AMOUNT" },
      body: { version: draft, status: "dry-run", note: "   " },
    });
    expect(blank.status).toBe(400);

    const ok = await call(publishRoute.POST as never, {
      params: { ruleId: "TX-LARGE-AMOUNT" },
      body: { version: draft, status: "dry-run", note: "Trial the new reason before activating" },
    });
    expect(ok.status).toBe(200);
    const after = await getRuleDetail(
      { ...m.admin, name: null, role: "admin" },
      { ruleId: "TX-LARGE-AMOUNT" },
    );
    expect(after.liveVersion).toBe(draft);
    expect(after.versions.find((v) => v.version === draft)!.published).toMatchObject({
      by: { name: "Ada Admin", email: m.admin.email },
      note: "Trial the new reason before activating",
    });
    const [row] = await audits("rule.published", "TX-LARGE-AMOUNT");
    expect(row!.details).toMatchObject({ note: "Trial the new reason before activating" });
  });
});

describe("lists: adding what is there already, country codes, ISO expiry dates", () => {
  it("says a value exists instead of replacing its note, and replaces it only when asked", async () => {
    as(m.admin);
    const created = await call(listsRoute.POST as never, { body: { name: "vip", kind: "email" } });
    expect(created.status).toBe(200);
    const listId = created.body.id as string;
    const add = (body: object) => call(entriesRoute.POST as never, { params: { listId }, body });
    const first = await add({ value: "a@b.test", note: "first note" });
    expect(first.body).toMatchObject({ outcome: "added", note: "first note" });
    const dup = await add({ value: "A@B.test ", note: "second note" });
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ outcome: "exists", value: "a@b.test", note: "first note" });
    const stored = await prisma.listEntry.findFirstOrThrow({ where: { listId } });
    expect(stored.note).toBe("first note");
    expect((await audits("list.entry_added", listId)).length).toBe(1);

    const replaced = await add({ value: "A@B.test", note: "second note", replace: true });
    expect(replaced.body).toMatchObject({ outcome: "updated", note: "second note" });
    const [updated] = await audits("list.entry_updated", listId);
    expect(updated!.details).toMatchObject({ from: { note: "first note" }, to: { note: "second note" } });
    expect(await prisma.listEntry.count({ where: { listId } })).toBe(1);
  });

  it("stores country codes in upper case, by hand and from a CSV", async () => {
    as(m.admin);
    const created = await call(listsRoute.POST as never, {
      body: { name: "risky-countries", kind: "country" },
    });
    const listId = created.body.id as string;
    const added = await call(entriesRoute.POST as never, { params: { listId }, body: { value: " ir " } });
    expect(added.body).toMatchObject({ outcome: "added", value: "IR" });
    const up = await call(uploadRoute.POST as never, {
      params: { listId },
      body: { csv: "value,note\nkp,north\nSy,\n", replace: false },
    });
    expect(up.status).toBe(200);
    const values = (await prisma.listEntry.findMany({ where: { listId }, orderBy: { value: "asc" } })).map(
      (e) => e.value,
    );
    expect(values).toEqual(["IR", "KP", "SY"]);
  });

  it("reads expiresAt in a CSV as an ISO day, an ISO time or epoch milliseconds", async () => {
    as(m.admin);
    const created = await call(listsRoute.POST as never, { body: { name: "temp", kind: "string" } });
    const listId = created.body.id as string;
    const csv = [
      "value,expiresAt",
      "day,2030-12-31",
      "time,2030-06-01T12:30:00Z",
      "offset,2030-06-01T12:30:00+02:00",
      "naive,2030-06-01T12:30",
      "epoch,1893456000000",
      "none,",
    ].join("\n");
    const up = await call(uploadRoute.POST as never, { params: { listId }, body: { csv, replace: false } });
    expect(up.status).toBe(200);
    const byValue = Object.fromEntries(
      (await prisma.listEntry.findMany({ where: { listId } })).map((e) => [
        e.value,
        e.expiresAt?.toISOString() ?? null,
      ]),
    );
    expect(byValue).toEqual({
      day: "2030-12-31T23:59:59.999Z",
      time: "2030-06-01T12:30:00.000Z",
      offset: "2030-06-01T10:30:00.000Z",
      naive: "2030-06-01T12:30:00.000Z",
      epoch: "2030-01-01T00:00:00.000Z",
      none: null,
    });
    const bad = await call(uploadRoute.POST as never, {
      params: { listId },
      body: { csv: "value,expiresAt\nx,31/12/2030\n", replace: false },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.join(" ")).toContain("line 2");
    expect(await prisma.listEntry.count({ where: { listId, value: "x" } })).toBe(0);
  });
});
