import { writeAudit } from "@/lib/admin/audit";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { validationError } from "@/lib/errors/domain-error";
import { lookup, readGoamlSchema, type TEnumValue } from "@/lib/reports/goaml/schema";
import { activeSchema, validateXml } from "@/lib/reports/goaml-xml";
import { indicatorCodes } from "@/lib/reports/indicators";
import { codeAt, INDICATOR_LIST, isStale, profileCodes, withProfileCode } from "@/lib/reports/profile-codes";
import { readReportProfile, type TReportProfile } from "@/lib/reports/schemas";
import { refreshIncomplete } from "@/lib/admin/goaml-fit";

// The FIU's goAML XSD in the client's reporting profile: uploaded by an admin, checked to be a goAML report schema
// that libxml2 compiles, and the lookup lists Settings offers read from it.

/** Lookup lists of the profile, by the goAML simple type that holds them. */
export const PROFILE_LOOKUPS = {
  submissionCode: "submission_type",
  contactType: "contact_type",
  communicationType: "communication_type",
  fundsCode: "funds_type",
  transmode: "conduction_type",
  reportCode: "report_type",
  country: "country_type",
  currency: "currency_type",
} as const;

export type TGoamlSettings = {
  name: string;
  generic: boolean;
  version: string | null;
  lookups: Record<keyof typeof PROFILE_LOOKUPS, TEnumValue[]>;
  indicators: TEnumValue[];
};

export function goamlSettings(profile: TReportProfile): TGoamlSettings {
  const active = activeSchema(profile);
  const lookups = Object.fromEntries(
    Object.entries(PROFILE_LOOKUPS).map(([key, type]) => [key, lookup(active.schema, type)]),
  ) as TGoamlSettings["lookups"];
  return {
    name: active.name,
    generic: active.generic,
    version: active.schema.version,
    lookups,
    indicators: indicatorCodes(active.schema),
  };
}

async function replaceSchema(
  user: TSessionUser,
  change: { goamlSchemaXsd?: string; goamlSchemaName?: string },
  details: Prisma.InputJsonValue,
): Promise<TGoamlSettings> {
  return prisma.$transaction(async (tx) => {
    const client = await tx.client.findUniqueOrThrow({
      where: { id: user.clientId },
      select: { reportingProfile: true },
    });
    const {
      goamlSchemaXsd: _xsd,
      goamlSchemaName: _name,
      goamlSchemaPath: _path,
      ...rest
    } = readReportProfile(client.reportingProfile);
    const profile = { ...rest, ...change };
    await tx.client.update({ where: { id: user.clientId }, data: { reportingProfile: profile } });
    // Reports not yet filed are now checked against the new schema (the API's `incomplete` included).
    await refreshIncomplete(tx, user.clientId, activeSchema(profile).schema);
    await writeAudit(tx, user, {
      action: "client.goaml_schema_changed",
      entityType: "client",
      entityId: user.clientId,
      details,
    });
    return goamlSettings(profile);
  });
}

/** Makes an uploaded XSD the client's goAML schema; refuses text that is not a goAML report schema libxml2 compiles. */
export async function setGoamlSchema(
  user: TSessionUser,
  { name, xsd }: { name: string; xsd: string },
): Promise<TGoamlSettings> {
  const label = name.trim().slice(0, 200) || "the FIU's goAML schema";
  let version: string | null;
  try {
    version = readGoamlSchema(xsd).version;
  } catch (err) {
    throw validationError([`/xsd: Not a goAML schema: ${err instanceof Error ? err.message : String(err)}`]);
  }
  // An empty report against the schema: a schema that compiles answers with validation errors, not parser errors.
  // (xmllint-wasm throws when the schema itself does not compile.)
  const broken = await validateXml("<report/>", xsd).then(
    (probe) => probe.errors.find((e) => /schemas? parser|failed to compile|not a valid schema/i.test(e)),
    (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0],
  );
  if (broken) throw validationError([`/xsd: libxml2 cannot compile this schema: ${broken}`]);
  return replaceSchema(
    user,
    { goamlSchemaXsd: xsd, goamlSchemaName: label },
    { name: label, version, bytes: Buffer.byteLength(xsd) },
  );
}

/** Back to the generic goAML 5.0.1 schema. */
export async function resetGoamlSchema(user: TSessionUser): Promise<TGoamlSettings> {
  return replaceSchema(user, {}, { name: "generic" });
}

/**
 * A submitted profile with every code the active schema does not list left as it was stored: a stale code the admin
 * has not touched stays (listed under what no longer fits, until mapped), and a new code outside the schema is not
 * saved. The rest of the profile saves either way; `notSaved` names each refused field and code.
 */
export function keepFittingCodes(
  submitted: TReportProfile,
  stored: TReportProfile,
): { profile: TReportProfile; notSaved: string[] } {
  const active = activeSchema(submitted);
  const notSaved: string[] = [];
  let profile = submitted;
  for (const c of profileCodes(submitted)) {
    const before = codeAt(stored, c.key);
    if (!isStale(active.schema, c.list, c.value) || before === c.value) continue;
    profile = withProfileCode(profile, c.key, typeof before === "string" ? before : undefined);
    notSaved.push(
      `/reportingProfile/${c.key.join("/")}: ${c.label}: ${c.value} is not a code of ${active.name}; not saved`,
    );
  }
  if (submitted.indicatorMapping) {
    const mapping: Record<string, string[]> = {};
    for (const [rule, codes] of Object.entries(submitted.indicatorMapping)) {
      const had = stored.indicatorMapping?.[rule] ?? [];
      mapping[rule] = codes.filter((code) => {
        if (!isStale(active.schema, INDICATOR_LIST, code) || had.includes(code)) return true;
        notSaved.push(
          `/reportingProfile/indicatorMapping/${rule}: indicator ${code} is not a code of ${active.name}; not saved`,
        );
        return false;
      });
    }
    profile = { ...profile, indicatorMapping: mapping };
  }
  return { profile, notSaved };
}
