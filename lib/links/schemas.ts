import { z } from "zod";
import { IDENTIFIER_KINDS, type TIdentifierKind } from "@/lib/users/index-identifiers";

const ZKind = z.enum(IDENTIFIER_KINDS);

/** GET /v1/users/{userId}/links: `depth` 1 or 2 (default 1), `kinds` a comma-separated list (default all). */
export const ZUserLinksQuery = z.object({
  depth: z
    .enum(["1", "2"], { message: "Expected 1 or 2" })
    .optional()
    .transform((d) => (d === "2" ? 2 : 1) as 1 | 2),
  kinds: z
    .string()
    .optional()
    .transform((s, ctx) => {
      const kinds = (s ?? "")
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== "");
      const unknown = kinds.filter((k) => !ZKind.safeParse(k).success);
      if (unknown.length) {
        ctx.addIssue({
          code: "custom",
          message: `Unknown identifier kind ${unknown.map((k) => `'${k}'`).join(", ")}; expected ${IDENTIFIER_KINDS.join(", ")}`,
        });
        return z.NEVER;
      }
      return kinds.length ? ([...new Set(kinds)] as TIdentifierKind[]) : undefined;
    })
    .meta({ description: `Comma-separated identifier kinds: ${IDENTIFIER_KINDS.join(", ")}` }),
});
export type TUserLinksQuery = z.infer<typeof ZUserLinksQuery>;

export const ZUserLinksResponse = z.object({
  userId: z.string(),
  links: z.array(
    z.object({
      userId: z.string(),
      depth: z.union([z.literal(1), z.literal(2)]),
      via: z.array(z.object({ kind: ZKind, value: z.string() })),
    }),
  ),
  capped: z.array(z.object({ kind: ZKind, value: z.string(), users: z.number().int() })),
});
