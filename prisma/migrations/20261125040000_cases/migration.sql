-- Cases (decisions §12): every alert belongs to exactly one case, placed by the database on insert so
-- every path that opens alerts (the raw-SQL screening, the Prisma paths, SQL by hand) gets it, in the
-- same statement and transaction, with no extra round trip.

ALTER TABLE "clients" ADD COLUMN "caseSlaHours" JSONB;
ALTER TABLE "alerts" ADD COLUMN "caseId" TEXT;

CREATE TABLE "cases" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "clientId" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "priority" TEXT NOT NULL,
    "assigneeId" TEXT,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT,
    "closeNote" TEXT,
    "closedAt" TIMESTAMPTZ(3),
    "closedById" TEXT,
    "reportId" TEXT,
    "alertCount" INTEGER NOT NULL DEFAULT 0,
    "lastAlertAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cases_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "case_events" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "clientId" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT,
    "actorId" TEXT,
    "note" TEXT,
    "details" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "case_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "alerts_caseId_ruleId_idx" ON "alerts"("caseId", "ruleId");
CREATE INDEX "alerts_clientId_userId_createdAt_idx" ON "alerts"("clientId", "userId", "createdAt");
CREATE INDEX "cases_clientId_status_dueAt_id_idx" ON "cases"("clientId", "status", "dueAt", "id");
CREATE INDEX "cases_clientId_dueAt_id_idx" ON "cases"("clientId", "dueAt", "id");
CREATE INDEX "cases_clientId_assigneeId_dueAt_id_idx" ON "cases"("clientId", "assigneeId", "dueAt", "id");
CREATE INDEX "cases_clientId_subjectType_subjectId_idx" ON "cases"("clientId", "subjectType", "subjectId");
CREATE INDEX "cases_clientId_createdAt_id_idx" ON "cases"("clientId", "createdAt", "id");
CREATE INDEX "cases_clientId_reportId_idx" ON "cases"("clientId", "reportId");
CREATE INDEX "case_events_clientId_caseId_createdAt_idx" ON "case_events"("clientId", "caseId", "createdAt");

-- At most one case per subject is not closed: concurrent alerts of one user meet on this index
-- (INSERT ... ON CONFLICT DO UPDATE waits for the other transaction, then joins its case).
CREATE UNIQUE INDEX "cases_open_subject_key" ON "cases"("clientId", "subjectType", "subjectId")
  WHERE "status" <> 'closed';

-- Order of the risk levels (lib/screening/compose-outcome.ts); n/a and unknown rank lowest.
CREATE FUNCTION "risk_rank"(level TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE level WHEN 'very_high' THEN 5 WHEN 'high' THEN 4 WHEN 'medium' THEN 3
    WHEN 'medium_low' THEN 2 WHEN 'low' THEN 1 ELSE 0 END
$$;

-- A client's SLA in hours for a priority: its setting, else the default (lib/cases/sla.ts keeps the same table).
CREATE FUNCTION "case_sla_hours"(sla JSONB, level TEXT) RETURNS NUMERIC LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(
    CASE WHEN jsonb_typeof(sla -> level) = 'number' THEN (sla ->> level)::numeric END,
    CASE level WHEN 'very_high' THEN 4 WHEN 'high' THEN 24 WHEN 'medium' THEN 72
      WHEN 'medium_low' THEN 120 ELSE 168 END)
$$;

CREATE FUNCTION "epoch_ms"(at TIMESTAMPTZ) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT (extract(epoch FROM at) * 1000)::bigint
$$;

-- A webhook event written in the caller's transaction, as lib/webhooks/emit.ts does: the event's
-- outbox row, one delivery per active subscription listing the type, and each delivery's outbox row.
CREATE FUNCTION "emit_webhook"(p_client TEXT, p_event TEXT, p_payload JSONB, p_at TIMESTAMPTZ)
RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  sub RECORD;
  outbox_id TEXT;
  delivery_id TEXT;
  body TEXT;
  n INTEGER := 0;
BEGIN
  FOR sub IN SELECT "id" FROM "webhook_subscriptions"
             WHERE "clientId" = p_client AND "active" AND p_event = ANY("events") ORDER BY "id" LOOP
    IF outbox_id IS NULL THEN
      outbox_id := gen_random_uuid()::text;
      body := jsonb_build_object('event', p_event, 'payload', p_payload, 'timestamp', epoch_ms(p_at))::text;
      INSERT INTO "outbox_events" ("id", "clientId", "name", "data")
      VALUES (outbox_id, p_client, 'webhook/event.emitted',
              jsonb_build_object('event', p_event, 'timestamp', epoch_ms(p_at)));
    END IF;
    delivery_id := gen_random_uuid()::text;
    INSERT INTO "webhook_deliveries" ("id", "clientId", "subscriptionId", "outboxEventId", "eventType", "body", "nextAttemptAt")
    VALUES (delivery_id, p_client, sub."id", outbox_id, p_event, body, now());
    INSERT INTO "outbox_events" ("id", "clientId", "name", "data")
    VALUES (gen_random_uuid()::text, p_client, 'webhook/delivery.requested', jsonb_build_object('deliveryId', delivery_id));
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;

-- Places a new alert: it joins the subject's case that is not closed, else opens one (case.created).
-- The priority rises with the alert's level and the due time then moves to the nearer of the two SLAs.
-- An alert that repeats an existing (transaction, rule) is skipped by the caller's ON CONFLICT: it joins nothing.
-- Every statement inside is a point lookup on a unique index; enable_seqscan off keeps it so in a session whose
-- plans were made while the tables were still empty (a fresh database), where a cached sequential scan would
-- make every insert of a large batch scan all alerts inserted before it.
CREATE FUNCTION "place_alert_in_case"() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
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
  IF EXISTS (SELECT 1 FROM "alerts" WHERE "clientId" = NEW."clientId"
             AND "transactionId" = NEW."transactionId" AND "ruleRef" = NEW."ruleRef") THEN
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

-- Existing alerts, grouped by subject: one case each, closed when none of its alerts is open or escalated.
CREATE TEMP TABLE "_alert_subjects" AS
SELECT a."id", a."clientId", a."level", a."status", a."createdAt", a."reviewedAt", a."reviewedBy",
  CASE WHEN a."userId" IS NOT NULL THEN 'user' WHEN t."merchantId" IS NOT NULL THEN 'merchant' ELSE 'transaction' END AS "subjectType",
  COALESCE(a."userId", t."merchantId", a."transactionId") AS "subjectId"
FROM "alerts" a LEFT JOIN "transactions" t ON t."clientId" = a."clientId" AND t."id" = a."transactionId";

CREATE TEMP TABLE "_migrated_cases" AS
SELECT gen_random_uuid()::text AS "id", s."clientId", s."subjectType", s."subjectId",
  bool_or(s."status" IN ('open', 'escalated')) AS "isOpen",
  bool_or(s."status" = 'confirmed') AS "anyConfirmed",
  (array_agg(s."level" ORDER BY risk_rank(s."level") DESC))[1] AS "priority",
  min(s."createdAt") AS "firstAt", max(s."createdAt") AS "lastAt",
  COALESCE(max(s."reviewedAt"), max(s."createdAt")) AS "reviewedAt",
  count(*)::int AS "alertCount"
FROM "_alert_subjects" s
GROUP BY s."clientId", s."subjectType", s."subjectId";

INSERT INTO "cases" ("id", "clientId", "subjectType", "subjectId", "status", "priority", "dueAt", "outcome",
                     "closeNote", "closedAt", "alertCount", "lastAlertAt", "createdAt", "updatedAt")
SELECT m."id", m."clientId", m."subjectType", m."subjectId",
  CASE WHEN m."isOpen" THEN 'open' ELSE 'closed' END,
  m."priority",
  m."firstAt" + make_interval(secs => case_sla_hours(NULL, m."priority") * 3600),
  CASE WHEN m."isOpen" THEN NULL WHEN m."anyConfirmed" THEN 'confirmed_fraud' ELSE 'false_positive' END,
  CASE WHEN m."isOpen" THEN NULL ELSE 'Closed when cases were introduced: every alert had been reviewed' END,
  CASE WHEN m."isOpen" THEN NULL ELSE m."reviewedAt" END,
  m."alertCount", m."lastAt", m."firstAt",
  CASE WHEN m."isOpen" THEN m."lastAt" ELSE m."reviewedAt" END
FROM "_migrated_cases" m;

INSERT INTO "case_events" ("clientId", "caseId", "type", "toStatus", "details", "createdAt")
SELECT m."clientId", m."id", 'created', 'open', '{"migrated":true}'::jsonb, m."firstAt" FROM "_migrated_cases" m;
INSERT INTO "case_events" ("clientId", "caseId", "type", "fromStatus", "toStatus", "note", "details", "createdAt")
SELECT m."clientId", m."id", 'closed', 'open', 'closed',
  'Closed when cases were introduced: every alert had been reviewed', '{"migrated":true}'::jsonb, m."reviewedAt"
FROM "_migrated_cases" m WHERE NOT m."isOpen";

UPDATE "alerts" a SET "caseId" = m."id"
FROM "_alert_subjects" s JOIN "_migrated_cases" m
  ON m."clientId" = s."clientId" AND m."subjectType" = s."subjectType" AND m."subjectId" = s."subjectId"
WHERE a."id" = s."id";

DROP TABLE "_alert_subjects";
DROP TABLE "_migrated_cases";

CREATE TRIGGER "alerts_place_in_case" BEFORE INSERT ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "place_alert_in_case"();
