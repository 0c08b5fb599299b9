import { beforeAll, describe, expect, it, vi } from "vitest";

// The links fan-out cap as a client setting: admins change it in Settings (audited, validated), the
// operator with `client configure --link-fan-out-cap`, and the links endpoint applies it at once.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { prisma } = await import("@/lib/db");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { call, createTestClient } = await import("@/tests/factories");
const { commands, describeError } = await import("@/lib/cli/commands");
const { parseArgs } = await import("@/lib/cli/args");
const settingsRoute = await import("@/app/dashboard-api/settings/route");
const linksRoute = await import("@/app/v1/users/[userId]/links/route");

describe("link fan-out cap setting", () => {
  let clientId: string;
  let apiKey: string;
  const ids = {} as Record<"admin" | "reviewer", string>;

  beforeAll(async () => {
    ({ clientId, apiKey } = await createTestClient());
    for (const role of ["admin", "reviewer"] as const) {
      ids[role] = (
        await createDashboardUser({
          clientId,
          email: `${role}@links.test`,
          password: "correct horse battery",
          role,
        })
      ).userId;
    }
    await prisma.user.createMany({
      data: ["p", "q", "r"].map((id) => ({ clientId, id, createdAt: new Date() })),
    });
    await prisma.userIdentifier.createMany({
      data: ["p", "q", "r"].map((userId) => ({
        clientId,
        userId,
        kind: "ipAddress",
        value: "198.51.100.7",
        source: "device",
      })),
    });
  });

  const put = (role: "admin" | "reviewer", body: unknown) => {
    session.current = { user: { id: ids[role] } };
    return call(settingsRoute.PUT, { method: "PUT", body, path: "/dashboard-api/settings" });
  };

  it("defaults to 50, is changed by an admin with an audit row, and applies to links at once", async () => {
    session.current = { user: { id: ids.admin } };
    expect((await call(settingsRoute.GET, { path: "/dashboard-api/settings" })).body.linkFanOutCap).toBe(50);
    const linked = await call(linksRoute.GET, { apiKey, params: { userId: "p" } });
    expect(linked.body.links.map((l: { userId: string }) => l.userId)).toEqual(["q", "r"]);

    const res = await put("admin", { linkFanOutCap: 2 });
    expect(res.status).toBe(200);
    expect(res.body.linkFanOutCap).toBe(2);
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { clientId, action: "client.configured" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit).toMatchObject({ actorId: ids.admin, details: { linkFanOutCap: 2 } });
    const capped = await call(linksRoute.GET, { apiKey, params: { userId: "p" } });
    expect(capped.body).toEqual({
      userId: "p",
      links: [],
      capped: [{ kind: "ipAddress", value: "198.51.100.7", users: 3 }],
    });
  });

  it("refuses a bad value with a 400 and a reviewer with a 403, changing nothing", async () => {
    for (const bad of [1, 0, -5, 2.5, 10_001, "20", null]) {
      const res = await put("admin", { linkFanOutCap: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
    }
    expect((await put("reviewer", { linkFanOutCap: 9 })).status).toBe(403);
    expect((await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).linkFanOutCap).toBe(2);
  });

  it("is set by the operator command `client configure --link-fan-out-cap`", async () => {
    const run = (argv: string[]) =>
      commands["client configure"]!(parseArgs(["client", "configure", ...argv]));
    const out = (await run(["--client", clientId, "--link-fan-out-cap", "75"])) as { linkFanOutCap: number };
    expect(out.linkFanOutCap).toBe(75);
    await expect(run(["--client", clientId, "--link-fan-out-cap", "lots"])).rejects.toThrow(/whole number/);
    const tooSmall = await run(["--client", clientId, "--link-fan-out-cap", "1"]).catch((e: unknown) => e);
    expect(describeError(tooSmall)).toMatch(/linkFanOutCap: At least 2/);
    expect((await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).linkFanOutCap).toBe(75);
  });
});
