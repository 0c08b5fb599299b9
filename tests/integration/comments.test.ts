import { beforeAll, describe, expect, it } from "vitest";
import { POST as postUser } from "@/app/v1/user/route";
import { GET as listAll } from "@/app/v1/comments/route";
import { GET as listForUser, POST as postComment } from "@/app/v1/comments/user/[userId]/route";
import { prisma } from "@/lib/db";
import { call, createTestClient } from "@/tests/factories";

let apiKey: string;
let clientId: string;
let otherKey: string;

beforeAll(async () => {
  ({ apiKey, clientId } = await createTestClient());
  ({ apiKey: otherKey } = await createTestClient({ name: "Other" }));
  for (const id of ["c-alice", "c-bob"])
    await call(postUser, { apiKey, body: { id, timestamp: Date.now() - 1000 } });
});

const comment = (userId: string, extra: Record<string, unknown> = {}, key = apiKey, pathUserId = userId) =>
  call(postComment, {
    apiKey: key,
    params: { userId: pathUserId },
    body: { userId, comment: "Looks fine", commenterId: "rev-1", ...extra },
  });

describe("POST /v1/comments/user/{userId}", () => {
  it("stores the comment durably and answers accepted with its id", async () => {
    const before = Date.now();
    const res = await comment("c-alice", {
      commenterDisplayName: "Reviewer One",
      externalId: "ext-1",
      transactionId: "tx-9",
      ruleTriggerEventId: "rte-3",
      action: "REVIEW",
      ignored: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "accepted", id: expect.any(String) });
    const row = await prisma.comment.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({
      clientId,
      userId: "c-alice",
      comment: "Looks fine",
      commenterId: "rev-1",
      externalId: "ext-1",
      action: "REVIEW",
    });
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("keeps a given createdAt", async () => {
    const res = await comment("c-alice", { createdAt: 1_700_000_000_000 });
    const row = await prisma.comment.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.createdAt.getTime()).toBe(1_700_000_000_000);
  });

  it("rejects a body userId different from the path", async () => {
    const res = await comment("c-bob", {}, apiKey, "c-alice");
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0]).toMatch(/^\/userId: /);
  });

  it("validates required fields", async () => {
    for (const field of ["userId", "comment", "commenterId"]) {
      const body: Record<string, unknown> = { userId: "c-alice", comment: "x", commenterId: "r" };
      delete body[field];
      const res = await call(postComment, { apiKey, params: { userId: "c-alice" }, body });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toContain(`/${field}: Required`);
    }
    const badDate = await comment("c-alice", { createdAt: "yesterday" });
    expect(badDate.body.error.details).toEqual(["/createdAt: Expected number"]);
  });

  it("answers 404 for an unknown or another client's user", async () => {
    const res = await comment("ghost");
    expect(res.status).toBe(404);
    expect(res.body.error.details).toEqual(["/userId: User not found"]);
    expect((await comment("c-alice", {}, otherKey)).status).toBe(404);
  });
});

describe("GET /v1/comments and /v1/comments/user/{userId}", () => {
  const base = 1_750_000_000_000;

  beforeAll(async () => {
    await prisma.comment.deleteMany({ where: { clientId } });
    for (let i = 0; i < 5; i++)
      await comment("c-alice", { comment: `alice ${i}`, createdAt: base + i * 1000 });
    for (let i = 0; i < 3; i++)
      await comment("c-bob", { comment: `bob ${i}`, createdAt: base + i * 1000 + 500 });
  });

  it("lists newest first with the Comment fields", async () => {
    const res = await call(listAll, { apiKey });
    expect(res.status).toBe(200);
    expect(res.body.comments).toHaveLength(8);
    const times = res.body.comments.map((c: { createdAt: number }) => c.createdAt);
    expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
    expect(res.body.comments[0]).toEqual({
      id: expect.any(String),
      userId: "c-alice",
      comment: "alice 4",
      commenterId: "rev-1",
      createdAt: base + 4000,
    });
  });

  it("filters by user, inclusive start and end, and limit", async () => {
    const user = await call(listForUser, { apiKey, params: { userId: "c-bob" } });
    expect(user.body.comments.map((c: { comment: string }) => c.comment)).toEqual([
      "bob 2",
      "bob 1",
      "bob 0",
    ]);
    const range = await call(listAll, {
      apiKey,
      query: { start: String(base + 1000), end: String(base + 3000) },
    });
    expect(range.body.comments.map((c: { comment: string }) => c.comment)).toEqual([
      "alice 3",
      "bob 2",
      "alice 2",
      "bob 1",
      "alice 1",
    ]);
    const limited = await call(listForUser, {
      apiKey,
      params: { userId: "c-alice" },
      query: { limit: "2", end: String(base + 2000) },
    });
    expect(limited.body.comments.map((c: { comment: string }) => c.comment)).toEqual(["alice 2", "alice 1"]);
    expect((await call(listAll, { apiKey, query: { limit: "1000" } })).status).toBe(200);
  });

  it("rejects malformed bounds and limits", async () => {
    for (const [query, path] of [
      [{ start: "yesterday" }, "/start"],
      [{ end: "1.5" }, "/end"],
      [{ limit: "1001" }, "/limit"],
      [{ limit: "0" }, "/limit"],
      [{ limit: "abc" }, "/limit"],
      [{ start: "2000", end: "1000" }, "/end"],
    ] as const) {
      for (const res of [
        await call(listAll, { apiKey, query }),
        await call(listForUser, { apiKey, params: { userId: "c-alice" }, query }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.error.type).toBe("VALIDATION_ERROR");
        expect(res.body.error.details[0]).toMatch(new RegExp(`^${path}: `));
      }
    }
  });

  it("is scoped to the client: 404 for another client's user, nothing in the global list", async () => {
    expect((await call(listForUser, { apiKey: otherKey, params: { userId: "c-alice" } })).status).toBe(404);
    expect((await call(listAll, { apiKey: otherKey })).body).toEqual({ comments: [] });
    const res = await call(listForUser, { apiKey, params: { userId: "ghost" } });
    expect(res.body.error.details).toEqual(["/userId: User not found"]);
  });
});
