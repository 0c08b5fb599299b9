-- Expand step towards alerts partitioned by month (docs/operations.md, "Partitions and retention"). A
-- partitioned "alerts" cannot keep the unique index on ("clientId", "transactionId", "ruleRef"), and the
-- previous release's `ON CONFLICT ("clientId", "transactionId", "ruleRef") DO NOTHING` fails at plan time
-- without it, so alerts are converted only in the release after the one that stops naming it (a contract
-- migration then). This release: the key moves to "alert_keys", kept by a row trigger that skips the insert
-- of an alert whose key exists (what DO NOTHING did: the row is not written, RETURNING leaves it out; a
-- concurrent insert of the same key waits for the first and is skipped if it commits). The trigger's name
-- sorts before "alerts_place_in_case", so a skipped alert is placed in no case. The screening now inserts
-- without a conflict target; the unique index stays for the previous release.
LOCK TABLE "alerts" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "alert_keys" AS SELECT "clientId", "transactionId", "ruleRef" FROM "alerts";
ALTER TABLE "alert_keys" ALTER COLUMN "clientId" SET NOT NULL, ALTER COLUMN "transactionId" SET NOT NULL,
  ALTER COLUMN "ruleRef" SET NOT NULL,
  ADD CONSTRAINT "alert_keys_pkey" PRIMARY KEY ("clientId", "transactionId", "ruleRef");

CREATE FUNCTION "alert_key_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "alert_keys" ("clientId", "transactionId", "ruleRef")
  VALUES (NEW."clientId", NEW."transactionId", NEW."ruleRef") ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$fn$;

CREATE FUNCTION "alert_key_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "alert_keys"
  WHERE "clientId" = OLD."clientId" AND "transactionId" = OLD."transactionId" AND "ruleRef" = OLD."ruleRef";
  RETURN OLD;
END
$fn$;

CREATE FUNCTION "alert_key_unchanged"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'an alert''s "clientId", "transactionId" and "ruleRef" do not change' USING ERRCODE = '23514';
END
$fn$;

CREATE FUNCTION "alert_keys_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "alert_keys";
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "alert_key_inserted" BEFORE INSERT ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "alert_key_inserted"();
CREATE TRIGGER "alert_key_deleted" BEFORE DELETE ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "alert_key_deleted"();
CREATE TRIGGER "alert_key_unchanged" BEFORE UPDATE ON "alerts"
  FOR EACH ROW WHEN (OLD."clientId" IS DISTINCT FROM NEW."clientId" OR OLD."transactionId" IS DISTINCT FROM NEW."transactionId"
    OR OLD."ruleRef" IS DISTINCT FROM NEW."ruleRef")
  EXECUTE FUNCTION "alert_key_unchanged"();
CREATE TRIGGER "alert_keys_truncated" AFTER TRUNCATE ON "alerts"
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_keys_truncated"();
