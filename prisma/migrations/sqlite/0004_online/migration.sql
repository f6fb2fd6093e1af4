-- CreateTable
CREATE TABLE "UsageLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "firstAt" DATETIME,
    "lastAt" DATETIME,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "UsageSlot" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "logId" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "groupLabel" TEXT,
    "surface" TEXT NOT NULL,
    "slotStart" DATETIME NOT NULL,
    "firstLine" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "input" REAL NOT NULL,
    "cached" REAL NOT NULL,
    "cacheWrite" REAL NOT NULL,
    "output" REAL NOT NULL,
    CONSTRAINT "UsageSlot_logId_fkey" FOREIGN KEY ("logId") REFERENCES "UsageLog" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "UsageLog_sha256_key" ON "UsageLog"("sha256");

-- CreateIndex
CREATE INDEX "UsageSlot_logId_firstLine_idx" ON "UsageSlot"("logId", "firstLine");

