import type { Tx } from "@/lib/db";
import { normalizeIdentifier, type TIdentifier, type TIdentifierKind } from "@/lib/users/index-identifiers";

/** Links the identifiers to the user; already-known links are left as they are. */
export async function indexIdentifiers(
  tx: Tx,
  {
    clientId,
    userId,
    identifiers,
    source,
  }: { clientId: string; userId: string; identifiers: TIdentifier[]; source: string },
): Promise<number> {
  const rows = new Map<
    string,
    { clientId: string; kind: string; value: string; userId: string; source: string }
  >();
  for (const { kind, value } of identifiers) {
    const normalized = normalizeIdentifier(kind, value);
    if (normalized === "") continue;
    rows.set(`${kind}\u0000${normalized}`, { clientId, kind, value: normalized, userId, source });
  }
  if (rows.size === 0) return 0;
  const { count } = await tx.userIdentifier.createMany({ data: [...rows.values()], skipDuplicates: true });
  return count;
}

/** Replaces the user's identifiers of the given kinds (the ones that describe the user as currently sent). */
export async function replaceIdentifiers(
  tx: Tx,
  {
    clientId,
    userId,
    kinds,
    identifiers,
    source,
  }: {
    clientId: string;
    userId: string;
    kinds: TIdentifierKind[];
    identifiers: TIdentifier[];
    source: string;
  },
): Promise<void> {
  await tx.userIdentifier.deleteMany({ where: { clientId, userId, kind: { in: kinds } } });
  await indexIdentifiers(tx, { clientId, userId, identifiers, source });
}
