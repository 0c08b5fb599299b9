-- Placing a new alert in its case no longer looks for an alert with the same (transaction, rule) in "alerts":
-- "alert_key_inserted" (20261127030300), whose name sorts first among the BEFORE INSERT triggers, has already
-- skipped such an alert through "alert_keys", and a skipped row fires no later trigger. Since alerts are
-- partitioned by month (20261127060000) that lookup cannot prune and probed every month's index: its cost grew
-- with the months kept (about 3 buffers a month for every new alert).

-- Places a new alert: it joins the subject's case that is not closed, else opens one (case.created).
-- The priority rises with the alert's level and the due time then moves to the nearer of the two SLAs.
-- An alert that repeats an existing (transaction, rule) never gets here: "alert_key_inserted" skipped it.
-- Every statement inside is a point lookup on a unique index; enable_seqscan off keeps it so in a session whose
-- plans were made while the tables were still empty (a fresh database), where a cached sequential scan would
-- make every insert of a large batch scan all alerts inserted before it.
CREATE OR REPLACE FUNCTION "place_alert_in_case"() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  s_type TEXT;
  s_id TEXT;
  sla JSONB;
  due TIMESTAMPTZ;
  placed RECORD;
BEGIN
  IF NEW."caseId" IS NOT NULL THEN
    RETURN NEW;
  END IF;
  IF NEW."userId" IS NOT NULL THEN
    s_type := 'user';
    s_id := NEW."userId";
  ELSE
    SELECT 'merchant', t."merchantId" INTO s_type, s_id
    FROM "transactions" t WHERE t."clientId" = NEW."clientId" AND t."id" = NEW."transactionId";
    IF s_id IS NULL THEN
      -- a transaction always names its user (interface); kept so an alert is never left without a case
      s_type := 'transaction';
      s_id := NEW."transactionId";
    END IF;
  END IF;
  SELECT "caseSlaHours" INTO sla FROM "clients" WHERE "id" = NEW."clientId";
  due := NEW."createdAt" + make_interval(secs => case_sla_hours(sla, NEW."level") * 3600);
  INSERT INTO "cases" AS c ("clientId", "subjectType", "subjectId", "status", "priority", "dueAt",
                            "alertCount", "lastAlertAt", "createdAt", "updatedAt")
  VALUES (NEW."clientId", s_type, s_id, 'open', NEW."level", due, 1, NEW."createdAt", NEW."createdAt", NEW."createdAt")
  ON CONFLICT ("clientId", "subjectType", "subjectId") WHERE "status" <> 'closed' DO UPDATE SET
    "alertCount" = c."alertCount" + 1,
    "lastAlertAt" = GREATEST(c."lastAlertAt", EXCLUDED."lastAlertAt"),
    "priority" = CASE WHEN risk_rank(EXCLUDED."priority") > risk_rank(c."priority")
                      THEN EXCLUDED."priority" ELSE c."priority" END,
    "dueAt" = CASE WHEN risk_rank(EXCLUDED."priority") > risk_rank(c."priority")
                   THEN LEAST(c."dueAt", EXCLUDED."dueAt") ELSE c."dueAt" END,
    "updatedAt" = GREATEST(c."updatedAt", EXCLUDED."updatedAt")
  RETURNING c."id", c."priority", c."dueAt", c."createdAt", (c.xmax = 0) AS "inserted" INTO placed;
  NEW."caseId" := placed."id";
  IF placed."inserted" THEN
    INSERT INTO "case_events" ("clientId", "caseId", "type", "toStatus", "details", "createdAt")
    VALUES (NEW."clientId", placed."id", 'created', 'open', jsonb_build_object('alertId', NEW."id"), NEW."createdAt");
    PERFORM emit_webhook(NEW."clientId", 'case.created', jsonb_build_object(
      'caseId', placed."id",
      'subject', jsonb_build_object('type', s_type, 'id', s_id),
      'status', 'open',
      'priority', placed."priority",
      'dueAt', epoch_ms(placed."dueAt"),
      'createdAt', epoch_ms(placed."createdAt"),
      'alertIds', jsonb_build_array(NEW."id")), NEW."createdAt");
  END IF;
  RETURN NEW;
END $$;
