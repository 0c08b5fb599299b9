-- contract: 20261208000000_transaction_group_amounts; unused since 20261208000000_transaction_group_amounts
-- The plain group indexes ("clientId", <group>, "occurredAt") are replaced by the ones of 20261208000000, which
-- have the same key columns and carry the amounts. No statement of this or the previous release names an index
-- of "transactions": every one that used the plain indexes is served by the new ones (the same keys, the same
-- order), so the previous release runs on this schema as before. Keeping both would make every insert write five
-- index entries more. The new indexes then take the plain ones' names, the names the Prisma schema's @@index lines
-- give (Prisma has no INCLUDE; the schema notes it).
DROP INDEX IF EXISTS "transactions_clientId_userId_occurredAt_idx";
DROP INDEX IF EXISTS "transactions_clientId_merchantId_occurredAt_idx";
DROP INDEX IF EXISTS "transactions_clientId_accountId_occurredAt_idx";
DROP INDEX IF EXISTS "transactions_clientId_userDeviceId_occurredAt_idx";
DROP INDEX IF EXISTS "transactions_clientId_cardFingerprint_occurredAt_idx";
ALTER INDEX "transactions_clientId_userId_occurredAt_amounts_idx" RENAME TO "transactions_clientId_userId_occurredAt_idx";
ALTER INDEX "transactions_clientId_merchantId_occurredAt_amounts_idx" RENAME TO "transactions_clientId_merchantId_occurredAt_idx";
ALTER INDEX "transactions_clientId_accountId_occurredAt_amounts_idx" RENAME TO "transactions_clientId_accountId_occurredAt_idx";
ALTER INDEX "transactions_clientId_userDeviceId_occurredAt_amounts_idx" RENAME TO "transactions_clientId_userDeviceId_occurredAt_idx";
ALTER INDEX "transactions_clientId_cardFingerprint_occurredAt_amounts_idx" RENAME TO "transactions_clientId_cardFingerprint_occurredAt_idx";
