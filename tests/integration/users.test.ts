import { beforeAll, describe, expect, it } from "vitest";
import { POST as postUser } from "@/app/v1/user/route";
import { POST as postDevice } from "@/app/v1/user/device/route";
import { POST as postFeedback } from "@/app/v1/user/feedback/route";
import { GET as getUserRoute } from "@/app/v1/users/[userId]/route";
import { GET as getTransactionUserRoute } from "@/app/v1/users/transactions/[transactionId]/route";
import { prisma } from "@/lib/db";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { call, createTestClient } from "@/tests/factories";

let apiKey: string;
let clientId: string;
let otherKey: string;

beforeAll(async () => {
  ({ apiKey, clientId } = await createTestClient());
  ({ apiKey: otherKey } = await createTestClient({ name: "Other" }));
});

const now = () => Date.now();

async function createUser(body: Record<string, unknown>, key = apiKey) {
  return call(postUser, { apiKey: key, body });
}

function expectValidation(res: { status: number; body: any }, path: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe("VALIDATION_ERROR");
  expect(res.body.error.message).toBe("Request validation failed");
  expect(res.body.error.details.some((d: string) => d.startsWith(`${path}: `))).toBe(true);
}

describe("POST /v1/user", () => {
  it("creates a user and answers { id, status: success }", async () => {
    const ts = now() - 86_400_000;
    const res = await createUser({
      id: "u-create",
      timestamp: ts,
      firstName: "Ada",
      lastName: "Lovelace",
      email: { email: "Ada@Example.com" },
      phone: { phone: "+44 20 7946 0000" },
      address: { postalCode: "N1 9GU", country: "GB", city: "London" },
      unknownField: "ignored",
    });
    expect(res).toMatchObject({ status: 200, body: { id: "u-create", status: "success" } });
    const row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-create" } } });
    expect(row.createdAt.getTime()).toBe(ts);
    expect(row.status).toBe("active");
    expect(row.data).not.toHaveProperty("unknownField");
    const identifiers = await prisma.userIdentifier.findMany({
      where: { clientId, userId: "u-create" },
      orderBy: { kind: "asc" },
    });
    expect(identifiers.map((i) => [i.kind, i.value])).toEqual([
      ["email", "ada@example.com"],
      ["phone", "+442079460000"],
    ]);
  });

  it("keeps the first timestamp as createdAt and replaces the other fields on update", async () => {
    const first = now() - 10 * 86_400_000;
    await createUser({
      id: "u-update",
      timestamp: first,
      firstName: "Old",
      email: { email: "old@example.com" },
    });
    const res = await createUser({
      id: "u-update",
      timestamp: now() - 1000,
      firstName: "New",
      lastName: "Name",
      email: { email: "new@example.com" },
    });
    expect(res.status).toBe(200);
    const row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-update" } } });
    expect(row.createdAt.getTime()).toBe(first);
    expect(row.firstName).toBe("New");
    expect(row.lastName).toBe("Name");
    expect(row.updatedAt.getTime()).toBeGreaterThan(first);
    const emails = await prisma.userIdentifier.findMany({
      where: { clientId, userId: "u-update", kind: "email" },
    });
    expect(emails.map((e) => e.value)).toEqual(["new@example.com"]);
  });

  it("maps status aliases case-insensitively and records status changes", async () => {
    await createUser({ id: "u-status", timestamp: now() - 1000, status: "pending" });
    let row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-status" } } });
    expect(row.status).toBe("active");
    await createUser({ id: "u-status", timestamp: now() - 1000, status: "DECLINED" });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-status" } } });
    expect(row.status).toBe("inactive");
    await createUser({ id: "u-status", timestamp: now() - 1000, status: "Approved" });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-status" } } });
    expect(row.status).toBe("active");
    await createUser({ id: "u-status", timestamp: now() - 1000, status: "BLOCKED" });
    // No status in the body keeps the current one.
    await createUser({ id: "u-status", timestamp: now() - 1000, firstName: "Still blocked" });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-status" } } });
    expect(row.status).toBe("blocked");
    const changes = await prisma.userStatusChange.findMany({
      where: { clientId, userId: "u-status" },
      orderBy: { createdAt: "asc" },
    });
    expect(changes.map((c) => [c.fromStatus, c.toStatus, c.source])).toEqual([
      [null, "active", "api"],
      ["active", "inactive", "api"],
      ["inactive", "active", "api"],
      ["active", "blocked", "api"],
    ]);
  });

  it("stores an inline userDevice", async () => {
    await createUser({
      id: "u-inline-device",
      timestamp: now() - 1000,
      userDevice: { id: "dev-inline", ipAddress: "10.0.0.1", fingerprint: "fp-inline", platform: "iOS" },
    });
    const device = await prisma.device.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "dev-inline" } },
    });
    expect(device).toMatchObject({
      userId: "u-inline-device",
      ipAddress: "10.0.0.1",
      fingerprint: "fp-inline",
    });
    expect((device.data as any).platform).toBe("ios");
  });

  it("rejects each invalid field at its path", async () => {
    expectValidation(await createUser({ timestamp: now() }), "/id");
    expectValidation(await createUser({ id: "", timestamp: now() }), "/id");
    expectValidation(await createUser({ id: "x" }), "/timestamp");
    expectValidation(await createUser({ id: "x", timestamp: "yesterday" }), "/timestamp");
    expectValidation(await createUser({ id: "x", timestamp: now() + 3_600_000 }), "/timestamp");
    expectValidation(
      await createUser({ id: "x", timestamp: now(), address: { country: "US" } }),
      "/address/postalCode",
    );
    expectValidation(
      await createUser({ id: "x", timestamp: now(), address: { postalCode: "10001" } }),
      "/address/country",
    );
    expectValidation(
      await createUser({ id: "x", timestamp: now(), address: { postalCode: "10001", country: "usa" } }),
      "/address/country",
    );
    expectValidation(await createUser({ id: "x", timestamp: now(), status: "deleted" }), "/status");
    expectValidation(
      await createUser({ id: "x", timestamp: now(), dateOfBirth: "1990-13-45" }),
      "/dateOfBirth",
    );
    expectValidation(
      await createUser({ id: "x", timestamp: now(), salary: { cycle: "yearly" } }),
      "/salary/cycle",
    );
    expectValidation(
      await createUser({ id: "x", timestamp: now(), userDevice: { fingerprint: "f" } }),
      "/userDevice/id",
    );
    expectValidation(
      await createUser({ id: "x", timestamp: now(), userDevice: { id: "d", platform: "symbian" } }),
      "/userDevice/platform",
    );
    expectValidation(await call(postUser, { apiKey, rawBody: "{not json" }), "/");
    expect(await prisma.user.count({ where: { clientId, id: "x" } })).toBe(0);
  });

  it("answers 401 without a key and 405 for other methods", async () => {
    expect((await call(postUser, { body: { id: "x", timestamp: now() } })).status).toBe(401);
  });
});

describe("GET /v1/users/{userId}", () => {
  it("returns the user record with lowercase status", async () => {
    const ts = now() - 5000;
    await createUser({
      id: "u-get",
      timestamp: ts,
      firstName: "Grace",
      lastName: "Hopper",
      status: "APPROVED",
    });
    const res = await call(getUserRoute, { apiKey, params: { userId: "u-get" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        id: "u-get",
        createdAt: ts,
        updatedAt: expect.any(Number),
        firstName: "Grace",
        lastName: "Hopper",
        status: "active",
        reason: "",
      },
    });
  });

  it("answers 404 naming /userId for unknown and other clients' users", async () => {
    const res = await call(getUserRoute, { apiKey, params: { userId: "nobody" } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: "NOT_FOUND",
      message: "User not found",
      details: ["/userId: User not found"],
    });
    const cross = await call(getUserRoute, { apiKey: otherKey, params: { userId: "u-get" } });
    expect(cross.status).toBe(404);
  });
});

describe("POST /v1/user/device", () => {
  it("stores a device with first and last seen and links its identifiers", async () => {
    await createUser({ id: "u-dev", timestamp: now() - 1000 });
    const body = {
      userId: "u-dev",
      device: {
        id: "dev-1",
        ipAddress: "192.0.2.7",
        fingerprint: "fp-1",
        platform: "android",
        isVpn: true,
        location: { latitude: 1.5, longitude: 2.5, country: "KE", city: "Nairobi" },
      },
    };
    const res = await call(postDevice, { apiKey, body });
    expect(res).toMatchObject({ status: 200, body: { id: "dev-1", status: "success" } });
    const first = await prisma.device.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "dev-1" } },
    });
    await call(postDevice, { apiKey, body: { ...body, device: { ...body.device, ipAddress: "192.0.2.8" } } });
    const second = await prisma.device.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "dev-1" } },
    });
    expect(second.firstSeenAt).toEqual(first.firstSeenAt);
    expect(second.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first.lastSeenAt.getTime());
    expect(second.ipAddress).toBe("192.0.2.8");
    const ids = await prisma.userIdentifier.findMany({
      where: { clientId, userId: "u-dev" },
      orderBy: [{ kind: "asc" }, { value: "asc" }],
    });
    expect(ids.map((i) => [i.kind, i.value])).toEqual([
      ["deviceFingerprint", "fp-1"],
      ["ipAddress", "192.0.2.7"],
      ["ipAddress", "192.0.2.8"],
    ]);
  });

  it("validates the body", async () => {
    expectValidation(await call(postDevice, { apiKey, body: { device: { id: "d" } } }), "/userId");
    expectValidation(await call(postDevice, { apiKey, body: { userId: "u-dev" } }), "/device");
    expectValidation(await call(postDevice, { apiKey, body: { userId: "u-dev", device: {} } }), "/device/id");
    expectValidation(
      await call(postDevice, { apiKey, body: { userId: "u-dev", device: { id: "d", isTor: "yes" } } }),
      "/device/isTor",
    );
  });

  it("answers 404 for an unknown or another client's user", async () => {
    const res = await call(postDevice, { apiKey, body: { userId: "ghost", device: { id: "d" } } });
    expect(res.status).toBe(404);
    expect(res.body.error.details).toEqual(["/userId: User not found"]);
    expect(
      (await call(postDevice, { apiKey: otherKey, body: { userId: "u-dev", device: { id: "d" } } })).status,
    ).toBe(404);
  });
});

describe("POST /v1/user/feedback", () => {
  const feedback = (userId: string, status: string) => ({
    userId,
    onboardingFeedback: { status, description: `KYC ${status}`, createdAt: now(), id: "fb-1", type: "KYC" },
    kycDetail: { kycStatus: "verified" },
  });

  it("records the feedback and applies its effect on the status", async () => {
    await createUser({ id: "u-fb", timestamp: now() - 1000 });
    const res = await call(postFeedback, { apiKey, body: feedback("u-fb", "DECLINED") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), userId: "u-fb" });
    let row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-fb" } } });
    expect(row.status).toBe("inactive");
    expect((row.data as any).onboardingFeedback.status).toBe("DECLINED");
    expect((row.data as any).kycDetail.kycStatus).toBe("verified");

    await call(postFeedback, { apiKey, body: feedback("u-fb", "pending") });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-fb" } } });
    expect(row.status).toBe("inactive");

    await call(postFeedback, { apiKey, body: feedback("u-fb", "BLOCKED") });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-fb" } } });
    expect(row.status).toBe("blocked");

    await call(postFeedback, { apiKey, body: feedback("u-fb", "APPROVED") });
    row = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "u-fb" } } });
    expect(row.status).toBe("active");
    const changes = await prisma.userStatusChange.findMany({
      where: { clientId, userId: "u-fb", source: "feedback" },
      orderBy: { createdAt: "asc" },
    });
    expect(changes.map((c) => c.toStatus)).toEqual(["inactive", "blocked", "active"]);
  });

  it("validates the body", async () => {
    expectValidation(
      await call(postFeedback, {
        apiKey,
        body: { onboardingFeedback: { status: "APPROVED", description: "d", createdAt: 1 } },
      }),
      "/userId",
    );
    expectValidation(await call(postFeedback, { apiKey, body: { userId: "u-fb" } }), "/onboardingFeedback");
    expectValidation(
      await call(postFeedback, {
        apiKey,
        body: { userId: "u-fb", onboardingFeedback: { description: "d", createdAt: 1 } },
      }),
      "/onboardingFeedback/status",
    );
    expectValidation(
      await call(postFeedback, {
        apiKey,
        body: { userId: "u-fb", onboardingFeedback: { status: "MAYBE", description: "d", createdAt: 1 } },
      }),
      "/onboardingFeedback/status",
    );
    expectValidation(
      await call(postFeedback, {
        apiKey,
        body: { userId: "u-fb", onboardingFeedback: { status: "APPROVED", createdAt: 1 } },
      }),
      "/onboardingFeedback/description",
    );
    expectValidation(
      await call(postFeedback, {
        apiKey,
        body: { userId: "u-fb", onboardingFeedback: { status: "APPROVED", description: "d" } },
      }),
      "/onboardingFeedback/createdAt",
    );
  });

  it("answers 404 for an unknown or another client's user", async () => {
    const res = await call(postFeedback, { apiKey, body: feedback("ghost", "APPROVED") });
    expect(res.status).toBe(404);
    expect(res.body.error.details).toEqual(["/userId: User not found"]);
    expect((await call(postFeedback, { apiKey: otherKey, body: feedback("u-fb", "APPROVED") })).status).toBe(
      404,
    );
  });
});

describe("GET /v1/users/transactions/{transactionId}", () => {
  async function insertTransaction(id: string, userId: string | null, data: Record<string, unknown> = {}) {
    await prisma.transaction.create({
      data: {
        clientId,
        id,
        userId,
        status: "APPROVED",
        currencyCode: "USD",
        amount: 10,
        occurredAt: new Date(),
        data: { id, ...(userId ? { userId } : {}), ...data },
        bodyHash: id,
        riskLevel: "low",
        recommendedAction: "ALLOW",
        assessedAt: new Date(),
      },
    });
  }

  it("returns the transaction's user", async () => {
    await createUser({ id: "u-tx", timestamp: now() - 1000, firstName: "Tx" });
    await insertTransaction("tx-1", "u-tx");
    const res = await call(getTransactionUserRoute, { apiKey, params: { transactionId: "tx-1" } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: "u-tx", firstName: "Tx", status: "active" });
  });

  it("answers 404 for an unknown transaction, a missing user, and another client", async () => {
    const unknown = await call(getTransactionUserRoute, { apiKey, params: { transactionId: "tx-none" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details).toEqual(["/transactionId: Transaction not found"]);
    await insertTransaction("tx-orphan", "u-never-created");
    const orphan = await call(getTransactionUserRoute, { apiKey, params: { transactionId: "tx-orphan" } });
    expect(orphan.status).toBe(404);
    expect(orphan.body.error.message).toBe("User not found");
    expect(
      (await call(getTransactionUserRoute, { apiKey: otherKey, params: { transactionId: "tx-1" } })).status,
    ).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("documents the user and comment endpoints", () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ["/v1/user", "post"],
      ["/v1/user/feedback", "post"],
      ["/v1/user/device", "post"],
      ["/v1/users/{userId}", "get"],
      ["/v1/users/transactions/{transactionId}", "get"],
      ["/v1/users/{userId}/block", "put"],
      ["/v1/users/{userId}/unblock", "put"],
      ["/v1/users/{userId}/status", "put"],
      ["/v1/users/blocked", "get"],
      ["/v1/users/transactions/{transactionId}/status", "put"],
      ["/v1/users/attributes/status", "put"],
      ["/v1/comments/user/{userId}", "post"],
      ["/v1/comments", "get"],
      ["/v1/comments/user/{userId}", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});

describe("demo data", () => {
  it("seeds users, a blocked user with history, comments and merchants", async () => {
    const { seedDemoUsers } = await import("@/lib/users/demo-users");
    const demo = await createTestClient({ name: "Demo" });
    await seedDemoUsers(demo.clientId);
    expect(await prisma.user.count({ where: { clientId: demo.clientId } })).toBe(3);
    const blocked = await prisma.user.findMany({ where: { clientId: demo.clientId, status: "blocked" } });
    expect(blocked.map((u) => u.id)).toEqual(["demo-user-3"]);
    expect(await prisma.comment.count({ where: { clientId: demo.clientId } })).toBe(2);
    expect(
      await prisma.merchant.count({ where: { clientId: demo.clientId, organizationId: "demo-org-1" } }),
    ).toBe(2);
  });
});
