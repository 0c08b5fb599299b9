import type { TComment } from "@/lib/comments/schemas";

type TCommentRow = {
  id: string;
  userId: string;
  comment: string;
  commenterId: string;
  commenterDisplayName: string | null;
  externalId: string | null;
  transactionId: string | null;
  ruleTriggerEventId: string | null;
  action: string | null;
  createdAt: Date;
};

/** The interface's Comment: optional fields that were not sent are left out. */
export function serializeComment(row: TCommentRow): TComment {
  const optional = {
    commenterDisplayName: row.commenterDisplayName,
    externalId: row.externalId,
    transactionId: row.transactionId,
    ruleTriggerEventId: row.ruleTriggerEventId,
    action: row.action,
  };
  return {
    id: row.id,
    userId: row.userId,
    comment: row.comment,
    commenterId: row.commenterId,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null)),
    createdAt: row.createdAt.getTime(),
  };
}
