import { z } from "zod";

/** 9999-12-31T23:59:59.999Z: the last instant both JavaScript dates and PostgreSQL store exactly. */
export const MAX_EPOCH_MS = 253_402_300_799_999;

/** Epoch milliseconds that can be stored as a date: from 1970-01-01 to the year 9999. */
export const ZEpochMs = z
  .number()
  .min(0, "Expected epoch milliseconds from 0 (1970-01-01)")
  .max(MAX_EPOCH_MS, "Expected epoch milliseconds before the year 10000");
