import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { saveMerchant } from "@/lib/merchants/save-merchant";
import { ZMerchant, type TMerchant } from "@/lib/merchants/schemas";
import { createTestClient } from "@/tests/factories";

let clientId: string;
let otherClientId: string;

beforeAll(async () => {
  ({ clientId } = await createTestClient({ type: "business" }));
  ({ clientId: otherClientId } = await createTestClient({ type: "business", name: "Other" }));
});

const save = async (merchant: TMerchant, cid = clientId) => ({
  created: (await saveMerchant({ clientId: cid, merchant })).created,
});

describe("saveMerchant", () => {
  it("keeps the first timestamp as createdAt and the previous values as history", async () => {
    const first = Date.now() - 30 * 86_400_000;
    const v1 = ZMerchant.parse({
      id: "m-1",
      name: "Corner Shop",
      timestamp: first,
      organizationId: "org-1",
      monthlyVolume: "1000.00",
      status: "active",
    });
    expect(await save(v1)).toEqual({ created: true });

    const v2 = ZMerchant.parse({
      id: "m-1",
      name: "Corner Shop Ltd",
      timestamp: Date.now() - 1000,
      organizationId: "org-1",
      monthlyVolume: "2500.50",
      status: "inactive",
    });
    expect(await save(v2)).toEqual({ created: false });
    const v3 = ZMerchant.parse({
      id: "m-1",
      name: "Corner Shop Ltd",
      timestamp: Date.now() - 500,
      status: "blocked",
    });
    await save(v3);

    const row = await prisma.merchant.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "m-1" } } });
    expect(row.createdAt.getTime()).toBe(first);
    expect(row).toMatchObject({ name: "Corner Shop Ltd", status: "blocked", organizationId: null });
    expect((row.data as any).monthlyVolume).toBeUndefined();

    const history = await prisma.merchantVersion.findMany({
      where: { clientId, merchantId: "m-1" },
      orderBy: { createdAt: "asc" },
    });
    expect(history.map((h) => (h.data as any).name)).toEqual(["Corner Shop", "Corner Shop Ltd"]);
    expect(history[0]!.data as any).toMatchObject({
      monthlyVolume: "1000.00",
      status: "active",
      timestamp: first,
    });
    expect(history[1]!.data as any).toMatchObject({ monthlyVolume: "2500.50", status: "inactive" });
  });

  it("writes no history for an identical resend", async () => {
    const m = ZMerchant.parse({
      id: "m-same",
      name: "Same",
      timestamp: Date.now() - 1000,
      limits: { limitCurrencyCode: "KES", dailyTransactionLimit: 500 },
    });
    await save(m);
    await save(ZMerchant.parse(JSON.parse(JSON.stringify(m))));
    expect(await prisma.merchantVersion.count({ where: { clientId, merchantId: "m-same" } })).toBe(0);
  });

  it("keeps merchants of different clients apart", async () => {
    const m = ZMerchant.parse({ id: "m-1", name: "Other client's shop", timestamp: Date.now() - 1000 });
    expect(await save(m, otherClientId)).toEqual({ created: true });
    const mine = await prisma.merchant.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "m-1" } } });
    expect(mine.name).toBe("Corner Shop Ltd");
    expect(await prisma.merchantVersion.count({ where: { clientId: otherClientId } })).toBe(0);
  });

  it("handles concurrent first sends of one id", async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        save(ZMerchant.parse({ id: "m-race", name: `Race ${n}`, timestamp: Date.now() - n * 1000 })),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await prisma.merchant.count({ where: { clientId, id: "m-race" } })).toBe(1);
  });
});
