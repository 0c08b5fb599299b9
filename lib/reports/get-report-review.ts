import { prisma } from "@/lib/db";
import { verifyAuditChain, type TActor, type TChainVerification } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { readReportProfile, type TReportProfile } from "@/lib/reports/schemas";
import { withReportingPerson } from "@/lib/reports/transition-report";

/**
 * What the report page shows beside the report (read with getReport first, so a missing report is
 * already refused): the client's reporting profile, who prepared it, the audit chain's check, and the
 * content as filing would check it (a blank reporting person is the filing officer).
 */
export async function getReportReview({
  clientId,
  reportId,
  content,
  viewer,
}: {
  clientId: string;
  reportId: string;
  content: TContent;
  viewer: TActor;
}): Promise<{
  profile: TReportProfile;
  preparedById: string | null;
  chain: TChainVerification;
  checked: TContent;
}> {
  const [client, row, chain, checked] = await Promise.all([
    prisma.client.findUniqueOrThrow({ where: { id: clientId }, select: { reportingProfile: true } }),
    prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: reportId } },
      select: { preparedById: true },
    }),
    verifyAuditChain({ clientId, reportId }),
    withReportingPerson(prisma, content, viewer),
  ]);
  return {
    profile: readReportProfile(client.reportingProfile),
    preparedById: row.preparedById,
    chain,
    checked,
  };
}
