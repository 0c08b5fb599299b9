import { z } from "zod";

/** 9999-12-31T23:59:59.999Z: the last instant both JavaScript dates and PostgreSQL store exactly. */
export const MAX_EPOCH_MS = 253_402_300_799_999;

/** Whether a date lies within 1970-01-01 … 9999-12-31, the range every time field accepts. */
export function isStorableDate(d: Date): boolean {
  const ms = d.getTime();
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_EPOCH_MS;
}

export const STORABLE_DATE_MESSAGE = "Expected a date from 1970-01-01 to 9999-12-31";

/** Epoch milliseconds that can be stored as a date: from 1970-01-01 to the year 9999. */
export const ZEpochMs = z
  .number()
  .min(0, "Expected epoch milliseconds from 0 (1970-01-01)")
  .max(MAX_EPOCH_MS, "Expected epoch milliseconds before the year 10000");
