import {
  DomainError,
  type TDomainErrorCode,
  forbidden as domainForbidden,
  notFound as domainNotFound,
  validationError as domainValidationError,
} from "@/lib/errors/domain-error";
import { logError } from "@/lib/log";

// The one error body of the contract: { error: { type, message, details? }, timestamp }.
export type TErrorType =
  | "VALIDATION_ERROR"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE";

export type TErrorBody = {
  error: { type: TErrorType; message: string; details?: string[] };
  timestamp: number;
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: TErrorType,
    message: string,
    readonly details?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): TErrorBody {
    return errorBody(this.type, this.message, this.details);
  }
}

export function errorBody(type: TErrorType, message: string, details?: string[]): TErrorBody {
  return { error: details?.length ? { type, message, details } : { type, message }, timestamp: Date.now() };
}

const DOMAIN_STATUS: Record<TDomainErrorCode, { status: number; type: TErrorType }> = {
  validation: { status: 400, type: "VALIDATION_ERROR" },
  // The contract's error types have no conflict: a state that refuses the request answers 400.
  conflict: { status: 400, type: "VALIDATION_ERROR" },
  not_found: { status: 404, type: "NOT_FOUND" },
  forbidden: { status: 403, type: "FORBIDDEN" },
};

/** The one mapping of what the domain refuses to the contract's status and error type. */
export function toApiError(err: DomainError): ApiError {
  const { status, type } = DOMAIN_STATUS[err.code];
  return new ApiError(status, type, err.message, err.details);
}

// The domain's factories answering as ApiError, for the edge's own refusals (a malformed body, a
// forged request) and for the modules that still import them from here (migrated after merge).
export function validationError(details: string[]): ApiError {
  return toApiError(domainValidationError(details));
}

export function notFound(path: string, message: string): ApiError {
  return toApiError(domainNotFound(path, message));
}

export function forbidden(message: string): ApiError {
  return toApiError(domainForbidden(message));
}

export function unauthorized(message = "Missing or invalid API key"): ApiError {
  return new ApiError(401, "UNAUTHORIZED", message);
}

/** The answer to an error the domain or the edge threw on purpose; undefined for anything else (a bug). */
export function knownApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return toApiError(err);
  return undefined;
}

/** The error body one item of a bulk request gets: what the same single request would have answered. */
export function bulkItemError(err: unknown): TErrorBody["error"] {
  const known = knownApiError(err);
  if (known) return known.toBody().error;
  logError("bulk report item failed", err);
  return { type: "INTERNAL_ERROR", message: "Internal server error" };
}

export function errorResponse(err: ApiError): Response {
  return Response.json(err.toBody(), { status: err.status, headers: err.headers });
}
