-- Versioned in-memory caches of the screening path (lib/screening/hot/README.md).
ALTER TABLE "clients" ADD COLUMN "configVersion" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "dataset_versions" (
    "name" TEXT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_versions_pkey" PRIMARY KEY ("name")
);

-- Every change to what a screening caches per client bumps the client's configVersion in the same
-- transaction, whatever wrote it (API, dashboard, CLI, SQL): the next screening in any process reloads.
CREATE FUNCTION "bump_client_config_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "clients" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."clientId";
    RETURN OLD;
  END IF;
  UPDATE "clients" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."clientId";
  IF TG_OP = 'UPDATE' AND OLD."clientId" IS DISTINCT FROM NEW."clientId" THEN
    UPDATE "clients" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."clientId";
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "rules_bump_config_version" AFTER INSERT OR UPDATE OR DELETE ON "rules"
  FOR EACH ROW EXECUTE FUNCTION "bump_client_config_version"();
CREATE TRIGGER "rule_versions_bump_config_version" AFTER INSERT OR UPDATE OR DELETE ON "rule_versions"
  FOR EACH ROW EXECUTE FUNCTION "bump_client_config_version"();
CREATE TRIGGER "webhook_subscriptions_bump_config_version" AFTER INSERT OR UPDATE OR DELETE ON "webhook_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "bump_client_config_version"();
