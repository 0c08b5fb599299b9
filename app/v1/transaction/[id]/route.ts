// GET /v1/transaction/{id}: the stored assessment of a transaction
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import { methods, withClient } from "@/lib/http/with-client";
import { storedTransactionAssessment } from "@/lib/screening/screen-transaction";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ id: string }>(async ({ client, params }) => {
    const stored = await storedTransactionAssessment(prisma, { clientId: client.id, id: params.id });
    if (!stored) throw notFound("/id", "Transaction not found");
    return stored;
  }),
});
