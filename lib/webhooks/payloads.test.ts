import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES, type TWebhookEventType } from "@/lib/webhooks/event-types";
import {
  webhookEnvelope,
  webhookPayload,
  type TScreenedEventType,
  type TWebhookPayloads,
} from "@/lib/webhooks/payloads";

// Each event type's builder against the fields the contract lists (interface Events table; case.* in
// docs/api-decisions.md), in the order the bytes are sent and signed.

const at = new Date(1_700_000_000_123);
const assessment = {
  id: "tx-1",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  triggered: [
    { id: "R1", name: "Large", level: "high", reason: "Large amount", recommendedAction: "REVIEW" },
  ],
  timestamp: 1_700_000_000_000,
};
const screenedBody =
  '{"id":"tx-1","riskLevel":"high","recommendedAction":"REVIEW","triggered":[{"id":"R1","name":"Large","level":"high",' +
  '"reason":"Large amount","recommendedAction":"REVIEW"}],"timestamp":1700000000000}';
const screened = (event: TScreenedEventType) => ({
  fields: ["id", "riskLevel", "recommendedAction", "triggered", "timestamp"],
  payload: webhookPayload[event](assessment),
  body: screenedBody,
});
const confirmation = {
  transactionId: "tx-1",
  feedback: "card stolen",
  confirmedBy: "alice@example.com",
  confirmedAt: at,
};
const confirmedBody =
  '{"transactionId":"tx-1","feedback":"card stolen","confirmedBy":"alice@example.com","confirmedAt":1700000000123}';
const subject = { type: "user" as const, id: "u-1" };

const cases: { [E in TWebhookEventType]: { fields: string[]; payload: TWebhookPayloads[E]; body: string } } =
  {
    // the transaction answer carries transactionId and status too (docs/decisions.md §9), passed through
    "transaction.screened": {
      fields: ["id", "riskLevel", "recommendedAction", "triggered", "timestamp", "transactionId", "status"],
      payload: webhookPayload["transaction.screened"]({
        ...assessment,
        transactionId: "tx-1",
        status: "PENDING",
      }),
      body: `${screenedBody.slice(0, -1)},"transactionId":"tx-1","status":"PENDING"}`,
    },
    "user.screened": screened("user.screened"),
    "merchant.screened": screened("merchant.screened"),
    "payment_instrument.screened": screened("payment_instrument.screened"),
    "event.screened": screened("event.screened"),
    "alert.created": {
      fields: ["transactionId", "ruleId", "ruleName", "level", "reason", "recommendedAction", "alertedAt"],
      payload: webhookPayload["alert.created"]({
        transactionId: "tx-1",
        // a fired rule carries more than the payload takes
        rule: { ...assessment.triggered[0]!, ruleRef: "ref-1", versionId: "v-1" } as never,
        alertedAt: at,
      }),
      body:
        '{"transactionId":"tx-1","ruleId":"R1","ruleName":"Large","level":"high","reason":"Large amount",' +
        '"recommendedAction":"REVIEW","alertedAt":1700000000123}',
    },
    "alert.reviewed": {
      fields: ["transactionId", "ruleId", "status", "reviewedBy", "reviewedAt", "feedback"],
      payload: webhookPayload["alert.reviewed"]({
        alert: { transactionId: "tx-1", ruleId: "R1", id: "alert-1", caseId: null } as never,
        status: "cleared",
        reviewedBy: "alice@example.com",
        reviewedAt: at,
        feedback: "known customer",
      }),
      body:
        '{"transactionId":"tx-1","ruleId":"R1","status":"cleared","reviewedBy":"alice@example.com",' +
        '"reviewedAt":1700000000123,"feedback":"known customer"}',
    },
    "transaction.confirmedFraud": {
      fields: ["transactionId", "feedback", "confirmedBy", "confirmedAt"],
      payload: webhookPayload["transaction.confirmedFraud"](confirmation),
      body: confirmedBody,
    },
    "transaction.confirmedChargeback": {
      fields: ["transactionId", "feedback", "confirmedBy", "confirmedAt"],
      payload: webhookPayload["transaction.confirmedChargeback"](confirmation),
      body: confirmedBody,
    },
    "user.status.block": {
      fields: ["id", "status", "reason", "updatedAt"],
      payload: webhookPayload["user.status.block"]({ id: "u-1", reason: "fraud (by alice)", updatedAt: at }),
      body: '{"id":"u-1","status":"blocked","reason":"fraud (by alice)","updatedAt":1700000000123}',
    },
    "user.status.unblock": {
      fields: ["id", "status", "reason", "updatedAt"],
      payload: webhookPayload["user.status.unblock"]({ id: "u-1", reason: "", updatedAt: at }),
      body: '{"id":"u-1","status":"active","reason":"","updatedAt":1700000000123}',
    },
    "case.created": {
      fields: ["caseId", "subject", "status", "priority", "dueAt", "createdAt", "alertIds"],
      payload: webhookPayload["case.created"]({
        caseId: "case-1",
        subject,
        priority: "high",
        dueAt: new Date(1_700_086_400_123),
        createdAt: at,
        alertIds: ["alert-1"],
      }),
      body:
        '{"caseId":"case-1","subject":{"type":"user","id":"u-1"},"status":"open","priority":"high",' +
        '"dueAt":1700086400123,"createdAt":1700000000123,"alertIds":["alert-1"]}',
    },
    "case.closed": {
      fields: [
        "caseId",
        "subject",
        "status",
        "priority",
        "outcome",
        "note",
        "closedBy",
        "closedAt",
        "reportId",
        "alertIds",
      ],
      payload: webhookPayload["case.closed"]({
        caseId: "case-1",
        subject,
        priority: "high",
        outcome: "false_positive",
        note: "known customer",
        closedBy: "alice@example.com",
        closedAt: at,
        reportId: null,
        alertIds: ["alert-1", "alert-2"],
      }),
      body:
        '{"caseId":"case-1","subject":{"type":"user","id":"u-1"},"status":"closed","priority":"high",' +
        '"outcome":"false_positive","note":"known customer","closedBy":"alice@example.com","closedAt":1700000000123,' +
        '"reportId":null,"alertIds":["alert-1","alert-2"]}',
    },
  };

describe("webhookPayload", () => {
  it("has a builder for every event type of the contract, and no other", () => {
    expect(Object.keys(webhookPayload).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it.each(Object.entries(cases))(
    "%s: exactly the contract's fields, in order, as the sample body",
    (_, c) => {
      expect(Object.keys(c.payload)).toEqual(c.fields);
      expect(JSON.stringify(c.payload)).toBe(c.body);
    },
  );

  it("takes only the payload's fields from a richer source", () => {
    expect(Object.keys(cases["alert.created"].payload)).not.toContain("ruleRef");
    expect(Object.keys(cases["alert.reviewed"].payload)).not.toContain("caseId");
  });
});

describe("webhookEnvelope", () => {
  it("serialises {event, payload, timestamp} in that order, compact", () => {
    const { payload } = cases["user.status.block"];
    expect(webhookEnvelope("user.status.block", payload, 1_700_000_000_999)).toBe(
      `{"event":"user.status.block","payload":${cases["user.status.block"].body},"timestamp":1700000000999}`,
    );
  });
});
