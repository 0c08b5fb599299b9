import { describe, expect, it } from "vitest";
import { formatIssues, issueMessage } from "@/lib/validation/zod-issues";
import { toStoredStatus, ZUser, ZUserDevice } from "@/lib/users/schemas";
import { ZMerchant } from "@/lib/merchants/schemas";
import type { z } from "zod";

function details(schema: z.ZodType, data: unknown): string[] {
  const r = schema.safeParse(data, { error: issueMessage });
  return r.success ? [] : formatIssues(r.error);
}

describe("ZUser", () => {
  it("accepts a minimal user and strips unknown fields", () => {
    const user = ZUser.parse({ id: "u1", timestamp: Date.now() - 1000, extra: 1 });
    expect(user).toEqual({ id: "u1", timestamp: expect.any(Number) });
  });
  it("requires id and timestamp at their own paths", () => {
    expect(details(ZUser, {})).toEqual(["/id: Required", "/timestamp: Required"]);
  });
  it("rejects a future timestamp", () => {
    expect(details(ZUser, { id: "u", timestamp: Date.now() + 3_600_000 })).toEqual([
      "/timestamp: Timestamp must not be in the future",
    ]);
  });
  it("rejects a partial address", () => {
    expect(details(ZUser, { id: "u", timestamp: 1, address: { city: "X", country: "US" } })).toEqual([
      "/address/postalCode: Required",
    ]);
    expect(details(ZUser, { id: "u", timestamp: 1, address: { postalCode: "1", country: "us" } })[0]).toMatch(
      /^\/address\/country: /,
    );
  });
  it("accepts statuses case-insensitively and maps aliases", () => {
    const user = ZUser.parse({ id: "u", timestamp: 1, status: "approved" });
    expect(user.status).toBe("APPROVED");
    expect(toStoredStatus("APPROVED")).toBe("active");
    expect(toStoredStatus("PENDING")).toBe("active");
    expect(toStoredStatus("DECLINED")).toBe("inactive");
    expect(toStoredStatus("BLOCKED")).toBe("blocked");
    expect(details(ZUser, { id: "u", timestamp: 1, status: "gone" })[0]).toMatch(
      /^\/status: Expected one of/,
    );
  });
  it("validates the inline device", () => {
    expect(details(ZUser, { id: "u", timestamp: 1, userDevice: { ipAddress: "1.2.3.4" } })).toEqual([
      "/userDevice/id: Required",
    ]);
    expect(ZUserDevice.parse({ id: "d", platform: "IOS" }).platform).toBe("ios");
  });
});

describe("ZMerchant", () => {
  const base = { id: "m1", name: "Shop", timestamp: 1 };
  it("accepts a minimal merchant", () => {
    expect(details(ZMerchant, base)).toEqual([]);
  });
  it("requires limitCurrencyCode with any limit amount", () => {
    expect(details(ZMerchant, { ...base, limits: { dailyTransactionLimit: 10 } })).toEqual([
      "/limits/limitCurrencyCode: Required when limits.dailyTransactionLimit is sent",
    ]);
    expect(
      details(ZMerchant, { ...base, limits: { dailyTransactionLimit: 10, limitCurrencyCode: "USD" } }),
    ).toEqual([]);
  });
  it("requires cashbackEnabled true for cashbackRate, and bounds it", () => {
    expect(details(ZMerchant, { ...base, cashbackRate: 5 })).toEqual([
      "/cashbackRate: cashbackRate requires cashbackEnabled to be true",
    ]);
    expect(details(ZMerchant, { ...base, cashbackRate: 5, cashbackEnabled: false })).toHaveLength(1);
    expect(details(ZMerchant, { ...base, cashbackRate: 101, cashbackEnabled: true })).toEqual([
      "/cashbackRate: Expected number to be less or equal to 100",
    ]);
  });
  it("requires settlementEnabled true for settlementType", () => {
    expect(details(ZMerchant, { ...base, settlementType: "daily" })).toEqual([
      "/settlementType: settlementType requires settlementEnabled to be true",
    ]);
  });
  it("checks decimals and payment methods", () => {
    expect(details(ZMerchant, { ...base, averagePurchaseSize: "1,000.00" })[0]).toMatch(
      /^\/averagePurchaseSize: /,
    );
    expect(details(ZMerchant, { ...base, monthlyVolume: "-5" })[0]).toMatch(/^\/monthlyVolume: /);
    expect(details(ZMerchant, { ...base, monthlyVolume: "1250.50" })).toEqual([]);
    expect(details(ZMerchant, { ...base, paymentMethods: ["card", "wallet"] })[0]).toMatch(
      /^\/paymentMethods\/1: /,
    );
  });
  it("rejects a future timestamp", () => {
    expect(details(ZMerchant, { ...base, timestamp: Date.now() + 86_400_000 })).toEqual([
      "/timestamp: Timestamp must not be in the future",
    ]);
  });
});
