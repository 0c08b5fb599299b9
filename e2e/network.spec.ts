import { expect, test, type Page } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import {
  createApiKeyWithCli,
  demoClientId,
  expectNoAxeViolations,
  expectNoClippedTables,
  expectNoHorizontalScroll,
  signIn,
  startReceiver,
  waitFor,
  type TReceiver,
} from "./support";

// A reviewer opens a case, finds the ring in the network view (people who share a device), checks who
// and which open cases a block touches, and blocks the ring in one step with a note. Each person's
// user.status.block reaches a subscriber, signed. The ring includes hostile names: 800 letters without
// a space and a right-to-left override, which must neither overflow nor flip the page.

const SECRET = "e2e-network-subscription-secret";
const RUN = Date.now().toString(36);
const ANCHOR = `e2e-ring-nadia-${RUN}`;
const LONG = `e2e-ring-long-${RUN}`;
const RLO = `e2e-ring-rlo-${RUN}`;
const OMAR = `e2e-ring-omar-${RUN}`;
const LONG_NAME = "W".repeat(800);
const RLO_NAME = "\u202Eevil Mallory";
// how the page shows it: the override made visible, never applied
const RLO_SHOWN = "\u27E8U+202E\u27E9evil Mallory";
const RING = [ANCHOR, LONG, RLO, OMAR];
const SHOTS = "test-results/screens";

let apiKey = "";
let receiver: TReceiver;

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 800 } });

test.beforeAll(async ({ request }) => {
  receiver = await startReceiver(SECRET);
  apiKey = createApiKeyWithCli(await demoClientId());
  const headers = { authorization: `Bearer ${apiKey}` };
  const sub = await request.post("/v1/webhooks", {
    headers,
    data: { url: receiver.url, events: ["user.status.block"], secret: SECRET },
  });
  expect(sub.status()).toBe(200);
  const people: [string, string, string][] = [
    [ANCHOR, "Nadia", "Ring"],
    [LONG, LONG_NAME, ""],
    [RLO, RLO_NAME, ""],
    [OMAR, "Omar", "Ring"],
  ];
  for (const [id, firstName, lastName] of people) {
    const user = await request.post("/v1/user", {
      headers,
      data: {
        id,
        firstName,
        ...(lastName && { lastName }),
        timestamp: Date.now() - 86_400_000,
        // one phone between two of them, one device among all: a ring
        ...(id === RLO || id === OMAR ? { phone: { phone: `+1 555 ${RUN.slice(-4)}` } } : {}),
        userDevice: { id: `${id}-device`, fingerprint: `fp-ring-${RUN}` },
      },
    });
    expect(user.status(), await user.text()).toBe(200);
  }
  // large amounts fire the demo rule: the anchor and Omar each get an open case
  for (const userId of [ANCHOR, OMAR]) {
    const tx = await request.post("/v1/transaction", {
      headers,
      data: {
        id: `${userId}-tx`,
        userId,
        status: "PENDING",
        currencyCode: "EUR",
        amount: 25_000,
        timestamp: Date.now() - 5_000,
      },
    });
    expect(tx.status()).toBe(200);
  }
});

test.afterAll(async () => {
  await receiver?.close();
});

async function openCaseOf(page: Page, userId: string) {
  await page.getByRole("link", { name: "Cases", exact: true }).click();
  await page.getByRole("combobox", { name: "User" }).fill(userId);
  await page.getByRole("combobox", { name: "User" }).press("Enter");
  const rows = page.getByTestId("case-row");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: /^Case: / })).toBeVisible();
}

test("a reviewer finds the ring on a case and blocks it in one step", async ({ page }) => {
  // a long journey on a shared two-core machine: more than the default minute, never a timing assertion
  test.setTimeout(150_000);
  await signIn(page, DEMO.reviewer);
  await openCaseOf(page, ANCHOR);
  const view = page.getByTestId("network-view");
  await view.scrollIntoViewIfNeeded();
  const rows = view.getByTestId("network-row");
  await expect(rows).toHaveCount(4);
  await expect(view.getByTestId("network-summary")).toHaveText("3 linked people.");
  await expect(page.getByTestId("network-graph").locator("canvas").first()).toBeVisible();

  // hostile names: isolated, wrapped inside the table, nothing scrolls sideways
  const rloRow = view.locator(`[data-user-id="${RLO}"]`);
  await expect(rloRow.locator("th bdi").first()).toHaveText(RLO_SHOWN);
  const longRow = view.locator(`[data-user-id="${LONG}"]`);
  await expect(longRow.locator("th bdi").first()).toHaveText(LONG_NAME);
  const longBox = await longRow.locator("th a").boundingBox();
  const tableBox = await view.getByTestId("network-table").boundingBox();
  expect(longBox!.x + longBox!.width).toBeLessThanOrEqual(tableBox!.x + tableBox!.width);
  await expectNoHorizontalScroll(page);
  await expectNoClippedTables(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/network-case.png`, fullPage: true });

  // the keyboard walks the graph and says who is in focus
  await page.getByTestId("network-graph").focus();
  await expect(page.getByTestId("graph-focus")).toContainText("Nadia Ring (this person");
  await page.keyboard.press("End");
  await expect(page.getByTestId("graph-focus")).not.toContainText("Nadia Ring");

  // without devices nobody is linked to the anchor: the device is what ties them
  await view.getByRole("checkbox", { name: "Device" }).uncheck();
  await expect(view.getByTestId("network-summary")).toHaveText(
    "No one is linked to this person with these filters.",
  );
  await view.getByRole("checkbox", { name: "Device" }).check();
  await expect(rows).toHaveCount(4);

  for (const id of RING) await view.locator(`[data-user-id="${id}"]`).getByRole("checkbox").check();
  await expect(view.getByText("4 people selected")).toBeVisible();
  await view.getByRole("button", { name: "Block selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Block the selected people" });
  // before acting: how many people and which open cases
  await expect(dialog.getByTestId("ring-impact")).toContainText("This touches 4 people");
  await expect(dialog.getByTestId("ring-impact")).toContainText("2 open cases get a line in their history");
  await expect(dialog.getByTestId("ring-impact")).toContainText("case of Omar Ring");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/network-block-dialog.png` });
  await dialog.getByRole("button", { name: "Block 4 people" }).click();
  await expect(dialog.getByTestId("dialog-problem")).toBeVisible();
  await dialog.getByLabel("Why block them? (required)").fill("Device ring: four accounts on one phone");
  await dialog.getByRole("button", { name: "Block 4 people" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("done-note")).toContainText("4 people blocked");
  await expect(page.getByTestId("done-note")).toBeFocused();
  for (const id of RING) await expect(view.locator(`[data-user-id="${id}"]`)).toContainText("Blocked");
  await expect(page.getByTestId("subject-status")).toHaveText("Blocked");
  await expect(page.getByTestId("case-history")).toContainText(`User blocked with the network of ${ANCHOR}`);
  await page.screenshot({ path: `${SHOTS}/network-blocked.png`, fullPage: true });

  // each person's block reached the subscriber, signed and verified, with the note and the reviewer
  const blocks = await waitFor(
    () => {
      const got = receiver.received.filter((r) => r.event === "user.status.block" && r.verified);
      return got.length >= 4 ? got : null;
    },
    30_000,
    "four user.status.block deliveries",
  );
  const payloads = blocks.map((r) => (r.body as { payload: { id: string; reason: string } }).payload);
  expect(payloads.map((p) => p.id).sort()).toEqual([...RING].sort());
  for (const p of payloads)
    expect(p.reason).toBe(`Device ring: four accounts on one phone (reviewer: ${DEMO.reviewer.email})`);
});

test("a linked person opens in one click, and their page shows the same ring", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  await page.goto(`/dashboard/users/${encodeURIComponent(ANCHOR)}`);
  const view = page.getByTestId("network-view");
  await expect(view.getByTestId("network-row")).toHaveCount(4);
  await view.locator(`[data-user-id="${OMAR}"]`).getByRole("link", { name: "Omar Ring" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/users/${OMAR}$`));
  await expect(page.getByRole("heading", { name: `Omar Ring (${OMAR})` })).toBeVisible();
  await expect(page.getByTestId("network-view").getByTestId("network-row")).toHaveCount(4);
  // from the graph: Enter on the person in focus opens them
  await page.getByTestId("network-graph").focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  const next = (await page.getByTestId("graph-focus").locator("bdi").textContent()) ?? "";
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(new RegExp(`/dashboard/users/${OMAR}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(next.slice(0, 20));
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/network-user.png`, fullPage: true });
});
