import type { TSessionUser } from "@/lib/auth/session";
import { configureClient } from "@/lib/clients/configure-client";
import { FEATURES, type TReportingProfile } from "@/lib/clients/schemas";
import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { writeAudit } from "@/lib/admin/audit";
import { goamlSettings, keepFittingCodes, type TGoamlSettings } from "@/lib/admin/goaml-schema";
import { schemaMisfits, type TSchemaMisfits } from "@/lib/admin/goaml-fit";
import type { TUpdateSettings } from "@/lib/admin/schemas";
import { readReportProfile } from "@/lib/reports/schemas";

export type TSettingsView = {
  name: string;
  type: string;
  features: string[];
  actions: string[];
  /** ISO 4217 code of transaction.baseAmount (docs/decisions.md §13). */
  baseCurrency: string;
  /** A shared identifier with more users than this links nobody (user links, links.* in rules). */
  linkFanOutCap: number;
  /** Whole months of transactions kept before the current one; older ones are archived and deleted. */
  retentionMonths: number;
  reportingProfile: TReportingProfile;
  allFeatures: readonly string[];
  allActions: readonly string[];
  /** The active goAML schema and the lookup lists the profile's codes come from. */
  goaml: TGoamlSettings;
  /** Rule ids and names, for the rule-to-indicator mapping. */
  rules: { ruleId: string; name: string }[];
  /** What no longer fits the active schema: stale codes of the profile, the mapping and open drafts. */
  misfits: TSchemaMisfits;
  /** After a save: fields whose new code the active schema does not list (everything else was saved). */
  notSaved?: string[];
};

export async function getClientSettings(user: TSessionUser): Promise<TSettingsView> {
  const client = await prisma.client.findUniqueOrThrow({ where: { id: user.clientId } });
  // The schema text stays on the server; the page gets its name and lists.
  const { goamlSchemaXsd: _xsd, ...reportingProfile } = (client.reportingProfile ?? {}) as TReportingProfile;
  const misfits = await schemaMisfits(user.clientId);
  const rules = await prisma.rule.findMany({
    where: { clientId: user.clientId },
    select: { ruleId: true, versions: { select: { name: true }, orderBy: { version: "desc" }, take: 1 } },
    orderBy: { ruleId: "asc" },
  });
  return {
    name: client.name,
    type: client.type,
    features: client.features,
    // an empty list means every action, as the rule engine reads it
    actions: client.actions.length ? client.actions : [...RECOMMENDED_ACTIONS],
    baseCurrency: client.baseCurrency,
    linkFanOutCap: client.linkFanOutCap,
    retentionMonths: client.retentionMonths,
    reportingProfile,
    allFeatures: FEATURES,
    allActions: RECOMMENDED_ACTIONS,
    goaml: goamlSettings(readReportProfile(client.reportingProfile)),
    rules: rules.map((r) => ({ ruleId: r.ruleId, name: r.versions[0]?.name ?? r.ruleId })),
    misfits,
  };
}

/** Through configureClient, the CLI's own function; the session's client only. */
export async function updateClientSettings(
  user: TSessionUser,
  input: TUpdateSettings,
): Promise<TSettingsView> {
  let update = input;
  let notSaved: string[] = [];
  if (input.reportingProfile) {
    // The uploaded schema is changed through its own endpoint; a profile save keeps it.
    const current = await prisma.client.findUniqueOrThrow({
      where: { id: user.clientId },
      select: { reportingProfile: true },
    });
    const { goamlSchemaXsd, goamlSchemaName, goamlSchemaPath } = readReportProfile(current.reportingProfile);
    // A code the active schema does not list blocks only its own field: everything else saves.
    const kept = keepFittingCodes(
      readReportProfile({ ...input.reportingProfile, goamlSchemaXsd, goamlSchemaName, goamlSchemaPath }),
      readReportProfile(current.reportingProfile),
    );
    notSaved = kept.notSaved;
    update = { ...input, reportingProfile: kept.profile };
  }
  await prisma.$transaction(async (tx) => {
    await configureClient({ clientId: user.clientId, ...update }, tx);
    await writeAudit(tx, user, {
      action: "client.configured",
      entityType: "client",
      entityId: user.clientId,
      details: input as Prisma.InputJsonValue,
    });
  });
  return { ...(await getClientSettings(user)), notSaved };
}
