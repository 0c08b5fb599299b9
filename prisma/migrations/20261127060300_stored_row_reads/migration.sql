-- Reads by id that do not open every month partition. A statement that reads "transactions" by
-- ("clientId", "id") or "decisions" by "id" cannot prune (the id is not the partition key): its plan opens
-- every month partition's index on each execution, about 0.7 ms at 65 partitions (five years kept), even when
-- the row does not exist. The screening's reads of the screened id's stored row (a resubmission) go through
-- these functions instead: a new id, the common case, costs one probe of "transaction_keys"; only a stored
-- one reads the partitions. PL/pgSQL, so that the planner cannot inline them into the caller's plan.

-- The client's stored transaction with this id (none or one row).
CREATE FUNCTION "transaction_stored"(p_client TEXT, p_id TEXT) RETURNS SETOF "transactions"
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 1 SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM "transaction_keys" WHERE "clientId" = p_client AND "id" = p_id) THEN
    RETURN QUERY SELECT * FROM "transactions" WHERE "clientId" = p_client AND "id" = p_id;
  END IF;
END
$fn$;

-- The response of a decision (null for a null id).
CREATE FUNCTION "decision_response"(p_id TEXT) RETURNS JSONB
LANGUAGE plpgsql STABLE PARALLEL SAFE SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  IF p_id IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN (SELECT "response" FROM "decisions" WHERE "id" = p_id);
END
$fn$;
