import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TStoredUserStatus, TUserFeedback } from "@/lib/users/schemas";
import { setUserStatus } from "@/lib/users/set-user-status";

/**
 * What an onboarding outcome does to the user's status: APPROVED activates, DECLINED deactivates,
 * BLOCKED blocks (with the block webhook), PENDING leaves the status alone.
 */
export const FEEDBACK_STATUS_EFFECT: Record<
  TUserFeedback["onboardingFeedback"]["status"],
  TStoredUserStatus | null
> = {
  APPROVED: "active",
  DECLINED: "inactive",
  BLOCKED: "blocked",
  PENDING: null,
};

/** POST /v1/user/feedback: stores the onboarding outcome (and optional KYC/AML details) on the user. */
export async function recordUserFeedback({
  clientId,
  feedback,
}: {
  clientId: string;
  feedback: TUserFeedback;
}): Promise<{ userId: string; status: TStoredUserStatus }> {
  const { userId, onboardingFeedback, ...extra } = feedback;
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { clientId_id: { clientId, id: userId } },
      select: { data: true, status: true },
    });
    if (!user) throw notFound("/userId", "User not found");
    const data = {
      ...(user.data as Record<string, unknown>),
      ...extra,
      onboardingFeedback,
    };
    await tx.user.update({
      where: { clientId_id: { clientId, id: userId } },
      data: { data, updatedAt: new Date() },
    });
    const target = FEEDBACK_STATUS_EFFECT[onboardingFeedback.status];
    if (!target) return { userId, status: user.status as TStoredUserStatus };
    const result = await setUserStatus(tx, {
      clientId,
      userId,
      status: target,
      source: "feedback",
      comment: onboardingFeedback.description,
      reviewer: onboardingFeedback.type
        ? `onboarding feedback (${onboardingFeedback.type})`
        : "onboarding feedback",
      details: {
        feedbackId: onboardingFeedback.id ?? null,
        feedbackStatus: onboardingFeedback.status,
        createdAt: onboardingFeedback.createdAt,
      },
    });
    return { userId, status: result?.status ?? target };
  });
}
