// Demo exchange rates for `npm run dev`: a small synthetic table (prisma/fixtures/fx-rates.csv).
// Loaded before the other demo data, so the demo transactions are screened with their base amounts.
import path from "node:path";
import { prisma } from "@/lib/db";
import { importFxRates } from "@/lib/fx/import-rates";

export const FX_FIXTURE = path.join(process.cwd(), "prisma", "fixtures", "fx-rates.csv");

export async function seedDemoFx(): Promise<void> {
  if ((await prisma.fxRate.count()) === 0) await importFxRates({ file: FX_FIXTURE });
}
