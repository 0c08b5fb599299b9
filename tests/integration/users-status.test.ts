import { beforeAll, describe, expect, it } from "vitest";
import { POST as postUser } from "@/app/v1/user/route";
import { PUT as putBlock } from "@/app/v1/users/[userId]/block/route";
import { GET as getUserRoute } from "@/app/v1/users/[userId]/route";
import { PUT as putStatus } from "@/app/v1/users/[userId]/status/route";
import { PUT as putUnblock } from "@/app/v1/users/[userId]/unblock/route";
import { PUT as putAttributeStatus } from "@/app/v1/users/attributes/status/route";
import { PUT as putTransactionStatus } from "@/app/v1/users/transactions/[transactionId]/status/route";
import { prisma } from "@/lib/db";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import { indexIdentifiers } from "@/tests/oracle/index-identifiers";
import { upsertDevice } from "@/tests/oracle/upsert-device";
import { upsertUser } from "@/tests/oracle/upsert-user";
import { call, createTestClient } from "@/tests/factories";

let apiKey: string;
let clientId: string;
let otherKey: string;
let otherClientId: string;

beforeAll(async () => {
  ({ apiKey, clientId } = await createTestClient());
  ({ apiKey: otherKey, clientId: otherClientId } = await createTestClient({ name: "Other" }));
  for (const id of [clientId, otherClientId]) {
    await prisma.webhookSubscription.create({
      data: {
        clientId: id,
        url: "https://receiver.example/hook",
        events: ["user.status.block", "user.status.unblock"],
        secretEncrypted: "unused-in-this-test",
      },
    });
  }
});

async function createUser(id: string, extra: Record<string, unknown> = {}, key = apiKey) {
  const res = await call(postUser, { apiKey: key, body: { id, timestamp: Date.now() - 1000, ...extra } });
  expect(res.status).toBe(200);
}

async function deliveries(userId: string, cid = clientId) {
  const rows = await prisma.webhookDelivery.findMany({
    where: { clientId: cid },
    orderBy: { createdAt: "asc" },
  });
  return rows
    .map((r) => JSON.parse(r.body) as { event: string; payload: Record<string, unknown>; timestamp: number })
    .filter((b) => b.payload.id === userId);
}

const put = (handler: typeof putBlock, userId: string, body?: unknown, key = apiKey) =>
  call(handler, { apiKey: key, method: "PUT", params: { userId }, body });

describe("PUT /v1/users/{userId}/block and /unblock", () => {
  it("blocks once: a second block changes nothing and emits no second webhook", async () => {
    await createUser("u-block");
    const first = await put(putBlock, "u-block", { comment: "Chargeback ring", reviewer: "ana" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: "u-block",
      status: "blocked",
      updatedAt: expect.any(Number),
      changed: true,
    });
    const second = await put(putBlock, "u-block", { comment: "again", reviewer: "bob" });
    expect(second.body).toMatchObject({
      id: "u-block",
      status: "blocked",
      changed: false,
      updatedAt: first.body.updatedAt,
    });

    const sent = await deliveries("u-block");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      event: "user.status.block",
      payload: {
        id: "u-block",
        status: "blocked",
        reason: "Chargeback ring (reviewer: ana)",
        updatedAt: first.body.updatedAt,
      },
      timestamp: expect.any(Number),
    });
    const user = await call(getUserRoute, { apiKey, params: { userId: "u-block" } });
    expect(user.body.user).toMatchObject({ status: "blocked", reason: "Chargeback ring (reviewer: ana)" });
    const history = await prisma.userStatusChange.findMany({
      where: { clientId, userId: "u-block", source: "api", fromStatus: { not: null } },
    });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      fromStatus: "active",
      toStatus: "blocked",
      comment: "Chargeback ring",
      reviewer: "ana",
    });
  });

  it("emits exactly one webhook for concurrent identical blocks", async () => {
    await createUser("u-race");
    const results = await Promise.all([1, 2, 3, 4].map(() => put(putBlock, "u-race", { comment: "race" })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.changed)).toHaveLength(1);
    expect(await deliveries("u-race")).toHaveLength(1);
  });

  it("unblocks a blocked user with one webhook, and sends none for a user who is not blocked", async () => {
    await createUser("u-unblock");
    await put(putBlock, "u-unblock", {});
    const res = await put(putUnblock, "u-unblock", { comment: "Cleared", reviewer: "carla" });
    expect(res.body).toMatchObject({ id: "u-unblock", status: "active", changed: true });
    const again = await put(putUnblock, "u-unblock", { comment: "Cleared", reviewer: "carla" });
    expect(again.body).toMatchObject({ status: "active", changed: false });
    const sent = await deliveries("u-unblock");
    expect(sent.map((s) => s.event)).toEqual(["user.status.block", "user.status.unblock"]);
    expect(sent[1]!.payload).toEqual({
      id: "u-unblock",
      status: "active",
      reason: "Cleared (reviewer: carla)",
      updatedAt: res.body.updatedAt,
    });

    await createUser("u-never-blocked");
    const none = await put(putUnblock, "u-never-blocked", { comment: "nothing to do" });
    expect(none.body).toMatchObject({ status: "active", changed: false });
    expect(await deliveries("u-never-blocked")).toHaveLength(0);
  });

  it("accepts a request with no body", async () => {
    await createUser("u-nobody");
    const res = await call(putBlock, { apiKey, method: "PUT", params: { userId: "u-nobody" } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("blocked");
    // An empty stream without Content-Length, as Next hands over a body-less PUT.
    const empty = await call(putUnblock, {
      apiKey,
      method: "PUT",
      params: { userId: "u-nobody" },
      rawBody: "",
    });
    expect(empty.status).toBe(200);
    expect(empty.body.status).toBe("active");
    const blank = await call(putBlock, {
      apiKey,
      method: "PUT",
      params: { userId: "u-nobody" },
      rawBody: " \n",
    });
    expect(blank.body.status).toBe("blocked");
  });

  it("validates the body", async () => {
    const res = await put(putBlock, "u-block", { comment: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(["/comment: Expected string"]);
    const bad = await put(putUnblock, "u-block", { reviewer: ["x"] });
    expect(bad.body.error.details).toEqual(["/reviewer: Expected string"]);
  });

  it("answers 404 for unknown and other clients' users", async () => {
    for (const handler of [putBlock, putUnblock, putStatus]) {
      const res = await put(handler, "ghost", {});
      expect(res.status).toBe(404);
      expect(res.body.error.details).toEqual(["/userId: User not found"]);
      expect((await put(handler, "u-block", {}, otherKey)).status).toBe(404);
    }
    expect(await deliveries("u-block", otherClientId)).toHaveLength(0);
  });
});

describe("PUT /v1/users/{userId}/status", () => {
  it("sets active or inactive and records closure details", async () => {
    await createUser("u-close");
    const res = await put(putStatus, "u-close", {
      status: "INACTIVE",
      closureType: "user_requested",
      completedAt: Date.now(),
      comment: "Closed on request",
      initiatedBy: "support-7",
      reason: "NO_REASON",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "u-close", status: "inactive", changed: true });
    const change = await prisma.userStatusChange.findFirstOrThrow({
      where: { clientId, userId: "u-close", toStatus: "inactive" },
    });
    expect(change).toMatchObject({
      reviewer: "support-7",
      reason: "NO_REASON",
      comment: "Closed on request",
    });
    expect(change.details).toMatchObject({ closureType: "user_requested" });
    const user = await call(getUserRoute, { apiKey, params: { userId: "u-close" } });
    expect(user.body.user.reason).toBe("NO_REASON: Closed on request (reviewer: support-7)");
    expect(await deliveries("u-close")).toHaveLength(0);

    const same = await put(putStatus, "u-close", { status: "inactive" });
    expect(same.body.changed).toBe(false);
    const none = await put(putStatus, "u-close", {});
    expect(none.body).toMatchObject({ status: "inactive", changed: false });
  });

  it("moves a blocked user back to active with the unblock webhook; blocked → inactive sends none", async () => {
    await createUser("u-status-unblock");
    await put(putBlock, "u-status-unblock", { comment: "fraud ring" });
    const active = await put(putStatus, "u-status-unblock", { status: "ACTIVE" });
    expect(active.body).toMatchObject({ status: "active", changed: true });
    expect((await deliveries("u-status-unblock")).map((d) => d.event)).toEqual([
      "user.status.block",
      "user.status.unblock",
    ]);

    await createUser("u-status-inactive");
    await put(putBlock, "u-status-inactive", { comment: "fraud ring" });
    const inactive = await put(putStatus, "u-status-inactive", { status: "inactive" });
    expect(inactive.body).toMatchObject({ status: "inactive", changed: true });
    expect((await deliveries("u-status-inactive")).map((d) => d.event)).toEqual(["user.status.block"]);
  });

  it("takes only active or inactive (blocking has its own endpoint)", async () => {
    await createUser("u-status-blocked");
    const res = await put(putStatus, "u-status-blocked", { status: "blocked" });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(["/status: Expected one of: active, inactive"]);
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-status-blocked" } } }))
        .status,
    ).toBe("active");
  });

  it("validates each field", async () => {
    for (const [body, path] of [
      [{ status: "deleted" }, "/status"],
      [{ closureType: "forever" }, "/closureType"],
      [{ reason: "BORED" }, "/reason"],
      [{ completedAt: "today" }, "/completedAt"],
    ] as const) {
      const res = await put(putStatus, "u-close", body);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0]).toMatch(new RegExp(`^${path}: `));
    }
  });
});

describe("PUT /v1/users/transactions/{transactionId}/status", () => {
  async function insertTransaction(id: string, userId: string, data: Record<string, unknown>) {
    await prisma.transaction.create({
      data: {
        clientId,
        id,
        userId,
        status: "APPROVED",
        currencyCode: "USD",
        amount: 5,
        occurredAt: new Date(),
        data: { id, userId, ...data },
        bodyHash: id,
        riskLevel: "low",
        recommendedAction: "ALLOW",
        assessedAt: new Date(),
      },
    });
  }

  beforeAll(async () => {
    for (const id of ["tp-sender", "tp-r1", "tp-r2", "tp-single"]) await createUser(id);
    await insertTransaction("tp-multi", "tp-sender", {
      recipients: [{ id: "tp-r1" }, { id: "tp-r2" }, { id: "tp-unknown" }],
    });
    await insertTransaction("tp-one", "tp-sender", { recipient: { id: "tp-single" } });
  });

  const putTx = (transactionId: string, body?: unknown, key = apiKey) =>
    call(putTransactionStatus, { apiKey: key, method: "PUT", params: { transactionId }, body });

  it("blocks the sender by default", async () => {
    const res = await putTx("tp-one", { comment: "mule", reviewer: "dan" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ transactionId: "tp-one", users: [{ id: "tp-sender", status: "blocked" }] });
    expect((await deliveries("tp-sender")).map((d) => d.event)).toEqual(["user.status.block"]);
  });

  it("sets the recipients' status", async () => {
    const res = await putTx("tp-multi", { parties: "recipient", status: "inactive" });
    expect(res.body).toEqual({
      transactionId: "tp-multi",
      users: [
        { id: "tp-r1", status: "inactive" },
        { id: "tp-r2", status: "inactive" },
        { id: "tp-unknown", status: "inactive" },
      ],
    });
    const single = await putTx("tp-one", { parties: "recipient", status: "blocked" });
    expect(single.body.users).toEqual([{ id: "tp-single", status: "blocked" }]);
  });

  it("sets both parties", async () => {
    const res = await putTx("tp-multi", { parties: "both", status: "active" });
    expect(res.body.users).toEqual([
      { id: "tp-r1", status: "active" },
      { id: "tp-r2", status: "active" },
      { id: "tp-sender", status: "active" },
      { id: "tp-unknown", status: "active" },
    ]);
    // A recipient known only from the transaction now has a record holding the status.
    const stub = await prisma.user.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "tp-unknown" } },
    });
    expect(stub.status).toBe("active");
    expect((await deliveries("tp-sender")).map((d) => d.event)).toEqual([
      "user.status.block",
      "user.status.unblock",
    ]);
    const history = await prisma.userStatusChange.findMany({
      where: { clientId, userId: "tp-r1", source: "transaction" },
    });
    expect(history.map((h) => h.toStatus)).toEqual(["inactive", "active"]);
  });

  it("validates the body", async () => {
    const res = await putTx("tp-one", { parties: "everyone" });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatch(/^\/parties: /);
    const status = await putTx("tp-one", { status: "banned" });
    expect(status.body.error.details[0]).toMatch(/^\/status: /);
  });

  it("answers 404 for an unknown or another client's transaction", async () => {
    const res = await putTx("tp-none", {});
    expect(res.status).toBe(404);
    expect(res.body.error.details).toEqual(["/transactionId: Transaction not found"]);
    expect((await putTx("tp-one", {}, otherKey)).status).toBe(404);
  });
});

describe("PUT /v1/users/attributes/status", () => {
  const putAttr = (body: unknown, key = apiKey) =>
    call(putAttributeStatus, { apiKey: key, method: "PUT", body });

  beforeAll(async () => {
    // Identifiers seeded the way production writes them: users, devices, transactions, instruments.
    await prisma.$transaction(async (tx) => {
      const user = (id: string, extra: Record<string, unknown> = {}) =>
        upsertUser(tx, { clientId, user: { id, timestamp: Date.now() - 1000, ...extra }, source: "api" });
      await user("at-a", { phone: { phone: "+254 700 000 001" }, email: { email: "Shared@Example.com" } });
      await user("at-b", { phone: { phone: "+254700000001" } });
      await user("at-c", { email: { email: "shared@example.com" } });
      await user("at-d");
      await user("at-e");
      await user("at-f");
      await user("at-g");
      await upsertDevice(tx, {
        clientId,
        userId: "at-d",
        device: { id: "dev-d", fingerprint: "fp-shared", ipAddress: "203.0.113.9" },
      });
      await upsertDevice(tx, {
        clientId,
        userId: "at-e",
        device: { id: "dev-e", fingerprint: "fp-shared", ipAddress: "203.0.113.10" },
      });
      await upsertDevice(tx, {
        clientId,
        userId: "at-f",
        device: { id: "dev-f", fingerprint: "fp-other", ipAddress: "203.0.113.9" },
      });
      // A transaction's payment methods (card.cardFingerprint) and an instrument's (card.fingerprint).
      await indexIdentifiers(tx, {
        clientId,
        userId: "at-d",
        source: "transaction",
        identifiers: identifiersFromPaymentMethods({
          card: { cardFingerprint: "card-fp-1" },
          wallet: { taxNumberId: "TAX-9", phone: "+5511999990000" },
        }),
      });
      await indexIdentifiers(tx, {
        clientId,
        userId: "at-g",
        source: "paymentInstrument",
        identifiers: identifiersFromPaymentMethods({
          card: { fingerprint: "card-fp-1" },
          bank: { accountNumber: "GB00 1234" },
          crypto: { address: "bc1qxyz" },
        }),
      });
      await indexIdentifiers(tx, {
        clientId,
        userId: "at-f",
        source: "transaction",
        identifiers: identifiersFromPaymentMethods({ wallet: { taxNumberId: "TAX-9" } }),
      });
    });
    // The same values at another client must never match.
    await prisma.$transaction(async (tx) => {
      await upsertUser(tx, {
        clientId: otherClientId,
        user: { id: "at-a", timestamp: Date.now() - 1000, phone: { phone: "+254700000001" } },
        source: "api",
      });
      await upsertDevice(tx, {
        clientId: otherClientId,
        userId: "at-a",
        device: { id: "dev-x", fingerprint: "fp-shared", ipAddress: "203.0.113.9" },
      });
    });
  });

  async function statuses(): Promise<Record<string, string>> {
    const rows = await prisma.user.findMany({
      where: { clientId, id: { startsWith: "at-" } },
      orderBy: { id: "asc" },
    });
    return Object.fromEntries(rows.map((r) => [r.id, r.status]));
  }

  async function reset() {
    await prisma.user.updateMany({
      where: { clientId, id: { startsWith: "at-" } },
      data: { status: "active" },
    });
  }

  it.each([
    ["phone", "+254700000001", ["at-a", "at-b"]],
    ["email", "SHARED@example.com", ["at-a", "at-c"]],
    ["deviceFingerprint", "fp-shared", ["at-d", "at-e"]],
    ["ipAddress", "203.0.113.9", ["at-d", "at-f"]],
    ["cardFingerprint", "card-fp-1", ["at-d", "at-g"]],
    ["walletTaxNumberId", "TAX-9", ["at-d", "at-f"]],
    ["walletPhone", "+5511999990000", ["at-d"]],
    ["bankAccountNumber", "GB001234", ["at-g"]],
    ["cryptoAddress", "bc1qxyz", ["at-g"]],
    ["phone", "+10000000000", []],
  ])("blocks exactly the users sharing %s %s", async (attribute, value, expected) => {
    await reset();
    const res = await putAttr({ attribute, value, comment: "linked to fraud", reviewer: "eve" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "success", matchedUsers: expected.length });
    const after = await statuses();
    for (const [id, status] of Object.entries(after))
      expect([id, status]).toEqual([id, expected.includes(id) ? "blocked" : "active"]);
  });

  it("applies a given status case-insensitively, with aliases", async () => {
    await reset();
    const res = await putAttr({ attribute: "deviceFingerprint", value: "fp-shared", status: "Declined" });
    expect(res.body).toEqual({ status: "success", matchedUsers: 2 });
    expect((await statuses())["at-d"]).toBe("inactive");
    const change = await prisma.userStatusChange.findFirstOrThrow({
      where: { clientId, userId: "at-d", source: "attribute", toStatus: "inactive" },
    });
    expect(change.details).toMatchObject({ attribute: "deviceFingerprint", value: "fp-shared" });
  });

  it("does not touch another client's users", async () => {
    await putAttr({ attribute: "deviceFingerprint", value: "fp-shared" });
    const other = await prisma.user.findUniqueOrThrow({
      where: { clientId_id: { clientId: otherClientId, id: "at-a" } },
    });
    expect(other.status).toBe("active");
    const res = await putAttr({ attribute: "phone", value: "+254700000001" }, otherKey);
    expect(res.body.matchedUsers).toBe(1);
  });

  it("blocks a user known only from a transaction, giving them a record", async () => {
    await prisma.$transaction((tx) =>
      indexIdentifiers(tx, {
        clientId,
        userId: "at-ghost",
        source: "transaction",
        identifiers: identifiersFromPaymentMethods({ crypto: { address: "bc1qghost" } }),
      }),
    );
    const res = await putAttr({
      attribute: "cryptoAddress",
      value: "bc1qghost",
      comment: "sanctioned wallet",
    });
    expect(res.body).toEqual({ status: "success", matchedUsers: 1 });
    const ghost = await prisma.user.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "at-ghost" } },
    });
    expect(ghost.status).toBe("blocked");
    expect((await deliveries("at-ghost")).map((d) => d.event)).toEqual(["user.status.block"]);
    // Sending the user later keeps the block.
    await createUser("at-ghost", { firstName: "Late" });
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "at-ghost" } } })).status,
    ).toBe("blocked");
  });

  it("validates attribute, value and status", async () => {
    for (const [body, path] of [
      [{ value: "x" }, "/attribute"],
      [{ attribute: "phone" }, "/value"],
      [{ attribute: "phone", value: "" }, "/value"],
      [{ attribute: "shoeSize", value: "42" }, "/attribute"],
      [{ attribute: "phone", value: "1", status: "gone" }, "/status"],
    ] as const) {
      const res = await putAttr(body);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0]).toMatch(new RegExp(`^${path}: `));
    }
  });
});
