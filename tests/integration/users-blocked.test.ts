import { beforeAll, describe, expect, it } from "vitest";
import { PUT as putBlock } from "@/app/v1/users/[userId]/block/route";
import { PUT as putUnblock } from "@/app/v1/users/[userId]/unblock/route";
import { GET as getBlocked } from "@/app/v1/users/blocked/route";
import { prisma } from "@/lib/db";
import { upsertUser } from "@/tests/oracle/upsert-user";
import { call, createTestClient } from "@/tests/factories";

let apiKey: string;
let clientId: string;
let otherKey: string;

const pad = (n: number) => String(n).padStart(3, "0");

beforeAll(async () => {
  ({ apiKey, clientId } = await createTestClient());
  let otherClientId: string;
  ({ apiKey: otherKey, clientId: otherClientId } = await createTestClient({ name: "Other" }));
  await prisma.$transaction(async (tx) => {
    for (let i = 0; i < 60; i++)
      await upsertUser(tx, {
        clientId,
        user: {
          id: `user-${pad(i)}`,
          timestamp: Date.now() - 1000,
          status: i % 2 === 0 ? "BLOCKED" : "ACTIVE",
        },
        source: "api",
      });
    await upsertUser(tx, {
      clientId: otherClientId,
      user: { id: "user-000", timestamp: Date.now() - 1000, status: "BLOCKED" },
      source: "api",
    });
  });
});

const page = (query: Record<string, string> = {}, key = apiKey) => call(getBlocked, { apiKey: key, query });

describe("GET /v1/users/blocked", () => {
  it("lists blocked users by id with total and cursor, default limit 100", async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(30);
    expect(res.body.users).toHaveLength(30);
    expect(res.body.users[0]).toEqual({ id: "user-000", status: "blocked", updatedAt: expect.any(Number) });
    expect(res.body.cursor).toBe("user-058");
    const ids = res.body.users.map((u: { id: string }) => u.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("pages through more than two pages without duplicates or gaps while users are blocked concurrently", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let concurrent = 0;
    for (;;) {
      const query: Record<string, string> = { limit: "7" };
      if (cursor) query.start = cursor;
      // Block two odd users (one behind the cursor, one ahead) while paging.
      const behind = `user-${pad(2 * concurrent + 1)}`;
      const ahead = `user-${pad(59 - 2 * concurrent)}`;
      const [res] = await Promise.all([
        page(query),
        call(putBlock, {
          apiKey,
          method: "PUT",
          params: { userId: behind },
          body: { comment: "concurrent" },
        }),
        call(putBlock, { apiKey, method: "PUT", params: { userId: ahead }, body: { comment: "concurrent" } }),
      ]);
      concurrent += 1;
      expect(res.status).toBe(200);
      pages += 1;
      const ids: string[] = res.body.users.map((u: { id: string }) => u.id);
      if (ids.length === 0) {
        expect(res.body.cursor).toBeNull();
        break;
      }
      expect(res.body.cursor).toBe(ids.at(-1));
      seen.push(...ids);
      cursor = res.body.cursor;
    }
    expect(pages).toBeGreaterThan(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    // Every user that was blocked for the whole walk is there.
    for (let i = 0; i < 60; i += 2) expect(seen).toContain(`user-${pad(i)}`);
    const stillBlocked = await prisma.user.findMany({
      where: { clientId, status: "blocked" },
      select: { id: true },
    });
    expect(seen.every((id) => stillBlocked.some((u) => u.id === id))).toBe(true);
  });

  it("treats start as exclusive and drops unblocked users", async () => {
    await call(putUnblock, { apiKey, method: "PUT", params: { userId: "user-002" }, body: {} });
    const res = await page({ start: "user-000", limit: "2" });
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual(["user-001", "user-003"]);
    const total = (await page()).body.total;
    expect(total).toBe(await prisma.user.count({ where: { clientId, status: "blocked" } }));
  });

  it("answers an empty page with a null cursor past the end", async () => {
    const res = await page({ start: "zzz" });
    expect(res.body).toMatchObject({ users: [], cursor: null });
    expect(res.body.total).toBeGreaterThan(0);
  });

  it("accepts limit up to 1000 and rejects larger, zero or malformed limits", async () => {
    expect((await page({ limit: "1000" })).status).toBe(200);
    for (const limit of ["1001", "0", "-1", "ten", "1.5"]) {
      const res = await page({ limit });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0]).toMatch(/^\/limit: /);
    }
  });

  it("is scoped to the client", async () => {
    const res = await page({}, otherKey);
    expect(res.body).toMatchObject({ total: 1, cursor: "user-000" });
  });
});
