import type { z } from "zod";
import { validationError } from "@/lib/errors/domain-error";
import { nulCharacterIssues } from "@/lib/validation/nul-characters";
import { formatIssues, issueMessage } from "@/lib/validation/zod-issues";

/** `data` validated by `schema` in the contract's wording, else the domain's validation error. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data, { error: issueMessage });
  if (!result.success) throw validationError(formatIssues(result.error));
  // After parsing, so unknown fields (stripped) stay ignored.
  const nul = nulCharacterIssues(result.data);
  if (nul.length) throw validationError(nul);
  return result.data;
}
