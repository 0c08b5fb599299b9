import { z } from "zod";
import { prisma } from "@/lib/db";

export const ZRuleListItem = z.object({
  id: z.string(),
  name: z.string(),
  riskLevel: z.string(),
  status: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TRuleListItem = z.infer<typeof ZRuleListItem>;

/** Every rule of the client with its current status, for GET /v1/rules. */
export async function listRules({ clientId }: { clientId: string }): Promise<TRuleListItem[]> {
  const rules = await prisma.rule.findMany({
    where: { clientId },
    orderBy: [{ createdAt: "asc" }, { ruleId: "asc" }],
    include: { versions: { orderBy: { version: "desc" }, take: 1, select: { name: true, riskLevel: true } } },
  });
  return rules.map((rule) => ({
    id: rule.ruleId,
    name: rule.versions[0]?.name ?? rule.ruleId,
    riskLevel: rule.versions[0]?.riskLevel ?? "n/a",
    status: rule.status,
    createdAt: rule.createdAt.getTime(),
    updatedAt: rule.updatedAt.getTime(),
  }));
}
