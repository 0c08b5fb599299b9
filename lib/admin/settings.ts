import type { TSessionUser } from "@/lib/auth/session";
import { configureClient } from "@/lib/clients/configure-client";
import { FEATURES, RECOMMENDED_ACTIONS, type TReportingProfile } from "@/lib/clients/schemas";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ADMIN_ONLY, assertRole } from "@/lib/admin/authorize";
import { writeAudit } from "@/lib/admin/audit";
import type { TUpdateSettings } from "@/lib/admin/schemas";

export type TSettingsView = {
  name: string;
  type: string;
  features: string[];
  actions: string[];
  reportingProfile: TReportingProfile;
  allFeatures: readonly string[];
  allActions: readonly string[];
};

export async function getClientSettings(user: TSessionUser): Promise<TSettingsView> {
  assertRole(user, ADMIN_ONLY);
  const client = await prisma.client.findUniqueOrThrow({ where: { id: user.clientId } });
  return {
    name: client.name,
    type: client.type,
    features: client.features,
    // an empty list means every action, as the rule engine reads it
    actions: client.actions.length ? client.actions : [...RECOMMENDED_ACTIONS],
    reportingProfile: (client.reportingProfile ?? {}) as TReportingProfile,
    allFeatures: FEATURES,
    allActions: RECOMMENDED_ACTIONS,
  };
}

/** Through configureClient, the CLI's own function; the session's client only. */
export async function updateClientSettings(
  user: TSessionUser,
  input: TUpdateSettings,
): Promise<TSettingsView> {
  assertRole(user, ADMIN_ONLY);
  await prisma.$transaction(async (tx) => {
    await configureClient({ clientId: user.clientId, ...input }, tx);
    await writeAudit(tx, user, {
      action: "client.configured",
      entityType: "client",
      entityId: user.clientId,
      details: input as Prisma.InputJsonValue,
    });
  });
  return getClientSettings(user);
}
