import { z } from "zod";
import { prisma } from "@/lib/db";
import { shownVersions } from "@/lib/rules/shown-versions";

export const ZRuleListItem = z.object({
  id: z.string(),
  name: z.string(),
  riskLevel: z.string(),
  status: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TRuleListItem = z.infer<typeof ZRuleListItem>;

/** Every rule of the client with its status and its live version's name, for GET /v1/rules. */
export async function listRules({ clientId }: { clientId: string }): Promise<TRuleListItem[]> {
  const rules = await prisma.rule.findMany({
    where: { clientId },
    orderBy: [{ createdAt: "asc" }, { ruleId: "asc" }],
  });
  const versions = await shownVersions(clientId, rules);
  return rules.map((rule) => {
    const shown = versions.get(rule.id);
    return {
      id: rule.ruleId,
      name: shown?.name ?? rule.ruleId,
      riskLevel: shown?.riskLevel ?? "n/a",
      status: rule.status,
      createdAt: rule.createdAt.getTime(),
      updatedAt: rule.updatedAt.getTime(),
    };
  });
}
