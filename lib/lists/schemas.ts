import { z } from "zod";
import { MAX_EPOCH_MS } from "@/lib/validation/timestamps";

export const LIST_KINDS = [
  "string",
  "email",
  "country",
  "ip",
  "cardFingerprint",
  "deviceId",
  "name",
] as const;
export type TListKind = (typeof LIST_KINDS)[number];

export const LIST_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const ZListName = z
  .string()
  .regex(LIST_NAME, "Use 1–64 lowercase letters, digits, '_' or '-', starting with a letter or digit");

export const ZListKind = z.enum(LIST_KINDS);

export const ZCreateList = z.object({
  name: ZListName,
  kind: ZListKind,
  description: z.string().trim().max(500).optional().default(""),
});
export type TCreateList = z.infer<typeof ZCreateList>;

export const ZListEntryInput = z.object({
  value: z.string().trim().min(1, "Enter a value").max(1000),
  note: z
    .string()
    .trim()
    .max(1000)
    .nullish()
    .transform((v) => v || null),
  expiresAt: z.number().int().positive().max(MAX_EPOCH_MS).nullish(),
});
export type TListEntryInput = z.infer<typeof ZListEntryInput>;

export const ZListEntrySearch = z.object({
  q: z.string().trim().max(200).optional().default(""),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  limit: z.coerce.number().int().min(1).max(200).optional().default(50),
});

export const ZListUpload = z.object({
  fileName: z.string().max(255).optional(),
  csv: z
    .string()
    .min(1, "The file is empty")
    .max(10 * 1024 * 1024),
  replace: z.boolean().optional().default(false),
});
