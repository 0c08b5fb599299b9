// What the domain refuses, in its own words: lib/http turns a DomainError into the contract's error
// body (lib/http/domain-error-response.ts), so domain functions never know about HTTP.

export type TDomainErrorCode = "not_found" | "validation" | "conflict" | "forbidden";

export class DomainError extends Error {
  constructor(
    readonly code: TDomainErrorCode,
    message: string,
    readonly details?: string[],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const VALIDATION_MESSAGE = "Request validation failed";

/** Input that breaks a rule, one `<pointer>: <message>` line per problem. */
export function validationError(details: string[]): DomainError {
  return new DomainError("validation", VALIDATION_MESSAGE, details.length ? details : ["/: Invalid request"]);
}

/** Nothing of that id for this client, for example notFound("/transactionId", "Transaction not found"). */
export function notFound(path: string, message: string): DomainError {
  return new DomainError("not_found", message, [`${path}: ${message}`]);
}

export function forbidden(message: string): DomainError {
  return new DomainError("forbidden", message);
}

/** The request is well-formed but the entity's state refuses it (a closed case, a filed report). */
export function conflict(message: string): DomainError {
  return new DomainError("conflict", message, [`/: ${message}`]);
}
