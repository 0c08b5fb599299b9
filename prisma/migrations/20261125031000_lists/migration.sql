-- Client lists that rules read with inList (decisions.md §10).
CREATE TABLE "lists" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "version" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lists_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "list_entries" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "listId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "note" TEXT,
    "expiresAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "list_entries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "lists_clientId_name_key" ON "lists"("clientId", "name");
CREATE INDEX "list_entries_clientId_listId_idx" ON "list_entries"("clientId", "listId");
CREATE UNIQUE INDEX "list_entries_listId_key_key" ON "list_entries"("listId", "key");

ALTER TABLE "list_entries" ADD CONSTRAINT "list_entries_listId_fkey" FOREIGN KEY ("listId") REFERENCES "lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A list row change (create, rename, delete, or the version bump below) bumps the client's
-- configVersion, so the next screening in every process sees it (lib/screening/hot/README.md).
CREATE TRIGGER "lists_bump_config_version" AFTER INSERT OR UPDATE OR DELETE ON "lists"
  FOR EACH ROW EXECUTE FUNCTION "bump_client_config_version"();

-- Entry changes bump their list's version once per statement (an import of 100,000 entries is one
-- bump, not 100,000), which in turn bumps the client's configVersion through the trigger above.
CREATE FUNCTION "bump_list_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "lists" SET "version" = "version" + 1, "updatedAt" = CURRENT_TIMESTAMP
      WHERE "id" IN (SELECT DISTINCT "listId" FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE "lists" SET "version" = "version" + 1, "updatedAt" = CURRENT_TIMESTAMP
      WHERE "id" IN (SELECT "listId" FROM new_rows UNION SELECT "listId" FROM old_rows);
  ELSE
    UPDATE "lists" SET "version" = "version" + 1, "updatedAt" = CURRENT_TIMESTAMP
      WHERE "id" IN (SELECT DISTINCT "listId" FROM old_rows);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "list_entries_insert_bump_list_version" AFTER INSERT ON "list_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"();
CREATE TRIGGER "list_entries_update_bump_list_version" AFTER UPDATE ON "list_entries"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"();
CREATE TRIGGER "list_entries_delete_bump_list_version" AFTER DELETE ON "list_entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"();
