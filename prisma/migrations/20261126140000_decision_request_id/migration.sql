-- The X-Request-Id of the request that made the decision (null for decisions made before, or outside a request).
-- A nullable column without a default: no table rewrite, and a previous release that does not write it keeps working.
ALTER TABLE "decisions" ADD COLUMN "requestId" TEXT;
