-- One currency for amounts (decisions.md §13): a base currency per client, operator-loaded rates.
ALTER TABLE "clients" ADD COLUMN "baseCurrency" TEXT NOT NULL DEFAULT 'USD';

ALTER TABLE "transactions" ADD COLUMN "baseAmount" DECIMAL(24,8);

CREATE TABLE "fx_rates" (
    "currency" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "rate" DECIMAL(30,12) NOT NULL,

    CONSTRAINT "fx_rates_pkey" PRIMARY KEY ("currency","date")
);

-- Rates are cached per process under this global version (bumped by every import, in its transaction).
INSERT INTO "dataset_versions" ("name", "version") VALUES ('fx', 0) ON CONFLICT DO NOTHING;

-- The screening configuration cache holds the base currency: changing it bumps the client's
-- configVersion in the same statement, whoever writes it.
CREATE FUNCTION "bump_config_version_on_base_currency"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."configVersion" := OLD."configVersion" + 1;
  RETURN NEW;
END $$;

CREATE TRIGGER "clients_base_currency_bump_config_version" BEFORE UPDATE OF "baseCurrency" ON "clients"
  FOR EACH ROW WHEN (OLD."baseCurrency" IS DISTINCT FROM NEW."baseCurrency")
  EXECUTE FUNCTION "bump_config_version_on_base_currency"();
