import type { Client } from "@/lib/generated/prisma/client";

export type TClientConfig = {
  clientId: string;
  name: string;
  type: "business" | "consumer";
  features: string[];
  actions: string[];
  reportingProfile: unknown;
  baseCurrency: string;
  linkFanOutCap: number;
  /** Whole months of transactions kept before the current one (`npm run cli -- retention`). */
  retentionMonths: number;
  createdAt: number;
  updatedAt: number;
};

export function serializeClient(client: Client): TClientConfig {
  return {
    clientId: client.id,
    name: client.name,
    type: client.type,
    features: client.features,
    actions: client.actions,
    reportingProfile: client.reportingProfile ?? null,
    baseCurrency: client.baseCurrency,
    linkFanOutCap: client.linkFanOutCap,
    retentionMonths: client.retentionMonths,
    createdAt: client.createdAt.getTime(),
    updatedAt: client.updatedAt.getTime(),
  };
}
