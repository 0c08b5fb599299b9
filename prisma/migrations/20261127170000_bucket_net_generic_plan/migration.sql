-- transaction_bucket_net was planned again on every call, inside every screening's write: its input is one
-- array, which a custom plan sees as the one or two changes it holds and a generic plan estimates at 10 rows,
-- so once transaction_buckets held rows the plan cache judged the generic plan dearer and kept planning custom
-- ones (0.5-0.7 ms each on a 2-core machine, 6 % of the database time of a screening at 20,000 rows). Its
-- generic plan is the same plan (one bucket probe per net row, by the primary key).
ALTER FUNCTION "transaction_bucket_net"("transaction_bucket_change"[], SMALLINT[]) SET plan_cache_mode = force_generic_plan;
