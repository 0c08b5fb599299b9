import { test, expect } from "@playwright/test";
import { startReceiver, type TReceiver } from "../tests/support/webhook-receiver";
import {
  createScreeningClient,
  createTestDatabase,
  expectStoredAndDelivered,
  npmStart,
  screeningLoad,
  serverEnvironment,
  sleep,
  subscribeWebhooks,
  type TServer,
} from "./server-harness";

// Crash safety of the built server (`npm start` with two server processes, WEB_CONCURRENCY=2, each
// running the in-process job driver; CRASH_WEB_CONCURRENCY overrides): under a
// steady load of screenings with a webhook subscription, the whole server process group is
// SIGKILLed at random moments and started again. Afterwards every transaction that got a 200 is
// stored with its decision, no transaction is stored without one, and every webhook due is delivered
// (signed, to the receiver). CRASH_KILLS sets the number of kills (default 3).

const KILLS = Number(process.env.CRASH_KILLS ?? "3");
const PORT = Number(process.env.E2E_CRASH_PORT ?? "3190");
const SECRET = "whsec_crash-spec";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: TServer;
let receiver: TReceiver;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createTestDatabase("rss_crash");
  server = npmStart(
    serverEnvironment(PORT, database.url, { WEB_CONCURRENCY: process.env.CRASH_WEB_CONCURRENCY ?? "2" }),
  );
  receiver = await startReceiver(SECRET);
});

test.afterAll(async () => {
  await server?.stop("SIGKILL");
  await receiver?.close();
  await database?.drop();
});

test("screenings and webhooks survive SIGKILL of the server under load", async () => {
  test.setTimeout(120_000 + KILLS * 45_000);
  const { clientId, apiKey } = createScreeningClient(database.url, "Crash");
  await server.start();
  await subscribeWebhooks(server.base, apiKey, receiver, SECRET);

  const load = screeningLoad(server.base, apiKey, 4, { prefix: "crash" });
  for (let k = 0; k < KILLS; k++) {
    await sleep(2500 + Math.random() * 4000);
    await server.stop("SIGKILL");
    await sleep(Math.random() * 500);
    await server.start();
  }
  await sleep(1500);
  await load.stop();
  expect(load.refused, "every answer while up is a 200").toEqual([]);

  // Runs cut by a kill resume when their lease expires, so repeats are allowed here (at least once).
  const result = await expectStoredAndDelivered(database.url, clientId, load.answered, receiver);
  console.log(
    `crash: ${KILLS} kills survived; ${load.answered.size} screenings answered 200 (${load.cut()} cut or refused while down), ` +
      `${result.stored} transactions stored, ${result.deliveries} deliveries checked ` +
      `(${receiver.received.length} received, ${result.repeats.length} repeated)`,
  );
  expect(load.answered.size).toBeGreaterThan(KILLS * 5);
});
