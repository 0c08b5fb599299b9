import { z } from "zod";
import { ZId, ZIdRef } from "@/lib/validation/ids";
import { MAX_EPOCH_MS, ZEpochMs } from "@/lib/validation/timestamps";
import { ZNonEmptyString, ZQueryInteger } from "@/lib/users/schemas";

// Comments on users (interface "Comment", "Rules and comments"; docs/decisions.md §4, §9).

export const ZCreateComment = z.object({
  userId: ZId,
  comment: ZNonEmptyString,
  commenterId: ZId,
  commenterDisplayName: z.string().optional(),
  externalId: ZIdRef.optional(),
  transactionId: ZIdRef.optional(),
  ruleTriggerEventId: ZIdRef.optional(),
  action: z.string().optional(),
  createdAt: ZEpochMs.optional(),
});
export type TCreateComment = z.infer<typeof ZCreateComment>;

export const ZCreateCommentResponse = z.object({ status: z.literal("accepted"), id: z.string() });

export const COMMENTS_DEFAULT_LIMIT = 100;
export const COMMENTS_MAX_LIMIT = 1000;

export const ZListCommentsQuery = z
  .object({
    start: ZQueryInteger({ min: 0, max: MAX_EPOCH_MS }).optional(),
    end: ZQueryInteger({ min: 0, max: MAX_EPOCH_MS }).optional(),
    limit: ZQueryInteger({ min: 1, max: COMMENTS_MAX_LIMIT }).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.start !== undefined && q.end !== undefined && q.start > q.end)
      ctx.addIssue({ code: "custom", path: ["end"], message: "end must not be before start" });
  });
export type TListCommentsQuery = z.infer<typeof ZListCommentsQuery>;

export const ZComment = z.object({
  id: z.string(),
  userId: z.string(),
  comment: z.string(),
  commenterId: z.string(),
  commenterDisplayName: z.string().optional(),
  externalId: z.string().optional(),
  transactionId: z.string().optional(),
  ruleTriggerEventId: z.string().optional(),
  action: z.string().optional(),
  createdAt: z.number(),
});
export type TComment = z.infer<typeof ZComment>;

export const ZCommentsResponse = z.object({ comments: z.array(ZComment) });
