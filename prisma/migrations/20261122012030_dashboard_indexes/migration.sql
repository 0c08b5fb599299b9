-- CreateIndex
CREATE INDEX "transactions_clientId_status_occurredAt_idx" ON "transactions"("clientId", "status", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_riskLevel_occurredAt_idx" ON "transactions"("clientId", "riskLevel", "occurredAt");

-- Dashboard user search: case-insensitive prefix of id, email, first or last name. Expression
-- indexes (Prisma cannot declare them and ignores them when diffing); text_pattern_ops lets
-- LIKE 'abc%' use them whatever the database collation.
CREATE INDEX "users_clientId_lower_id_idx" ON "users" ("clientId", lower("id") text_pattern_ops);
CREATE INDEX "users_clientId_lower_email_idx" ON "users" ("clientId", lower("email") text_pattern_ops);
CREATE INDEX "users_clientId_lower_firstName_idx" ON "users" ("clientId", lower("firstName") text_pattern_ops);
CREATE INDEX "users_clientId_lower_lastName_idx" ON "users" ("clientId", lower("lastName") text_pattern_ops);
