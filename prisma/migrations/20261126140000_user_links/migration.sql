-- Links between users: two users are linked when they share an identifier of "user_identifiers".

-- A value shared by more users than this links nobody (a public IP, a payment processor's account).
ALTER TABLE "clients" ADD COLUMN "linkFanOutCap" INTEGER NOT NULL DEFAULT 50;

-- When and how often a user's transactions used an identifier, for "since when is it shared" and
-- the windowed link count of rules. One row per (identifier, user), upserted by the transaction's
-- own write statement; kept apart from "user_identifiers" because that table's rows are also
-- inserted and re-sourced by other CTEs of the same statement, and one statement cannot update a
-- row it inserted.
CREATE TABLE "user_identifier_uses" (
    "clientId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "firstUsedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastUsedAt" TIMESTAMPTZ(3) NOT NULL,
    "transactionCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "user_identifier_uses_pkey" PRIMARY KEY ("clientId","kind","value","userId")
);

-- links.fraudCount(): does a linked user have a transaction confirmed as fraud. Fraud marks are
-- rare, so the partial index stays small and answers it without reading the user's history.
CREATE INDEX "transactions_fraud_clientId_userId_idx" ON "transactions" ("clientId", "userId")
  WHERE "isFraud";
