// Any other /v1 path: 404 in the contract's error body
import { ApiError, errorResponse } from "@/lib/http/errors";

function notFoundRoute(): Promise<Response> {
  return Promise.resolve(errorResponse(new ApiError(404, "NOT_FOUND", "Route not found")));
}

export {
  notFoundRoute as GET,
  notFoundRoute as POST,
  notFoundRoute as PUT,
  notFoundRoute as PATCH,
  notFoundRoute as DELETE,
};
