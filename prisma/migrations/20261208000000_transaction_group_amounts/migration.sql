-- The five group indexes of "transactions" (user, merchant, account, device, card) carry the amounts.
--
-- Why: the raw rows of an aggregate's window (its ragged edges and its quiet days) were read through the group's
-- index and then each row's heap page for "amount" or "baseAmount". Rows of one group are spread over the whole
-- month partition, so at 10,000,000 stored transactions those pages are rarely in shared buffers: 10-18 heap
-- pages read from outside them per screening (docs/benchmarks.md, "Amounts in the group indexes"). With the
-- amounts in the index (INCLUDE), a sum, average or extreme over raw rows is an index-only scan, as counts
-- already are (20261207120000); only rows on pages not yet marked all-visible (the newest, until VACUUM) still
-- visit the heap. No function changes: the planner picks these indexes for the statements it already runs.
--
-- Built beside the plain indexes under new names; 20261208000100 drops the plain ones and gives these their
-- names. CREATE INDEX on a partitioned table locks each month partition against writes while it is built, and
-- here until the migration's transaction ends. On a large database build each month partition's index first,
-- without blocking writes (docs/operations.md, "Index builds on a large database"): this statement then finds
-- them and only attaches them.
CREATE INDEX IF NOT EXISTS "transactions_clientId_userId_occurredAt_amounts_idx" ON "transactions" ("clientId", "userId", "occurredAt") INCLUDE ("amount", "baseAmount");
CREATE INDEX IF NOT EXISTS "transactions_clientId_merchantId_occurredAt_amounts_idx" ON "transactions" ("clientId", "merchantId", "occurredAt") INCLUDE ("amount", "baseAmount");
CREATE INDEX IF NOT EXISTS "transactions_clientId_accountId_occurredAt_amounts_idx" ON "transactions" ("clientId", "accountId", "occurredAt") INCLUDE ("amount", "baseAmount");
CREATE INDEX IF NOT EXISTS "transactions_clientId_userDeviceId_occurredAt_amounts_idx" ON "transactions" ("clientId", "userDeviceId", "occurredAt") INCLUDE ("amount", "baseAmount");
CREATE INDEX IF NOT EXISTS "transactions_clientId_cardFingerprint_occurredAt_amounts_idx" ON "transactions" ("clientId", "cardFingerprint", "occurredAt") INCLUDE ("amount", "baseAmount");
