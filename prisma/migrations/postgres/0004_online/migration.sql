-- CreateTable
CREATE TABLE "UsageLog" (
    "id" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storageKey" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mapping" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "errorCount" INTEGER NOT NULL,
    "errors" TEXT NOT NULL,
    "slotCount" INTEGER NOT NULL,
    "firstAt" TIMESTAMP(3),
    "lastAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageSlot" (
    "id" SERIAL NOT NULL,
    "logId" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "groupLabel" TEXT,
    "surface" TEXT NOT NULL,
    "slotStart" TIMESTAMP(3) NOT NULL,
    "firstLine" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "input" DOUBLE PRECISION NOT NULL,
    "cached" DOUBLE PRECISION NOT NULL,
    "cacheWrite" DOUBLE PRECISION NOT NULL,
    "output" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "UsageSlot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "UsageLog_sha256_key" ON "UsageLog"("sha256");

-- CreateIndex
CREATE INDEX "UsageSlot_logId_firstLine_idx" ON "UsageSlot"("logId", "firstLine");

-- AddForeignKey
ALTER TABLE "UsageSlot" ADD CONSTRAINT "UsageSlot_logId_fkey" FOREIGN KEY ("logId") REFERENCES "UsageLog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

