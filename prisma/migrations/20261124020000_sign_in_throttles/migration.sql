-- CreateTable
CREATE TABLE "sign_in_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastFailureAt" TIMESTAMPTZ(3) NOT NULL,
    "blockedUntil" TIMESTAMPTZ(3),
    "lockedAt" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("key")
);
