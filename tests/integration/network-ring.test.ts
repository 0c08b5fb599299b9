import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The dashboard's network view and its ring actions: the enriched network, blocking the selected people
// in one audited action (each exactly like a single block, webhooks received and verified), merging
// linked people's open cases, and the refusals: another client's ids, roles without the permission,
// people not linked, a missing note.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

const { prisma } = await import("@/lib/db");
const { importRules } = await import("@/lib/rules/import-rules");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { sendDeliveryAttempt } = await import("@/lib/webhooks/send-delivery-attempt");
const { call, createTestClient } = await import("@/tests/factories");
const { startReceiver } = await import("@/tests/support/webhook-receiver");
const { POST: postUser } = await import("@/app/v1/user/route");
const { POST: postTransaction } = await import("@/app/v1/transaction/route");
const { POST: subscribe } = await import("@/app/v1/webhooks/route");
const { GET: getNetwork } = await import("@/app/dashboard-api/users/[userId]/network/route");
const { POST: postRingStatus } = await import("@/app/dashboard-api/users/[userId]/network/status/route");
const { POST: postUserStatus } = await import("@/app/dashboard-api/users/[userId]/status/route");
const { POST: postMerge } = await import("@/app/dashboard-api/cases/[caseId]/merge/route");

type TRole = "admin" | "reviewer" | "reporting_officer";
type TTenant = { clientId: string; apiKey: string; people: Record<TRole, { id: string; email: string }> };

const SECRET = "whsec_network-ring-secret";
const RULE = {
  id: "BIG",
  name: "Big amount",
  subject: "transaction",
  status: "active",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  reason: "Amount of 1,000 or more",
  condition: "transaction.amount >= 1000",
};
// Hostile but legal names: 800 letters without a space, and a right-to-left override.
const LONG_NAME = "W".repeat(800);
const RLO_NAME = "\u202Eevil Mallory";

let A: TTenant;
let B: TTenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

async function tenant(prefix: string): Promise<TTenant> {
  const { clientId, apiKey } = await createTestClient({ name: prefix });
  await importRules({ clientId, rules: [RULE] });
  const people = {} as TTenant["people"];
  for (const role of ["admin", "reviewer", "reporting_officer"] as const) {
    const email = `${prefix}-${role}@network.test`;
    const { userId } = await createDashboardUser({
      clientId,
      email,
      password: "correct horse battery",
      role,
      name: `${prefix} ${role}`,
    });
    people[role] = { id: userId, email };
  }
  return { clientId, apiKey, people };
}

async function user(t: TTenant, id: string, extra: Record<string, unknown>) {
  const res = await call(postUser, {
    apiKey: t.apiKey,
    body: { id, timestamp: Date.now() - 60_000, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function alertFor(t: TTenant, userId: string, txId: string) {
  const res = await call(postTransaction, {
    apiKey: t.apiKey,
    body: {
      id: txId,
      userId,
      status: "PENDING",
      currencyCode: "EUR",
      amount: 5000,
      timestamp: Date.now() - 30_000,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

function as(t: TTenant | null, role: TRole = "reviewer") {
  session.current = t ? { user: { id: t.people[role].id } } : null;
}

/** A ring action from the anchor's network view. */
const ringStatus = (body: Record<string, unknown>) =>
  call(postRingStatus, { path: "/x", params: { userId: "anchor" }, body });

const openCaseOf = (clientId: string, userId: string) =>
  prisma.case.findFirstOrThrow({
    where: { clientId, subjectType: "user", subjectId: userId, status: { not: "closed" } },
  });

async function deliverPending(clientId: string) {
  const pending = await prisma.webhookDelivery.findMany({
    where: { clientId, status: "pending" },
    orderBy: { createdAt: "asc" },
  });
  for (const d of pending) {
    await sendDeliveryAttempt({ deliveryId: d.id });
    await prisma.webhookDelivery.update({ where: { id: d.id }, data: { status: "delivered" } });
  }
}

/** A snapshot of everything a refused action must leave alone. */
async function state(clientId: string) {
  const [users, cases, alerts, audit, events] = await Promise.all([
    prisma.user.findMany({ where: { clientId }, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    prisma.case.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    prisma.alert.findMany({ where: { clientId }, select: { id: true, caseId: true, status: true } }),
    prisma.auditLog.count({ where: { clientId } }),
    prisma.caseEvent.count({ where: { clientId } }),
  ]);
  return { users, cases, alerts, audit, events };
}

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  A = await tenant("net-a");
  B = await tenant("net-b");
  const sub = await call(subscribe as never, {
    apiKey: A.apiKey,
    body: { url: receiver.url, events: ["user.status.block", "case.closed"], secret: SECRET },
  });
  expect(sub.status).toBe(200);
  // anchor, long and rlo share a device; rlo and far share a phone (two steps from the anchor)
  const device = (id: string) => ({ userDevice: { id, fingerprint: "fp-ring-1" } });
  await user(A, "anchor", { firstName: "Ana", lastName: "Anchor", ...device("dev-anchor") });
  await user(A, "long", { firstName: LONG_NAME, ...device("dev-long") });
  await user(A, "rlo", { firstName: RLO_NAME, phone: { phone: "+1 555 0199" }, ...device("dev-rlo") });
  await user(A, "far", { firstName: "Far", lastName: "Away", phone: { phone: "+1 555 0199" } });
  await user(A, "lone", { firstName: "Lone", lastName: "Wolf" });
  // the same fingerprint at another client links nobody here
  await user(B, "b-twin", { firstName: "Twin", userDevice: { id: "dev-b", fingerprint: "fp-ring-1" } });
  for (const id of ["anchor", "long", "rlo", "lone"]) await alertFor(A, id, `tx-${id}`);
  await alertFor(B, "b-twin", "tx-b-twin");
});

afterAll(async () => {
  await receiver.close();
});

describe("GET /dashboard-api/users/{userId}/network", () => {
  it("lists the linked people with status, risk, open cases and how they are linked", async () => {
    as(A);
    const res = await call(getNetwork, {
      path: "/dashboard-api/users/anchor/network",
      params: { userId: "anchor" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = res.body.people.map((p: { userId: string }) => p.userId);
    expect(ids[0]).toBe("anchor");
    expect(new Set(ids)).toEqual(new Set(["anchor", "long", "rlo"]));
    const rlo = res.body.people.find((p: { userId: string }) => p.userId === "rlo");
    expect(rlo).toMatchObject({
      name: RLO_NAME,
      status: "active",
      depth: 1,
      openCases: [
        { id: (await openCaseOf(A.clientId, "rlo")).id, status: "open", priority: "high", alertCount: 1 },
      ],
      via: [
        {
          kind: "deviceFingerprint",
          value: "fp-ring-1",
          since: expect.any(Number),
          lastUsedAt: expect.any(Number),
          transactions: expect.any(Number),
        },
      ],
    });
    expect(res.body.identifiers).toContainEqual({
      kind: "deviceFingerprint",
      value: "fp-ring-1",
      userIds: expect.arrayContaining(["anchor", "long", "rlo"]),
    });
  });

  it("reaches two steps and filters by kind", async () => {
    as(A);
    const two = await call(getNetwork, {
      path: "/dashboard-api/users/anchor/network",
      params: { userId: "anchor" },
      query: { depth: "2" },
    });
    expect(two.status).toBe(200);
    const far = two.body.people.find((p: { userId: string }) => p.userId === "far");
    expect(far).toMatchObject({ depth: 2, via: [{ kind: "phone" }] });
    const phones = await call(getNetwork, {
      path: "/dashboard-api/users/anchor/network",
      params: { userId: "anchor" },
      query: { depth: "2", kinds: "phone,email" },
    });
    expect(phones.body.people.map((p: { userId: string }) => p.userId)).toEqual(["anchor"]);
  });

  it("lists counterparties: who the person paid and who paid them, filtered by kind and time", async () => {
    const now = Date.now();
    const pay = async (t: TTenant, id: string, userId: string, recipient: object, agoMs: number) => {
      const res = await call(postTransaction, {
        apiKey: t.apiKey,
        body: {
          id,
          userId,
          status: "APPROVED",
          currencyCode: "EUR",
          amount: 10,
          timestamp: now - agoMs,
          recipient,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const HOUR = 3_600_000;
    await pay(A, "pay-lone-1", "anchor", { id: "lone" }, 3 * HOUR);
    await pay(A, "pay-lone-2", "anchor", { id: "lone" }, 2 * HOUR);
    const account = { paymentMethod: "bank", bank: { accountNumber: "NL91ABNA0417164300" } };
    await pay(A, "pay-account", "anchor", account, 10 * 24 * HOUR);
    // an id this client never stored (it is another client's user): shown as an id, nothing of B's
    await user(B, "b-payee", { firstName: "Secret", lastName: "Of B" });
    await pay(A, "pay-b-id", "anchor", { id: "b-payee" }, 4 * HOUR);
    await pay(A, "pay-from-far", "far", { id: "anchor" }, HOUR);
    // another client paying its own "anchor" id: not this client's counterparty
    await pay(B, "pay-b-anchor", "b-twin", { id: "anchor" }, HOUR);

    as(A);
    const read = (query: Record<string, string> = {}) =>
      call(getNetwork, { path: "/x", params: { userId: "anchor" }, query });
    const all = await read();
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const row = (c: {
      direction: string;
      userId: string | null;
      account: string | null;
      transactions: number;
    }) => [c.direction, c.userId, c.account, c.transactions];
    expect(all.body.counterparties.map(row)).toEqual([
      ["sent", "lone", null, 2],
      ["received", "far", null, 1],
      ["sent", "b-payee", null, 1],
      ["sent", null, "NL91ABNA0417164300", 1],
    ]);
    expect(all.body.counterparties[0]).toMatchObject({
      name: "Lone Wolf",
      status: "active",
      wallet: null,
      firstAt: expect.any(Number),
      lastAt: expect.any(Number),
    });
    expect(all.body.counterparties[0].lastAt - all.body.counterparties[0].firstAt).toBe(HOUR);
    expect(all.body.counterparties[2]).toMatchObject({ userId: "b-payee", name: null, status: null });
    expect(JSON.stringify(all.body)).not.toContain("Secret");
    expect(all.body.counterpartiesTruncated).toBe(false);
    // the people linked by identifiers are unchanged: payments link by counterparty only
    expect(new Set(all.body.people.map((p: { userId: string }) => p.userId))).toEqual(
      new Set(["anchor", "long", "rlo"]),
    );

    // only counterparties: nobody through an identifier; only identifiers: no counterparty
    const onlyPayments = await read({ kinds: "counterparty" });
    expect(onlyPayments.status).toBe(200);
    expect(onlyPayments.body.people.map((p: { userId: string }) => p.userId)).toEqual(["anchor"]);
    expect(onlyPayments.body.counterparties).toHaveLength(4);
    const onlyDevices = await read({ kinds: "deviceFingerprint" });
    expect(onlyDevices.body.counterparties).toEqual([]);
    expect(onlyDevices.body.people).toHaveLength(3);
    // time: the payment to the account ten days ago is left out of the last day
    const lastDay = await read({ since: String(now - 24 * HOUR) });
    expect(lastDay.body.counterparties.map(row)).toEqual([
      ["sent", "lone", null, 2],
      ["received", "far", null, 1],
      ["sent", "b-payee", null, 1],
    ]);
  });

  it("answers 400 for bad filters and 404 for an unknown user", async () => {
    as(A);
    const bad: Record<string, string>[] = [{ depth: "3" }, { kinds: "shoeSize" }, { since: "yesterday" }];
    for (const query of bad) {
      const res = await call(getNetwork, { path: "/x", params: { userId: "anchor" }, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
    }
    const res = await call(getNetwork, { path: "/x", params: { userId: "nobody" } });
    expect(res.status).toBe(404);
  });
});

describe("tenant isolation and roles", () => {
  it("another client's user, case and people are not found, and nothing changes", async () => {
    const before = await state(A.clientId);
    const aCase = await openCaseOf(A.clientId, "anchor");
    const bCase = await openCaseOf(B.clientId, "b-twin");
    as(B);
    expect((await call(getNetwork, { path: "/x", params: { userId: "anchor" } })).status).toBe(404);
    const ring = await call(postRingStatus, {
      path: "/x",
      params: { userId: "anchor" },
      body: { userIds: ["long"], status: "blocked", note: "Ring" },
    });
    expect(ring.status).toBe(404);
    const merge = await call(postMerge, {
      path: "/x",
      params: { caseId: aCase.id },
      body: { caseIds: [bCase.id], note: "x" },
    });
    expect(merge.status).toBe(404);
    // B's own case cannot pull in A's case either
    const pull = await call(postMerge, {
      path: "/x",
      params: { caseId: bCase.id },
      body: { caseIds: [aCase.id], note: "x" },
    });
    expect(pull.status).toBe(404);
    // A's network does not include B's user with the same fingerprint
    as(A);
    const mine = await call(getNetwork, { path: "/x", params: { userId: "anchor" } });
    expect(JSON.stringify(mine.body)).not.toContain("b-twin");
    expect(await state(A.clientId)).toEqual(before);
  });

  it("a reporting officer may look but not act; signed out is 401", async () => {
    const before = await state(A.clientId);
    const aCase = await openCaseOf(A.clientId, "anchor");
    as(A, "reporting_officer");
    expect((await call(getNetwork, { path: "/x", params: { userId: "anchor" } })).status).toBe(200);
    const ring = await call(postRingStatus, {
      path: "/x",
      params: { userId: "anchor" },
      body: { userIds: ["long"], status: "blocked", note: "Ring" },
    });
    expect(ring.status).toBe(403);
    expect(ring.body.error.type).toBe("FORBIDDEN");
    const merge = await call(postMerge, {
      path: "/x",
      params: { caseId: aCase.id },
      body: { caseIds: [(await openCaseOf(A.clientId, "long")).id], note: "x" },
    });
    expect(merge.status).toBe(403);
    as(null);
    expect((await call(getNetwork, { path: "/x", params: { userId: "anchor" } })).status).toBe(401);
    expect(await state(A.clientId)).toEqual(before);
  });
});

describe("ring actions", () => {
  it("refuses a missing note and a person who is not linked, changing nothing", async () => {
    const before = await state(A.clientId);
    as(A);
    const noNote = await call(postRingStatus, {
      path: "/x",
      params: { userId: "anchor" },
      body: { userIds: ["long"], status: "blocked", note: "  " },
    });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error.details).toEqual(["/note: A note is required"]);
    const stranger = await call(postRingStatus, {
      path: "/x",
      params: { userId: "anchor" },
      body: { userIds: ["long", "lone"], status: "blocked", note: "Ring" },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details).toEqual(["/userIds: lone is not linked to anchor"]);
    const strangerCase = await call(postMerge, {
      path: "/x",
      params: { caseId: (await openCaseOf(A.clientId, "anchor")).id },
      body: { caseIds: [(await openCaseOf(A.clientId, "lone")).id], note: "x" },
    });
    expect(strangerCase.status).toBe(400);
    expect(await state(A.clientId)).toEqual(before);
  });

  it("merges a linked person's open case: alerts move, the merged case says where it went", async () => {
    as(A);
    const into = await openCaseOf(A.clientId, "anchor");
    const from = await openCaseOf(A.clientId, "long");
    const movedAlerts = await prisma.alert.findMany({ where: { clientId: A.clientId, caseId: from.id } });
    const res = await call(postMerge, {
      path: "/x",
      params: { caseId: into.id },
      body: { caseIds: [from.id], note: "Same device ring" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: into.id, merged: [from.id], alertsMoved: movedAlerts.length });

    const after = await prisma.case.findUniqueOrThrow({ where: { id: from.id } });
    expect(after).toMatchObject({
      status: "closed",
      outcome: "other",
      closeNote: `Merged into case ${into.id}: Same device ring`,
    });
    const moved = await prisma.alert.findMany({ where: { id: { in: movedAlerts.map((a) => a.id) } } });
    expect(moved.every((a) => a.caseId === into.id)).toBe(true);
    const target = await prisma.case.findUniqueOrThrow({ where: { id: into.id } });
    expect(target.alertCount).toBe(into.alertCount + movedAlerts.length);
    expect(target.status).toBe("in_review");
    const events = await prisma.caseEvent.findMany({
      where: { clientId: A.clientId, caseId: { in: [into.id, from.id] } },
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        caseId: from.id,
        type: "merged_into",
        details: expect.objectContaining({ caseId: into.id }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ caseId: into.id, type: "merged", note: "Same device ring" }),
    );
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { clientId: A.clientId, action: "case.merged" },
    });
    expect(audit).toMatchObject({
      actorId: A.people.reviewer.id,
      entityType: "case",
      entityId: into.id,
      details: {
        caseIds: [from.id],
        userIds: ["long"],
        alertsMoved: movedAlerts.length,
        note: "Same device ring",
      },
    });
    // grouping stays per person: long's next alert opens a case of long's own
    await alertFor(A, "long", "tx-long-2");
    const fresh = await openCaseOf(A.clientId, "long");
    expect(fresh.id).not.toBe(from.id);
    expect(fresh.id).not.toBe(into.id);
  });

  it("blocks the selected people in one audited action, each with its verified user.status.block", async () => {
    as(A);
    receiver.received.length = 0;
    const cases = await prisma.case.findMany({
      where: {
        clientId: A.clientId,
        subjectType: "user",
        subjectId: { in: ["anchor", "long", "rlo"] },
        status: { not: "closed" },
      },
      orderBy: { id: "asc" },
    });
    const res = await call(postRingStatus, {
      path: "/x",
      params: { userId: "anchor" },
      body: { userIds: ["rlo", "anchor", "long"], status: "blocked", note: "Device ring" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("blocked");
    expect(res.body.users.map((u: { userId: string; changed: boolean }) => [u.userId, u.changed])).toEqual([
      ["anchor", true],
      ["long", true],
      ["rlo", true],
    ]);
    expect(res.body.caseIds).toEqual(cases.map((c) => c.id));

    const users = await prisma.user.findMany({ where: { clientId: A.clientId }, orderBy: { id: "asc" } });
    expect(Object.fromEntries(users.map((u) => [u.id, u.status]))).toEqual({
      anchor: "blocked",
      far: "active",
      long: "blocked",
      lone: "active",
      rlo: "blocked",
    });
    // each person as a single block: a status change by the reviewer and their own audit row
    const changes = await prisma.userStatusChange.findMany({
      where: { clientId: A.clientId, toStatus: "blocked" },
      orderBy: { userId: "asc" },
    });
    expect(changes.map((c) => [c.userId, c.source, c.comment, c.reviewer])).toEqual([
      ["anchor", "dashboard", "Device ring", A.people.reviewer.email],
      ["long", "dashboard", "Device ring", A.people.reviewer.email],
      ["rlo", "dashboard", "Device ring", A.people.reviewer.email],
    ]);
    expect(
      await prisma.auditLog.count({ where: { clientId: A.clientId, action: "user.status.blocked" } }),
    ).toBe(3);
    const ringAudit = await prisma.auditLog.findFirstOrThrow({
      where: { clientId: A.clientId, action: "users.ring.blocked" },
    });
    expect(ringAudit).toMatchObject({
      actorType: "dashboard_user",
      actorId: A.people.reviewer.id,
      entityType: "user",
      entityId: "anchor",
      details: {
        status: "blocked",
        note: "Device ring",
        userIds: ["anchor", "long", "rlo"],
        changed: ["anchor", "long", "rlo"],
        caseIds: cases.map((c) => c.id),
      },
    });
    // open alerts confirmed with the note, and every open case told
    const open = await prisma.alert.count({
      where: { clientId: A.clientId, userId: { in: ["anchor", "long", "rlo"] }, status: "open" },
    });
    expect(open).toBe(0);
    for (const c of cases)
      expect(
        await prisma.caseEvent.count({ where: { caseId: c.id, type: "user_blocked", note: "Device ring" } }),
      ).toBeGreaterThan(0);

    await deliverPending(A.clientId);
    const blocks = receiver.received.filter((r) => r.event === "user.status.block");
    expect(blocks).toHaveLength(3);
    expect(blocks.every((r) => r.verified)).toBe(true);
    expect(
      blocks
        .map((r) => (r.body as { payload: { id: string; status: string; reason: string } }).payload)
        .sort((x, y) => x.id.localeCompare(y.id)),
    ).toEqual(
      ["anchor", "long", "rlo"].map((id) => ({
        id,
        status: "blocked",
        reason: `Device ring (reviewer: ${A.people.reviewer.email})`,
        updatedAt: expect.any(Number),
      })),
    );
  });

  it("blocking again changes no one and sends nothing; inactive is a status change without webhook", async () => {
    as(A);
    receiver.received.length = 0;
    const again = await ringStatus({ userIds: ["long"], status: "blocked", note: "Again" });
    expect(again.status).toBe(200);
    expect(again.body.users).toEqual([{ userId: "long", changed: false, alertsClosed: 0 }]);
    const inactive = await ringStatus({
      userIds: ["far"],
      status: "inactive",
      note: "Shares a phone with the ring",
    });
    // far is two steps away: still part of the network the reviewer saw
    expect(inactive.status, JSON.stringify(inactive.body)).toBe(200);
    expect((await prisma.user.findFirstOrThrow({ where: { clientId: A.clientId, id: "far" } })).status).toBe(
      "inactive",
    );
    await deliverPending(A.clientId);
    expect(receiver.received.filter((r) => r.event.startsWith("user.status"))).toEqual([]);
  });

  it("a ring block sends exactly what a single block sends: the same signed user.status.block", async () => {
    as(A);
    receiver.received.length = 0;
    const ring = await ringStatus({ userIds: ["far"], status: "blocked", note: "Same reason" });
    expect(ring.status, JSON.stringify(ring.body)).toBe(200);
    await deliverPending(A.clientId);
    const single = await call(postUserStatus as never, {
      path: "/x",
      params: { userId: "lone" },
      body: { status: "blocked", comment: "Same reason" },
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    await deliverPending(A.clientId);
    const got = receiver.received.filter((r) => r.event.startsWith("user."));
    expect(got.map((r) => [r.event, r.verified])).toEqual([
      ["user.status.block", true],
      ["user.status.block", true],
    ]);
    // the same envelope and payload, but for the person and the moment
    const shape = (body: unknown) => {
      const { payload, ...envelope } = body as { payload: Record<string, unknown> };
      return {
        envelope: Object.keys(envelope).sort(),
        payload: { ...payload, id: "(person)", updatedAt: typeof payload.updatedAt },
      };
    };
    expect(shape(got[0]!.body)).toEqual(shape(got[1]!.body));
    expect((got[0]!.body as { payload: { id: string } }).payload.id).toBe("far");
    expect((got[1]!.body as { payload: { id: string } }).payload.id).toBe("lone");
    expect(shape(got[1]!.body).payload).toEqual({
      id: "(person)",
      status: "blocked",
      reason: `Same reason (reviewer: ${A.people.reviewer.email})`,
      updatedAt: "number",
    });
  });
});
