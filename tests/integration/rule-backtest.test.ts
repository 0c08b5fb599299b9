// A backtest replays every subject with stored history, sanctions rules included
// (they read the sanctions lists exactly as screening does, instead of recording an error).
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as onboard } from "@/app/v1/user/onboard/route";
import { saveRule } from "@/lib/admin/save-rule";
import type { TSessionUser } from "@/lib/auth/session";
import { continueBacktest, startBacktest, type TBacktestRunView } from "@/lib/backtest/run-backtest";
import { importRules } from "@/lib/rules/import-rules";
import { SANCTIONS_FIXTURES, SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";
import { importSanctions } from "@/lib/sanctions/import-sanctions";
import { call, createTestClient } from "@/tests/factories";

let client: { clientId: string; apiKey: string };
let admin: TSessionUser;
const userRule = SANCTIONS_RULES.find((r) => r.id === "SANCTIONS-USER")!;

async function onboardUser(id: string, firstName: string, lastName: string, dateOfBirth: string) {
  const res = await call(onboard, {
    apiKey: client.apiKey,
    body: { id, timestamp: Date.now() - 60_000, firstName, lastName, dateOfBirth },
  });
  expect(res.status).toBe(200);
}

async function runToEnd(run: TBacktestRunView): Promise<TBacktestRunView> {
  while (run.state === "running") run = await continueBacktest(admin, { runId: run.id, batchSize: 2 });
  return run;
}

beforeAll(async () => {
  await importSanctions({ file: path.join(SANCTIONS_FIXTURES, "targets.simple.csv") });
  client = await createTestClient();
  admin = { id: "admin-1", clientId: client.clientId, email: "admin@test", name: null, role: "admin" };
  await importRules({ clientId: client.clientId, rules: [userRule] });
  await onboardUser("u-exact", "Viktor", "Morozenko", "1968-04-12");
  await onboardUser("u-typo", "Wiktor", "Morozenko", "1968-04-12");
  await onboardUser("u-other", "Jane", "Smith", "1990-01-01");
});

describe("backtest of a sanctions rule over onboarded users", () => {
  it("replays the recorded onboardings with the sanctions lists: no evaluation errors", async () => {
    // the draft only accepts exact matches (score 1.0); live accepts 0.85
    await saveRule(admin, {
      ruleId: userRule.id,
      definition: { ...userRule, condition: userRule.condition.replace(">= 0.85", ">= 1.0") },
    });
    const started = await startBacktest(admin, {
      ruleId: userRule.id,
      from: Date.now() - 3_600_000,
      to: Date.now() + 60_000,
    });
    expect(started).toMatchObject({ subject: "user", draftVersion: 2, liveVersion: 1, total: 3 });
    const run = await runToEnd(started);
    expect(run).toMatchObject({
      state: "done",
      processed: 3,
      draftErrors: 0,
      liveErrors: 0,
      firstError: null,
      liveHits: 2,
      draftHits: 1,
      onlyLive: 1,
      onlyDraft: 0,
    });
    expect(run.samples.onlyLive.map((s) => s.subjectId)).toEqual(["u-typo"]);
    expect(run.samples.both.map((s) => s.subjectId)).toEqual(["u-exact"]);
  });
});
