import { prisma } from "@/lib/db";

export type TSanctionsDatasetSummary = {
  dataset: string;
  format: string;
  sourceFile: string;
  entities: number;
  names: number;
  loadedAt: number;
};

/** Loaded sanctions datasets (shared by every client: no client scope). */
export async function listSanctionsDatasets(): Promise<TSanctionsDatasetSummary[]> {
  const rows = await prisma.sanctionsDataset.findMany({ orderBy: { id: "asc" } });
  return rows.map((d) => ({
    dataset: d.id,
    format: d.format,
    sourceFile: d.sourceFile,
    entities: d.entityCount,
    names: d.nameCount,
    loadedAt: d.loadedAt.getTime(),
  }));
}
