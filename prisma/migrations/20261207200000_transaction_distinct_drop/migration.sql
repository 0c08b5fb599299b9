-- contract: 20261128160000_transaction_distinct_busy_days; unused since 43a9991
-- The previous table of distinct values per day, "transaction_distinct" (one row per group, day and value of
-- every day), unread and unwritten since 20261128160000 replaced it by "transaction_distinct_values" (busy days
-- only) and left it for the screenings that began before that commit. No function, trigger or release since
-- reads it; dropping it frees its space (1.5 GB at 10,000,000 stored transactions). It takes only this table's
-- lock, which no statement asks for.
DROP TABLE IF EXISTS "transaction_distinct";
