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

export const VALIDATION_MESSAGE = "Request validation failed";

export function validationError(details: string[]): ApiError {
  return new ApiError(
    400,
    "VALIDATION_ERROR",
    VALIDATION_MESSAGE,
    details.length ? details : ["/: Invalid request"],
  );
}

/** A 404 naming the path that was not found, for example notFound("/transactionId", "Transaction not found"). */
export function notFound(path: string, message: string): ApiError {
  return new ApiError(404, "NOT_FOUND", message, [`${path}: ${message}`]);
}

export function forbidden(message: string): ApiError {
  return new ApiError(403, "FORBIDDEN", message);
}

export function unauthorized(message = "Missing or invalid API key"): ApiError {
  return new ApiError(401, "UNAUTHORIZED", message);
}

export function errorResponse(err: ApiError): Response {
  return Response.json(err.toBody(), { status: err.status, headers: err.headers });
}
