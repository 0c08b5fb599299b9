// GET /v1/users/{userId}/links and findUserLinks against a generated network (docs/decisions.md §14).
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { findUserLinkDetails, findUserLinks } from "@/lib/links/find-user-links";
import { findCounterparties } from "@/lib/links/find-counterparties";
import { call, createTestClient } from "@/tests/factories";
import * as linksRoute from "@/app/v1/users/[userId]/links/route";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as userRoute from "@/app/v1/user/route";
import * as deviceRoute from "@/app/v1/user/device/route";

async function link(clientId: string, userId: string, kind: string, value: string, source = "user") {
  await prisma.userIdentifier.create({ data: { clientId, userId, kind, value, source } });
}

async function users(clientId: string, ids: string[]) {
  await prisma.user.createMany({
    data: ids.map((id) => ({ clientId, id, createdAt: new Date("2026-01-01T00:00:00Z") })),
  });
}

describe("findUserLinks", () => {
  let clientId: string;
  let otherClientId: string;

  beforeAll(async () => {
    clientId = (await createTestClient()).clientId;
    otherClientId = (await createTestClient()).clientId;
    // a – b share a device; b – c share a phone; c – d share a card (depth 3 from a);
    // a, e, f share a public IP held by 3 users (capped at 2); g is alone
    await users(clientId, ["a", "b", "c", "d", "e", "f", "g"]);
    await link(clientId, "a", "deviceFingerprint", "dev-1");
    await link(clientId, "b", "deviceFingerprint", "dev-1");
    await link(clientId, "b", "phone", "+100");
    await link(clientId, "c", "phone", "+100");
    await link(clientId, "c", "cardFingerprint", "card-9");
    await link(clientId, "d", "cardFingerprint", "card-9");
    for (const u of ["a", "e", "f"]) await link(clientId, u, "ipAddress", "10.0.0.1");
    // the same device value at another client links nobody here
    await users(otherClientId, ["z"]);
    await link(otherClientId, "z", "deviceFingerprint", "dev-1");
  });

  it("depth 1 with a capped value", async () => {
    const got = await findUserLinks(prisma, { clientId, userId: "a", depth: 1, fanOutCap: 2 });
    expect(got).toEqual({
      userId: "a",
      links: [{ userId: "b", depth: 1, via: [{ kind: "deviceFingerprint", value: "dev-1" }] }],
      capped: [{ kind: "ipAddress", value: "10.0.0.1", users: 3 }],
    });
  });

  it("depth 2, each user once at its smallest depth", async () => {
    const got = await findUserLinks(prisma, { clientId, userId: "a", depth: 2, fanOutCap: 3 });
    expect(got!.links).toEqual([
      { userId: "b", depth: 1, via: [{ kind: "deviceFingerprint", value: "dev-1" }] },
      { userId: "e", depth: 1, via: [{ kind: "ipAddress", value: "10.0.0.1" }] },
      { userId: "f", depth: 1, via: [{ kind: "ipAddress", value: "10.0.0.1" }] },
      { userId: "c", depth: 2, via: [{ kind: "phone", value: "+100" }] },
    ]);
    expect(got!.capped).toEqual([]);
  });

  it("depth 2 caps a value met through a depth-1 user, and links through one held by exactly the cap", async () => {
    // from b: a and c are direct; a's public IP (3 holders) and c's card (c, d) are met at depth 2
    const capped = await findUserLinks(prisma, { clientId, userId: "b", depth: 2, fanOutCap: 2 });
    expect(capped).toEqual({
      userId: "b",
      links: [
        { userId: "a", depth: 1, via: [{ kind: "deviceFingerprint", value: "dev-1" }] },
        { userId: "c", depth: 1, via: [{ kind: "phone", value: "+100" }] },
        { userId: "d", depth: 2, via: [{ kind: "cardFingerprint", value: "card-9" }] },
      ],
      capped: [{ kind: "ipAddress", value: "10.0.0.1", users: 3 }],
    });
    const atCap = await findUserLinks(prisma, { clientId, userId: "b", depth: 2, fanOutCap: 3 });
    expect(atCap!.links.filter((l) => l.depth === 2)).toEqual([
      { userId: "d", depth: 2, via: [{ kind: "cardFingerprint", value: "card-9" }] },
      { userId: "e", depth: 2, via: [{ kind: "ipAddress", value: "10.0.0.1" }] },
      { userId: "f", depth: 2, via: [{ kind: "ipAddress", value: "10.0.0.1" }] },
    ]);
    expect(atCap!.capped).toEqual([]);
  });

  it("kinds filter", async () => {
    const got = await findUserLinks(prisma, {
      clientId,
      userId: "a",
      depth: 2,
      kinds: ["ipAddress"],
      fanOutCap: 50,
    });
    expect(got!.links.map((l) => l.userId)).toEqual(["e", "f"]);
  });

  it("details carry since, last use and transactions", async () => {
    const got = await findUserLinkDetails(prisma, { clientId, userId: "b", depth: 1, fanOutCap: 50 });
    expect(got!.links.map((l) => l.userId)).toEqual(["a", "c"]);
    expect(got!.links[0]!.via[0]).toMatchObject({
      kind: "deviceFingerprint",
      value: "dev-1",
      transactions: 0,
    });
    expect(typeof got!.links[0]!.via[0]!.since).toBe("string");
  });

  it("unknown and foreign users are null", async () => {
    expect(await findUserLinks(prisma, { clientId, userId: "nobody", depth: 1, fanOutCap: 50 })).toBeNull();
    expect(await findUserLinks(prisma, { clientId, userId: "z", depth: 1, fanOutCap: 50 })).toBeNull();
  });
});

describe("GET /v1/users/{userId}/links", () => {
  let apiKey: string;
  let clientId: string;
  let otherKey: string;
  const now = Date.now();

  const get = (key: string, userId: string, query: Record<string, string> = {}) =>
    call(linksRoute.GET, { apiKey: key, params: { userId }, query, path: `/v1/users/${userId}/links` });

  const tx = (key: string, body: Record<string, unknown>) =>
    call(transactionRoute.POST, {
      apiKey: key,
      body: { status: "APPROVED", currencyCode: "USD", amount: 10, timestamp: now - 1000, ...body },
    });

  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient());
    otherKey = (await createTestClient()).apiKey;
    // user records (phone), a device recorded for a user, transactions with a device and a bank account
    for (const [id, phone] of [
      ["ann", "+44 20 7946 0001"],
      ["bob", "+44 20 7946 0001"],
      ["cat", undefined],
      ["dan", undefined],
      ["eve", undefined],
    ] as const) {
      const res = await call(userRoute.POST, {
        apiKey,
        body: { id, timestamp: now - 5000, ...(phone && { phone: { phone } }) },
      });
      expect(res.status).toBe(200);
    }
    expect(
      (
        await call(deviceRoute.POST, {
          apiKey,
          body: {
            userId: "bob",
            device: { id: "d-bob", fingerprint: "fp-shared", ipAddress: "203.0.113.9" },
          },
        })
      ).status,
    ).toBe(200);
    expect(
      (await tx(apiKey, { id: "t1", userId: "cat", userDevice: { id: "d-cat", fingerprint: "fp-shared" } }))
        .status,
    ).toBe(200);
    expect(
      (
        await tx(apiKey, {
          id: "t2",
          userId: "cat",
          paymentMethod: "bank",
          bank: { accountNumber: "GB00 1234" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await tx(apiKey, {
          id: "t3",
          userId: "dan",
          paymentMethod: "bank",
          bank: { accountNumber: "gb001234" },
        })
      ).status,
    ).toBe(200);
    // the other client: same values, a user with the same id
    await call(userRoute.POST, {
      apiKey: otherKey,
      body: { id: "zed", timestamp: now - 5000, phone: { phone: "+44 20 7946 0001" } },
    });
    await call(userRoute.POST, { apiKey: otherKey, body: { id: "eve", timestamp: now - 5000 } });
  });

  it("links through user records, devices and transactions, to depth 2", async () => {
    const one = await get(apiKey, "ann");
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      userId: "ann",
      links: [{ userId: "bob", depth: 1, via: [{ kind: "phone", value: "+442079460001" }] }],
      capped: [],
    });
    const two = await get(apiKey, "ann", { depth: "2" });
    expect(two.body.links).toEqual([
      { userId: "bob", depth: 1, via: [{ kind: "phone", value: "+442079460001" }] },
      { userId: "cat", depth: 2, via: [{ kind: "deviceFingerprint", value: "fp-shared" }] },
    ]);
    const cat = await get(apiKey, "cat", { depth: "2" });
    expect(cat.body.links).toEqual([
      { userId: "bob", depth: 1, via: [{ kind: "deviceFingerprint", value: "fp-shared" }] },
      { userId: "dan", depth: 1, via: [{ kind: "bankAccountNumber", value: "GB001234" }] },
      { userId: "ann", depth: 2, via: [{ kind: "phone", value: "+442079460001" }] },
    ]);
  });

  it("lists counterparties: recipients by id or account, senders by id", async () => {
    const recipient = (r: Record<string, unknown>) => ({
      paymentMethod: "bank",
      bank: { accountNumber: "X1" },
      recipient: r,
    });
    expect(
      (
        await tx(apiKey, {
          id: "cp1",
          userId: "dan",
          ...recipient({ id: "ann", paymentMethod: "bank", bank: { accountNumber: "R-1" } }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await tx(apiKey, {
          id: "cp2",
          userId: "dan",
          ...recipient({ id: "ann", paymentMethod: "bank", bank: { accountNumber: "R-1" } }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await tx(apiKey, {
          id: "cp3",
          userId: "dan",
          ...recipient({ paymentMethod: "bank", bank: { accountNumber: "R-9" } }),
        })
      ).status,
    ).toBe(200);
    const dan = await findCounterparties(prisma, { clientId, userId: "dan" });
    expect(dan.map(({ firstAt: _f, lastAt: _l, ...c }) => c)).toEqual([
      { direction: "sent", userId: "ann", account: "R-1", wallet: null, transactions: 2 },
      { direction: "sent", userId: null, account: "R-9", wallet: null, transactions: 1 },
    ]);
    const ann = await findCounterparties(prisma, { clientId, userId: "ann" });
    expect(ann.map(({ firstAt: _f, lastAt: _l, ...c }) => c)).toEqual([
      { direction: "received", userId: "dan", account: null, wallet: null, transactions: 2 },
    ]);
    // another client's user "ann" was paid by nobody
    expect(
      await findCounterparties(prisma, {
        clientId: (await prisma.apiKey.findFirstOrThrow({ where: { clientId: { not: clientId } } })).clientId,
        userId: "ann",
      }),
    ).toEqual([]);
  });

  it("filters by kinds", async () => {
    const res = await get(apiKey, "cat", { depth: "2", kinds: "bankAccountNumber,phone" });
    expect(res.body.links).toEqual([
      { userId: "dan", depth: 1, via: [{ kind: "bankAccountNumber", value: "GB001234" }] },
    ]);
  });

  it("caps a value shared by more users than the client's cap", async () => {
    await prisma.client.update({ where: { id: clientId }, data: { linkFanOutCap: 1 } });
    try {
      const res = await get(apiKey, "cat");
      expect(res.body).toEqual({
        userId: "cat",
        links: [],
        capped: [
          { kind: "bankAccountNumber", value: "GB001234", users: 2 },
          { kind: "deviceFingerprint", value: "fp-shared", users: 2 },
        ],
      });
    } finally {
      await prisma.client.update({ where: { id: clientId }, data: { linkFanOutCap: 50 } });
    }
  });

  it("answers 404 for an unknown user and for another client's user", async () => {
    for (const [key, userId] of [
      [apiKey, "nobody"],
      [apiKey, "zed"],
      [otherKey, "ann"],
    ] as const) {
      const res = await get(key, userId);
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe("NOT_FOUND");
    }
    // the other client's user with the same phone and id is not linked to this client's users
    const eve = await get(otherKey, "eve");
    expect(eve.body).toEqual({ userId: "eve", links: [], capped: [] });
    const zed = await get(otherKey, "zed", { depth: "2" });
    expect(zed.body).toEqual({ userId: "zed", links: [], capped: [] });
  });

  it("answers 400 for a bad depth or an unknown kind", async () => {
    const queries: Record<string, string>[] = [
      { depth: "3" },
      { depth: "0" },
      { depth: "one" },
      { kinds: "phone,shoeSize" },
    ];
    for (const query of queries) {
      const res = await get(apiKey, "ann", query);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.join(" ")).toMatch(/depth|kind/);
    }
  });
});
