import type { Tx } from "@/lib/db";
import { lockUser } from "@/lib/users/lock-user";
import type { TStoredUserStatus } from "@/lib/users/schemas";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

export type TStatusChangeSource = "api" | "dashboard" | "attribute" | "transaction" | "feedback";

export type TSetUserStatus = {
  clientId: string;
  userId: string;
  status: TStoredUserStatus;
  source: TStatusChangeSource;
  comment?: string | null;
  /** Who made the change: the API's `reviewer` / `initiatedBy`, or the dashboard user. */
  reviewer?: string | null;
  /** A reason code, such as /status's FINANCIAL_CRIME. */
  reasonCode?: string | null;
  details?: Record<string, unknown>;
};

export type TUserStatusResult = {
  id: string;
  status: TStoredUserStatus;
  updatedAt: number;
  changed: boolean;
};

/** The webhook's `reason`: the reviewer's comment and the reviewer, e.g. "Chargeback ring (reviewer: ana)". */
export function buildReason({
  comment,
  reviewer,
  reasonCode,
}: {
  comment?: string | null;
  reviewer?: string | null;
  reasonCode?: string | null;
}): string {
  const text = comment?.trim() ?? "";
  const by = reviewer?.trim() ?? "";
  let reason = text && by ? `${text} (reviewer: ${by})` : text || (by ? `reviewer: ${by}` : "");
  if (reasonCode) reason = reason ? `${reasonCode}: ${reason}` : reasonCode;
  return reason;
}

/**
 * The one way a user's status is changed by a person or a rule of the API (block, unblock, status,
 * by transaction, by attribute, onboarding feedback, dashboard). Inside the caller's transaction:
 * locks the user, records the change with who, why and when, and emits user.status.block when the
 * user becomes blocked or user.status.unblock when they stop being blocked, only if the status
 * actually changed. Answers null for an unknown user (of this client).
 */
export async function setUserStatus(tx: Tx, input: TSetUserStatus): Promise<TUserStatusResult | null> {
  const { clientId, userId, status, source } = input;
  const current = await lockUser(tx, { clientId, userId });
  if (!current) return null;

  if (current.status === status) {
    const row = await tx.user.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: userId } },
      select: { updatedAt: true },
    });
    return { id: userId, status, updatedAt: row.updatedAt.getTime(), changed: false };
  }

  const reason = buildReason(input);
  const now = new Date();
  await tx.user.update({
    where: { clientId_id: { clientId, id: userId } },
    data: { status, statusReason: reason || null, updatedAt: now },
  });
  await tx.userStatusChange.create({
    data: {
      clientId,
      userId,
      fromStatus: current.status,
      toStatus: status,
      source,
      comment: input.comment ?? null,
      reviewer: input.reviewer ?? null,
      reason: input.reasonCode ?? null,
      details: (input.details ?? undefined) as object | undefined,
      createdAt: now,
    },
  });

  // The contract's events: to blocked, and from blocked to active (blocked → inactive sends neither).
  const event =
    status === "blocked"
      ? "user.status.block"
      : current.status === "blocked" && status === "active"
        ? "user.status.unblock"
        : null;
  if (event)
    await emitWebhookEvent(tx, {
      clientId,
      event,
      payload: webhookPayload[event]({ id: userId, reason, updatedAt: now }),
      timestamp: now.getTime(),
    });
  return { id: userId, status, updatedAt: now.getTime(), changed: true };
}
