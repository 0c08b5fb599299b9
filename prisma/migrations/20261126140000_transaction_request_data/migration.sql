-- The request body exactly as sent, kept when /v1/transaction/update first merges a change into "data".
ALTER TABLE "transactions" ADD COLUMN "requestData" JSONB;
