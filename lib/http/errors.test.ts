import { describe, expect, it } from "vitest";
import { conflict, DomainError, forbidden, notFound, validationError } from "@/lib/errors/domain-error";
import { bulkItemError, knownApiError, toApiError } from "@/lib/http/errors";

const answer = (err: DomainError) => {
  const api = toApiError(err);
  return { status: api.status, error: api.toBody().error };
};

describe("toApiError", () => {
  it("answers each domain refusal with the contract's status, type, message and details", () => {
    expect(answer(notFound("/caseId", "Case not found"))).toEqual({
      status: 404,
      error: { type: "NOT_FOUND", message: "Case not found", details: ["/caseId: Case not found"] },
    });
    expect(answer(validationError(["/note: A note is required"]))).toEqual({
      status: 400,
      error: {
        type: "VALIDATION_ERROR",
        message: "Request validation failed",
        details: ["/note: A note is required"],
      },
    });
    expect(answer(validationError([])).error.details).toEqual(["/: Invalid request"]);
    // a state that refuses the request: 400 in the validation body, its message also the detail
    expect(answer(conflict("The case is closed"))).toEqual({
      status: 400,
      error: { type: "VALIDATION_ERROR", message: "The case is closed", details: ["/: The case is closed"] },
    });
    expect(answer(forbidden("Not yours"))).toEqual({
      status: 403,
      error: { type: "FORBIDDEN", message: "Not yours" },
    });
  });

  it("leaves anything that was not thrown on purpose to the 500", () => {
    expect(knownApiError(new Error("boom"))).toBeUndefined();
    expect(bulkItemError(new Error("boom"))).toEqual({
      type: "INTERNAL_ERROR",
      message: "Internal server error",
    });
    expect(bulkItemError(notFound("/templateId", "Report template not found"))).toEqual({
      type: "NOT_FOUND",
      message: "Report template not found",
      details: ["/templateId: Report template not found"],
    });
  });
});
