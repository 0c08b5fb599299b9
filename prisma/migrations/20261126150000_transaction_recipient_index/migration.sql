-- Who paid a user (the dashboard's counterparties of a user): transactions whose recipient is a stored
-- user id. Partial, so transactions without a recipient id (most of them) cost nothing to index.
CREATE INDEX "transactions_recipient_id_idx" ON "transactions" ("clientId", ("data" #>> '{recipient,id}'), "occurredAt")
  WHERE ("data" #>> '{recipient,id}') IS NOT NULL;
