import { prisma } from "@/lib/db";
import type { TEnumValue, TGoamlSchema } from "@/lib/reports/goaml/schema";
import { declAt } from "@/lib/reports/goaml/walk";

// The FIU's indicator list comes from its schema (the type of report_indicators/indicator); the reporting profile maps
// rule ids to codes of that list, and a report's suggestions are the mapped codes of the rules that fired on it.

/** The active schema's indicator codes with their labels ([] when the schema leaves the list open). */
export function indicatorCodes(schema: TGoamlSchema): TEnumValue[] {
  return (declAt(schema, "report_indicators[0]")?.simple?.enumerations ?? []).filter((e) => e.value !== "-");
}

export type TIndicatorSuggestion = { code: string; label?: string; ruleIds: string[] };

/**
 * Indicator codes suggested by fired rules: each rule's mapped codes, kept only when the schema lists them, merged
 * per code. Pure, so a case escalation can call it with the rules of its own alerts.
 */
export function suggestIndicators({
  firedRuleIds,
  mapping,
  codes,
}: {
  firedRuleIds: string[];
  mapping: Record<string, string[]> | undefined;
  codes: TEnumValue[];
}): TIndicatorSuggestion[] {
  const byCode = new Map(codes.map((c) => [c.value, c]));
  const out = new Map<string, TIndicatorSuggestion>();
  for (const ruleId of [...new Set(firedRuleIds)]) {
    for (const code of mapping?.[ruleId] ?? []) {
      const known = byCode.get(code);
      if (!known) continue;
      const entry = out.get(code) ?? { code, label: known.label, ruleIds: [] };
      entry.ruleIds.push(ruleId);
      out.set(code, entry);
    }
  }
  return [...out.values()];
}

/** Rule ids that raised alerts on the given transactions of the client. */
export async function firedRuleIds({
  clientId,
  transactionIds,
}: {
  clientId: string;
  transactionIds: string[];
}): Promise<string[]> {
  if (transactionIds.length === 0) return [];
  const alerts = await prisma.alert.findMany({
    where: { clientId, transactionId: { in: transactionIds } },
    select: { ruleId: true },
    distinct: ["ruleId"],
  });
  return alerts.map((a) => a.ruleId);
}
