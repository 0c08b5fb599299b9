import { prisma } from "@/lib/db";
import type { RuleVersion } from "@/lib/generated/prisma/client";

/**
 * The version that represents each rule: its live one, or its newest draft when none is published
 * (one query for all rules).
 */
export async function shownVersions(
  clientId: string,
  rules: ReadonlyArray<{ id: string; liveVersion: number | null; currentVersion: number }>,
): Promise<Map<string, RuleVersion>> {
  if (rules.length === 0) return new Map();
  const versions = await prisma.ruleVersion.findMany({
    where: {
      clientId,
      OR: rules.map((r) => ({ ruleRef: r.id, version: r.liveVersion ?? r.currentVersion })),
    },
  });
  return new Map(versions.map((v) => [v.ruleRef, v]));
}
