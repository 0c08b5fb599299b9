-- Aggregates grouped by a JSON path read rows by that expression (demo rule TX-CRYPTO-NEW-ADDRESS:
-- count over transactions groupBy crypto.address). Prisma cannot declare expression indexes and
-- ignores them when diffing, so later migrations leave this one alone.
CREATE INDEX "transactions_clientId_cryptoAddress_occurredAt_idx"
  ON "transactions" ("clientId", ("data" #>> '{crypto,address}'), "occurredAt");
