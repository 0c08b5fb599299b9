-- CreateTable
CREATE TABLE "sanctions_datasets" (
    "id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sourceFile" TEXT NOT NULL,
    "entityCount" INTEGER NOT NULL,
    "nameCount" INTEGER NOT NULL,
    "importId" TEXT NOT NULL,
    "loadedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sanctions_datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sanctions_entities" (
    "datasetId" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "schema" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "aliases" TEXT[],
    "birthDates" TEXT[],
    "countries" TEXT[],
    "programme" TEXT,

    CONSTRAINT "sanctions_entities_pkey" PRIMARY KEY ("datasetId","entityId")
);

-- CreateTable
CREATE TABLE "sanctions_false_matches" (
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "entityName" TEXT NOT NULL,
    "screenedName" TEXT NOT NULL,
    "note" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sanctions_false_matches_pkey" PRIMARY KEY ("clientId","userId","datasetId","entityId")
);

