import { validationError, type ApiError } from "@/lib/http/errors";

// Input PostgreSQL cannot store (an id too long for its index, a number beyond its column) is the
// caller's error, not ours: a 400 instead of a 500. The transaction has rolled back, nothing is kept.
const INPUT_ERRORS: Record<string, string> = {
  "54000": "A value is too long to be stored or indexed",
  "22001": "A value is too long for its field",
  "22003": "A number is out of the range that can be stored",
  "22021": "A value contains bytes that are not valid text",
  "22P05": "A value contains characters that cannot be stored",
  "22008": "A date is out of the range that can be stored",
};

type TDriverError = {
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
};

/** The PostgreSQL SQLSTATE of a Prisma driver-adapter error, if any. */
export function sqlState(err: unknown): string | undefined {
  // raw SQL through pg (lib/screening): the driver's own error
  if (err instanceof Error && "severity" in err && typeof (err as { code?: unknown }).code === "string")
    return (err as unknown as { code: string }).code;
  const cause = (err as TDriverError | null)?.meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === "string" ? code : undefined;
}

export function dbInputError(err: unknown): ApiError | undefined {
  const state = sqlState(err);
  const message = state ? INPUT_ERRORS[state] : undefined;
  return message ? validationError([`/: ${message}`]) : undefined;
}
