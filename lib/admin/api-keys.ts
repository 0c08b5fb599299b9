// API key management for admins. The key itself exists only in the create answer.
import type { TSessionUser } from "@/lib/auth/session";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { writeAudit } from "@/lib/admin/audit";

export type TApiKeyView = {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
};

export async function listApiKeys(user: TSessionUser): Promise<TApiKeyView[]> {
  const rows = await prisma.apiKey.findMany({
    where: { clientId: user.clientId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 500,
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.createdAt.getTime(),
    lastUsedAt: r.lastUsedAt?.getTime() ?? null,
    revokedAt: r.revokedAt?.getTime() ?? null,
  }));
}

export async function createDashboardApiKey(
  user: TSessionUser,
  { name }: { name?: string },
): Promise<{ id: string; apiKey: string }> {
  return prisma.$transaction(async (tx) => {
    const created = await createApiKey({ clientId: user.clientId, name: name || undefined }, tx);
    await writeAudit(tx, user, {
      action: "api_key.created",
      entityType: "api_key",
      entityId: created.id,
      details: { name: name ?? null },
    });
    return created;
  });
}

export async function revokeDashboardApiKey(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ revoked: boolean }> {
  return prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { clientId: user.clientId, id },
      select: { revokedAt: true },
    });
    if (!key) throw notFound("/keyId", "API key not found");
    if (key.revokedAt) return { revoked: false };
    await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await writeAudit(tx, user, { action: "api_key.revoked", entityType: "api_key", entityId: id });
    return { revoked: true };
  });
}
