import type { z } from "zod";
import { parseWith } from "@/lib/http/with-client";

/**
 * For PUT endpoints whose body fields are all optional (block, unblock, status): a request sent
 * with no body at all is the empty object rather than a 400. A body that is sent is parsed normally.
 */
export async function optionalBody<S extends z.ZodType>(
  ctx: { req: Request; body: (schema: S) => Promise<z.infer<S>> },
  schema: S,
): Promise<z.infer<S>> {
  if (ctx.req.body === null || ctx.req.headers.get("content-length") === "0") return parseWith(schema, {});
  return ctx.body(schema);
}
