import { z } from "zod";

/**
 * Ids are stored in primary keys and indexes, whose entries PostgreSQL caps at about 2.7 kB: 256
 * characters (up to 1 kB of UTF-8) always fit, and a longer id is refused naming its field.
 */
export const MAX_ID_LENGTH = 256;

const tooLong = `must be at most ${MAX_ID_LENGTH} characters`;

/** A required id. */
export const ZId = z.string().min(1).max(MAX_ID_LENGTH, tooLong);

/** A reference that may be empty (optional account, device or external ids). */
export const ZIdRef = z.string().max(MAX_ID_LENGTH, tooLong);
