import { beforeAll, describe, expect, it, vi } from "vitest";

// The retention period as a client setting: 60 months by default; an admin changes it in Settings (audited,
// at least 12 months), a reviewer cannot; the operator with `client configure --retention-months`.

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

describe("retention period setting", () => {
  let clientId: string;
  const ids = {} as Record<"admin" | "reviewer", string>;

  beforeAll(async () => {
    ({ clientId } = await createTestClient());
    for (const role of ["admin", "reviewer"] as const)
      ids[role] = (
        await createDashboardUser({
          clientId,
          email: `${role}@retention.test`,
          password: "correct horse battery",
          role,
        })
      ).userId;
  });

  const put = (role: "admin" | "reviewer", body: unknown) => {
    session.current = { user: { id: ids[role] } };
    return call(settingsRoute.PUT, { method: "PUT", body, path: "/dashboard-api/settings" });
  };
  const stored = async () =>
    (await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).retentionMonths;

  it("defaults to 60 months and is changed by an admin, audited", async () => {
    session.current = { user: { id: ids.admin } };
    expect((await call(settingsRoute.GET, { path: "/dashboard-api/settings" })).body.retentionMonths).toBe(
      60,
    );
    const res = await put("admin", { retentionMonths: 84 });
    expect(res.status).toBe(200);
    expect(res.body.retentionMonths).toBe(84);
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { clientId, action: "client.configured" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit).toMatchObject({ actorId: ids.admin, details: { retentionMonths: 84 } });
  });

  it("refuses less than 12 months and a reviewer, changing nothing", async () => {
    for (const bad of [11, 0, -1, 12.5, 1201, "60", null]) {
      const res = await put("admin", { retentionMonths: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
    }
    expect((await put("reviewer", { retentionMonths: 24 })).status).toBe(403);
    expect(await stored()).toBe(84);
  });

  it("is set by the operator command `client configure --retention-months`", async () => {
    const run = (argv: string[]) =>
      commands["client configure"]!(parseArgs(["client", "configure", ...argv]));
    expect(
      ((await run(["--client", clientId, "--retention-months", "12"])) as { retentionMonths: number })
        .retentionMonths,
    ).toBe(12);
    const tooShort = await run(["--client", clientId, "--retention-months", "6"]).catch((e: unknown) => e);
    expect(describeError(tooShort)).toMatch(/retentionMonths: At least 12 months/);
    expect(await stored()).toBe(12);
  });
});
