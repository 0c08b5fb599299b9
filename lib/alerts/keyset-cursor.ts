import { isStorableDate } from "@/lib/validation/timestamps";

// Keyset pagination over (time desc, id desc): page N costs the same as page 1, unlike OFFSET.

export type TKeyset = { at: Date; id: string };

export function encodeCursor(row: { at: Date; id: string }): string {
  return Buffer.from(`${row.at.getTime()}:${row.id}`, "utf8").toString("base64url");
}

/** null for a malformed cursor (a tampered URL reads as the first page rather than failing). */
export function decodeCursor(cursor: string | undefined | null): TKeyset | null {
  if (!cursor) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const sep = text.indexOf(":");
  if (sep <= 0) return null;
  const ms = Number(text.slice(0, sep));
  const id = text.slice(sep + 1);
  if (!isStorableDate(new Date(ms)) || !id) return null;
  return { at: new Date(ms), id };
}
