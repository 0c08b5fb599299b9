// GET /v1/users/{userId}/links and findUserLinks against a generated network (decisions.md §14).
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { findUserLinkDetails, findUserLinks } from "@/lib/links/find-user-links";
import { createTestClient } from "@/tests/factories";

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
