import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { cachedRules } from "@/lib/screening/hot/config";
import { assessment, storedEntity, type TRiskAssessment } from "@/lib/screening/assessment";
import { screenUserHot } from "@/lib/screening/hot/screen-party";
import { runRules } from "@/lib/screening/run-rules";
import { TX_OPTIONS } from "@/lib/screening/screen-transaction";
import type { TUser } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/** Onboarding: creates or updates the user, screens it with the client's user rules, emits user.screened. */
/** The raw-SQL path (lib/screening/hot/screen-party.ts): one read, one write statement. */
export async function screenUser(args: { client: TClientContext; body: TUser }): Promise<TRiskAssessment> {
  return screenUserHot(args);
}

/** The Prisma path it replaced, kept callable for the equivalence test. */
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
