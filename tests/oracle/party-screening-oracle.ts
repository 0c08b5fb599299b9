// The Prisma implementations of POST /v1/user/onboard, POST /v1/merchantRequest, POST /v1/user and
// POST /v1/user/device that the raw-SQL path replaced, kept only as the reference of the equivalence
// tests (party-screening-equivalence, user-device-equivalence): same answers, decisions and stored
// rows. Production code never imports tests/oracle.
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, TX_OPTIONS } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import type { TMerchant } from "@/lib/merchants/schemas";
import { upsertMerchant } from "@/tests/oracle/upsert-merchant";
import { assessment, storedEntity, storedMerchant, type TRiskAssessment } from "@/lib/screening/assessment";
import { cachedRules } from "@/tests/oracle/run-rules";
import { runRules } from "@/tests/oracle/run-rules";
import type { TAddUserDevice, TUser } from "@/lib/users/schemas";
import { upsertDevice } from "@/tests/oracle/upsert-device";
import { upsertUser } from "@/tests/oracle/upsert-user";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

export async function screenUserPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TUser;
}): Promise<TRiskAssessment> {
  const clientId = client.id;
  const rules = await cachedRules(client, "user");
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    await upsertUser(tx, { clientId, user: body, source: "onboard" });
    const stored = await tx.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: body.id } } });
    const result = await runRules(tx, {
      clientId,
      rules,
      subject: "user",
      subjectId: body.id,
      timestamp: body.timestamp,
      // The request under `user`, with the stored status and first-seen createdAt the rules also expect.
      variables: {
        user: {
          ...storedEntity(stored),
          ...body,
          status: stored.status,
          createdAt: stored.createdAt.getTime(),
        },
      },
    });
    const answer = assessment(body.id, result, now);
    await tx.user.update({
      where: { clientId_id: { clientId, id: body.id } },
      data: {
        riskLevel: answer.riskLevel,
        recommendedAction: answer.recommendedAction,
        assessedAt: now,
        decisionId: result.decisionId,
      },
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: "user.screened",
      payload: webhookPayload["user.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}

export async function screenMerchantPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TMerchant;
}): Promise<TRiskAssessment> {
  const clientId = client.id;
  const rules = await cachedRules(client, "merchant");
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    await upsertMerchant(tx, { clientId, merchant: body });
    const stored = await tx.merchant.findUniqueOrThrow({ where: { clientId_id: { clientId, id: body.id } } });
    const result = await runRules(tx, {
      clientId,
      rules,
      subject: "merchant",
      subjectId: body.id,
      timestamp: body.timestamp,
      // the stored record: its `timestamp` is the first one received for the id (Merchant rule 2)
      variables: { merchant: storedMerchant(stored)! },
    });
    const answer = assessment(body.id, result, now);
    await tx.merchant.update({
      where: { clientId_id: { clientId, id: body.id } },
      data: {
        riskLevel: answer.riskLevel,
        recommendedAction: answer.recommendedAction,
        assessedAt: now,
        decisionId: result.decisionId,
      },
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: "merchant.screened",
      payload: webhookPayload["merchant.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}

export async function saveUserPrisma({
  clientId,
  user,
}: {
  clientId: string;
  user: TUser;
}): Promise<{ id: string; created: boolean }> {
  const result = await prisma.$transaction((tx) => upsertUser(tx, { clientId, user, source: "api" }));
  return { id: user.id, created: result.created };
}

export async function addUserDevicePrisma({
  clientId,
  userId,
  device,
}: { clientId: string } & TAddUserDevice): Promise<{ id: string }> {
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { clientId_id: { clientId, id: userId } },
      select: { id: true },
    });
    if (!user) throw notFound("/userId", "User not found");
    await upsertDevice(tx, { clientId, userId, device, source: "device" });
    return { id: device.id };
  });
}
