// The transaction page's "Request as sent" is the request exactly as received: updates through
// /v1/transaction/update (monitored or not, raw-SQL path or the Prisma reference) change the stored
// transaction but not that body, and are listed as changes (who, when, what) beside it.
import { describe, expect, it } from "vitest";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { updateTransactionPrisma } from "@/tests/oracle/pi-event-update-oracle";
import { getTransactionDetail } from "@/lib/transactions/get-transaction-detail";
import { ZTransactionUpdate } from "@/lib/transactions/schemas";
import { call, createTestClient } from "@/tests/factories";

const sent = (id: string) => ({
  id,
  userId: "u-sent",
  status: "PENDING",
  currencyCode: "USD",
  amount: 25,
  timestamp: Date.now() - 60_000,
  paymentMethod: "card",
  card: { cardFingerprint: "fp-original" },
});

describe("request as sent", () => {
  for (const monitoring of [false, true]) {
    it(`stays as received after updates (${monitoring ? "monitored" : "not monitored"})`, async () => {
      const { clientId, apiKey } = await createTestClient({
        features: monitoring ? ["transactionUpdateMonitoring"] : [],
      });
      const body = sent(`rs-${monitoring}`);
      expect((await call(transactionRoute.POST, { apiKey, body })).status).toBe(200);
      const update = await call(updateRoute.POST, {
        apiKey,
        body: {
          transactionId: body.id,
          status: "CHARGEBACK",
          reason: "bank notice",
          transaction: { card: { cardFingerprint: "fp-new" } },
        },
      });
      expect(update.status).toBe(200);
      expect(
        (await call(updateRoute.POST, { apiKey, body: { transactionId: body.id, status: "CANCELED" } }))
          .status,
      ).toBe(200);

      const d = await getTransactionDetail({ clientId, transactionId: body.id });
      expect(d.transaction.request).toEqual(body);
      expect(d.transaction.status).toBe("CANCELED");
      const later = d.updates.filter((u) => u.type !== "submitted");
      expect(later.map((u) => [u.source, u.status, u.reason, u.changes])).toEqual([
        ["api", "CHARGEBACK", "bank notice", { card: { cardFingerprint: "fp-new" } }],
        ["api", "CANCELED", null, null],
      ]);
      // what rules and aggregates read is the updated body
      const row = await prisma.transaction.findUniqueOrThrow({
        where: { clientId_id: { clientId, id: body.id } },
      });
      expect(row.data).toMatchObject({ status: "CANCELED", card: { cardFingerprint: "fp-new" } });

      // a resubmission of the id is the new request as sent
      const again = { ...body, amount: 30 };
      expect((await call(transactionRoute.POST, { apiKey, body: again })).status).toBe(200);
      expect((await getTransactionDetail({ clientId, transactionId: body.id })).transaction.request).toEqual(
        again,
      );

      // the Prisma reference path keeps it too
      const client = (await authenticateApiKey(apiKey))!;
      await updateTransactionPrisma({
        client,
        body: ZTransactionUpdate.parse({ transactionId: body.id, status: "DECLINED" }),
      });
      expect((await getTransactionDetail({ clientId, transactionId: body.id })).transaction.request).toEqual(
        again,
      );
    });
  }
});
