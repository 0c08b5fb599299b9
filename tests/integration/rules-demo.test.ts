import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import { FEATURES } from "@/lib/clients/schemas";
import {
  DEMO_MERCHANT_RULES,
  DEMO_RULES,
  seedDemoMerchantRules,
  seedDemoRules,
} from "@/lib/rules/demo-rules";
import { exportRules } from "@/lib/rules/export-rules";
import { runRules } from "@/tests/oracle/run-rules";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const NOW = Date.now() - HOUR;

async function screen(clientId: string, body: Record<string, unknown>, user: Record<string, unknown>) {
  const at = body.timestamp as number;
  // stored once (an id screened again keeps its first row); not Prisma's upsert, an ON CONFLICT on (clientId, id)
  // that the partitioned table has no unique index for
  const exists = await prisma.transaction.count({ where: { clientId, id: body.id as string } });
  if (exists === 0)
    await prisma.transaction.create({
      data: {
        clientId,
        id: body.id as string,
        userId: body.userId as string,
        cardFingerprint:
          ((body.card as Record<string, string> | undefined)?.cardFingerprint as string) ?? null,
        status: "PENDING",
        currencyCode: "EUR",
        amount: body.amount as number,
        occurredAt: new Date(at),
        data: body as Prisma.InputJsonObject,
        bodyHash: "h",
        riskLevel: "n/a",
        recommendedAction: "ALLOW",
        assessedAt: new Date(),
      },
    });
  const result = await prisma.$transaction((tx) =>
    runRules(tx, {
      clientId,
      subject: "transaction",
      subjectId: body.id as string,
      timestamp: at,
      variables: { transaction: body, user },
    }),
  );
  const decision = await prisma.decision.findUniqueOrThrow({ where: { id: result.decisionId } });
  return { ...result, errors: (decision.evaluated as Array<{ error?: string }>).filter((e) => e.error) };
}

const oldUser = { id: "u1", status: "active", createdAt: NOW - 400 * 24 * HOUR };

describe("demo rules", () => {
  it("give the business demo client merchant screening that answers with its merchant rules", async () => {
    const { clientId, apiKey } = await createTestClient({ type: "business", features: [...FEATURES] });
    await seedDemoMerchantRules(clientId);
    expect((await exportRules({ clientId })).rules).toHaveLength(
      DEMO_RULES.length + DEMO_MERCHANT_RULES.length,
    );
    const casino = await call(merchantRoute.POST, {
      apiKey,
      body: { id: "m-casino", name: "Lucky Star Casino", timestamp: NOW, mcc: "7995", country: "MT" },
    });
    expect(casino.status).toBe(200);
    expect(casino.body).toMatchObject({ id: "m-casino", riskLevel: "high", recommendedAction: "REVIEW" });
    expect(casino.body.triggered.map((t: { id: string }) => t.id)).toEqual(["MERCHANT-HIGH-RISK-MCC"]);
    const bakery = await call(merchantRoute.POST, {
      apiKey,
      body: { id: "m-bakery", name: "Corner Bakery", timestamp: NOW, mcc: "5462", country: "FR" },
    });
    expect(bakery.status).toBe(200);
    expect(bakery.body.triggered ?? []).toEqual([]);
  });

  it("load through the seed hook and all compile", async () => {
    const { clientId } = await createTestClient();
    await seedDemoRules(clientId);
    expect((await exportRules({ clientId })).rules).toHaveLength(DEMO_RULES.length);
  });

  it("answer low for an ordinary transaction without recording evaluation errors", async () => {
    const { clientId } = await createTestClient();
    await seedDemoRules(clientId);
    const result = await screen(
      clientId,
      { id: "t1", userId: "u1", amount: 25, timestamp: NOW, currencyCode: "EUR", status: "PENDING" },
      oldUser,
    );
    expect(result).toMatchObject({ riskLevel: "low", recommendedAction: "ALLOW", triggered: [] });
    expect(result.errors).toEqual([]);
  });

  it("block a blocked user, flag structuring, a BIN mismatch and a new crypto address", async () => {
    const { clientId } = await createTestClient();
    await seedDemoRules(clientId);
    const blocked = await screen(
      clientId,
      { id: "b1", userId: "u9", amount: 10, timestamp: NOW },
      { ...oldUser, id: "u9", status: "blocked" },
    );
    expect(blocked).toMatchObject({ riskLevel: "very_high", recommendedAction: "BLOCK" });
    expect(blocked.triggered.map((t) => t.id)).toEqual(["TX-BLOCKED-USER"]);

    for (const [i, amount] of [9100, 9500, 9900].entries()) {
      const r = await screen(
        clientId,
        { id: `s${i}`, userId: "u2", amount, timestamp: NOW + i * 1000 },
        { ...oldUser, id: "u2" },
      );
      expect(r.riskLevel).toBe(i < 2 ? "low" : "very_high");
      if (i === 2) expect(r).toMatchObject({ recommendedAction: "REPORT_SUSPICIOUS" });
    }

    const mismatch = await screen(
      clientId,
      {
        id: "c1",
        userId: "u3",
        amount: 10,
        timestamp: NOW,
        card: { binCountry: "US", cardFingerprint: "fp1" },
        billingAddress: { country: "DE", postalCode: "1" },
      },
      { ...oldUser, id: "u3" },
    );
    expect(mismatch.triggered.map((t) => t.id)).toEqual(["TX-BIN-COUNTRY-MISMATCH"]);

    const crypto = { direction: "payout", paymentMethod: "crypto", crypto: { address: "bc1-new" } };
    const first = await screen(
      clientId,
      { id: "k1", userId: "u4", amount: 10, timestamp: NOW, ...crypto },
      { ...oldUser, id: "u4" },
    );
    expect(first.triggered.map((t) => t.id)).toEqual(["TX-CRYPTO-NEW-ADDRESS"]);
    const second = await screen(
      clientId,
      { id: "k2", userId: "u4", amount: 10, timestamp: NOW + 1000, ...crypto },
      { ...oldUser, id: "u4" },
    );
    expect(second.triggered).toEqual([]);

    const fresh = await screen(
      clientId,
      { id: "n1", userId: "u5", amount: 1500, timestamp: NOW, direction: "payout" },
      { id: "u5", status: "active", createdAt: NOW - 2 * 24 * HOUR },
    );
    expect(fresh).toMatchObject({ riskLevel: "high", recommendedAction: "STEP_UP_KYC" });
  });

  it("fire the failed-login event rule on the fifth failure in 10 minutes", async () => {
    const { clientId } = await createTestClient();
    await seedDemoRules(clientId);
    const login = async (id: string, type: string, at: number, userId = "u1") => {
      const event = { id, type, userId, timestamp: at };
      await prisma.event.create({
        data: { clientId, id, type, userId, occurredAt: new Date(at), data: event },
      });
      return prisma.$transaction((tx) =>
        runRules(tx, {
          clientId,
          subject: "event",
          subjectId: id,
          timestamp: at,
          variables: { event, user: oldUser },
        }),
      );
    };
    await login("other", "login_failed", NOW, "u2");
    await login("ok", "login_succeeded", NOW);
    await login("old", "login_failed", NOW - 11 * 60_000);
    for (let i = 1; i <= 4; i++)
      expect((await login(`f${i}`, "login_failed", NOW + i * 1000)).riskLevel).toBe("low");
    const fifth = await login("f5", "login_failed", NOW + 5000);
    expect(fifth).toMatchObject({ riskLevel: "high", recommendedAction: "STEP_UP_AUTH" });
    expect(fifth.triggered.map((t) => t.id)).toEqual(["EVENT-FAILED-LOGINS"]);
  });
});
