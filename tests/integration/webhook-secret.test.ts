import { describe, expect, it, vi } from "vitest";

// Signing secrets: the dashboard generates 32 random bytes, or takes one the admin types of at least 32
// characters; POST /v1/webhooks takes any non-empty secret, as the contract says.
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { prisma } = await import("@/lib/db");
const { call, createTestClient } = await import("@/tests/factories");
const dashboardWebhooks = await import("@/app/dashboard-api/webhooks/route");
const v1Webhooks = await import("@/app/v1/webhooks/route");

const URL_ = "https://hooks.example.test/secret";

describe("webhook signing secrets", () => {
  it("the dashboard refuses a typed secret under 32 characters, takes one of 32, and generates 32 bytes", async () => {
    const { clientId } = await createTestClient();
    const { userId } = await createDashboardUser({
      clientId,
      email: "admin@secret.test",
      password: "long-enough-1",
      role: "admin",
    });
    session.current = { user: { id: userId } };
    const create = (secret?: string) =>
      call(dashboardWebhooks.POST as never, {
        path: "/dashboard-api/webhooks",
        body: { url: URL_, events: ["alert.created"], ...(secret !== undefined && { secret }) },
      });

    const short = await create("x".repeat(31));
    expect(short.status).toBe(400);
    expect(short.body.error.type).toBe("VALIDATION_ERROR");
    expect(short.body.error.details).toEqual([
      "/secret: A signing secret you choose must have at least 32 characters; leave it blank to have one generated",
    ]);
    expect(await prisma.webhookSubscription.count({ where: { clientId } })).toBe(0);

    const typed = await create("y".repeat(32));
    expect(typed.status).toBe(200);
    expect(typed.body.secret).toBeNull();

    const generated = await create();
    expect(generated.status).toBe(200);
    const secret = generated.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]+$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64url")).toHaveLength(32);
    expect(await prisma.webhookSubscription.count({ where: { clientId } })).toBe(2);
  });

  it("POST /v1/webhooks takes any non-empty secret, as the contract says", async () => {
    const { apiKey, clientId } = await createTestClient();
    const res = await call(v1Webhooks.POST as never, {
      apiKey,
      path: "/v1/webhooks",
      body: { url: URL_, events: ["alert.created"], secret: "k" },
    });
    expect(res.status).toBe(200);
    expect(await prisma.webhookSubscription.count({ where: { clientId } })).toBe(1);
  });
});
