import { prisma } from "@/lib/db";
import { saveMerchant } from "@/lib/merchants/save-merchant";
import { saveUser } from "@/lib/users/save-user";
import { ZMerchant } from "@/lib/merchants/schemas";
import { ZUser } from "@/lib/users/schemas";
import { setUserStatus } from "@/lib/users/set-user-status";

const DAY = 86_400_000;

// Demo users, devices, a blocked user with its history, comments and two merchants of one organization.
export async function seedDemoUsers(clientId: string): Promise<void> {
  const now = Date.now();
  const users = [
    {
      id: "demo-user-1",
      firstName: "Amina",
      lastName: "Odhiambo",
      phone: { phone: "+254700100001", country: "KE" },
      email: { email: "amina@example.com" },
      address: { postalCode: "00100", country: "KE", city: "Nairobi" },
      userDevice: {
        id: "demo-device-1",
        fingerprint: "fp-demo-1",
        ipAddress: "198.51.100.10",
        platform: "android",
      },
    },
    {
      id: "demo-user-2",
      firstName: "Bruno",
      lastName: "Silva",
      phone: { phone: "+5511988880002", country: "BR" },
      email: { email: "bruno@example.com" },
      status: "APPROVED",
      userDevice: {
        id: "demo-device-2",
        fingerprint: "fp-demo-shared",
        ipAddress: "198.51.100.20",
        platform: "ios",
      },
    },
    {
      id: "demo-user-3",
      firstName: "Chen",
      lastName: "Wei",
      email: { email: "chen@example.com" },
      userDevice: {
        id: "demo-device-3",
        fingerprint: "fp-demo-shared",
        ipAddress: "198.51.100.30",
        platform: "web",
      },
    },
  ].map((u, i) => ZUser.parse({ ...u, timestamp: now - (30 - i) * DAY }));
  const merchants = [
    {
      id: "demo-merchant-1",
      name: "Harbour Coffee — Downtown",
      organizationId: "demo-org-1",
      mcc: "5814",
      country: "KE",
      paymentMethods: ["card", "cash"],
      averagePurchaseSize: "4.50",
      limits: { limitCurrencyCode: "KES", dailyTransactionLimit: 500000 },
    },
    {
      id: "demo-merchant-2",
      name: "Harbour Coffee — Airport",
      organizationId: "demo-org-1",
      mcc: "5814",
      country: "KE",
      paymentMethods: ["card"],
    },
  ].map((m) => ZMerchant.parse({ ...m, timestamp: now - 60 * DAY }));

  for (const user of users) await saveUser({ clientId, user });
  for (const merchant of merchants) await saveMerchant({ clientId, merchant });
  await prisma.$transaction(async (tx) => {
    await setUserStatus(tx, {
      clientId,
      userId: "demo-user-3",
      status: "blocked",
      source: "dashboard",
      comment: "Device shared with an account under review",
      reviewer: "Rui Reviewer",
    });
    await tx.comment.createMany({
      data: [
        {
          clientId,
          userId: "demo-user-3",
          comment: "Same device fingerprint as demo-user-2.",
          commenterId: "rui",
          commenterDisplayName: "Rui Reviewer",
          action: "BLOCK",
          createdAt: new Date(now - 2 * DAY),
        },
        {
          clientId,
          userId: "demo-user-1",
          comment: "KYC documents verified.",
          commenterId: "rui",
          commenterDisplayName: "Rui Reviewer",
          createdAt: new Date(now - DAY),
        },
      ],
    });
  });
}
