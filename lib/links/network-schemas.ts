import { z } from "zod";
import { ZRequiredNote } from "@/lib/cases/schemas";
import { IDENTIFIER_KINDS } from "@/lib/users/index-identifiers";

// The dashboard's network view: what it asks for and the ring actions it sends, validated once here.

/** The most people one ring action changes or one merge gathers: a ring, not a bulk job. */
export const RING_ACTION_MAX = 200;
/** The most people the view lists; a wider network is cut here and says so. */
export const NETWORK_PEOPLE_MAX = 500;
/** The most counterparties the view lists (those with the most transactions first). */
export const NETWORK_COUNTERPARTIES_MAX = 200;

/** What the view can link through: the identifier kinds, and payments ("counterparty"). */
export const NETWORK_LINK_KINDS = [...IDENTIFIER_KINDS, "counterparty"] as const;
export type TNetworkLinkKind = (typeof NETWORK_LINK_KINDS)[number];

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZNetworkQuery = z.object({
  depth: z.preprocess(
    emptyAsUndefined,
    z
      .enum(["1", "2"], { error: "depth must be 1 or 2" })
      .default("1")
      .transform((d) => (d === "2" ? 2 : 1) as 1 | 2),
  ),
  /** Comma-separated identifier kinds and "counterparty"; absent: all. */
  kinds: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(500)
      .transform((s) => [
        ...new Set(
          s
            .split(",")
            .map((v) => v.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(NETWORK_LINK_KINDS)).min(1))
      .optional(),
  ),
  /** Only links through uses since this day (YYYY-MM-DD) or instant (epoch milliseconds). */
  since: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(40)
      .transform((s, ctx) => {
        const at = /^\d+$/.test(s)
          ? new Date(Number(s))
          : /^\d{4}-\d{2}-\d{2}$/.test(s)
            ? new Date(`${s}T00:00:00Z`)
            : null;
        if (!at || Number.isNaN(at.getTime())) {
          ctx.addIssue({
            code: "custom",
            message: "since must be a date (YYYY-MM-DD) or epoch milliseconds",
          });
          return z.NEVER;
        }
        return at;
      })
      .optional(),
  ),
});
export type TNetworkQuery = z.infer<typeof ZNetworkQuery>;

export const ZRingStatus = z.object({
  userIds: z
    .array(z.string().min(1).max(200))
    .min(1, "Select at least one person")
    .max(RING_ACTION_MAX)
    .refine((ids) => new Set(ids).size === ids.length, "A person is listed twice"),
  status: z.enum(["blocked", "inactive"]),
  note: ZRequiredNote,
  /** Blocking: also confirm each person's open alerts with the note (as a single block does). */
  closeAlerts: z.boolean().default(true),
});
export type TRingStatus = z.infer<typeof ZRingStatus>;

export const ZMergeCases = z.object({
  caseIds: z
    .array(z.string().min(1).max(200))
    .min(1, "Select at least one case to merge")
    .max(RING_ACTION_MAX)
    .refine((ids) => new Set(ids).size === ids.length, "A case is listed twice"),
  note: ZRequiredNote,
});
export type TMergeCases = z.infer<typeof ZMergeCases>;
