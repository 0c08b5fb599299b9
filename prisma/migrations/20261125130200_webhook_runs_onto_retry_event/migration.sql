-- deliver-webhook now only continues deliveries on their retry schedule (`webhook/delivery.retry`);
-- first attempts go out in batches (deliver-webhooks). Its runs still under way from before were
-- started by `webhook/delivery.requested`, which the SDK no longer accepts for it: they become runs
-- of the retry event at position 1 with no wait, the same steps (send-attempt-1, record-attempt-1,
-- backoff-1, ...), so their memoized steps still apply.
UPDATE "job_runs"
SET "event" = jsonb_set(
      jsonb_set("event", '{name}', '"webhook/delivery.retry"'),
      '{data}', ("event" -> 'data') || '{"n": 1}'::jsonb),
    "updatedAt" = now()
WHERE "functionId" = 'risk-screening-deliver-webhook'
  AND "status" IN ('queued', 'running')
  AND "event" ->> 'name' = 'webhook/delivery.requested';
