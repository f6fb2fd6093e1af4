-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "UploadRedaction" (
    "uploadId" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "report" TEXT NOT NULL,
    "rawStorageKey" TEXT,
    "emailsRedacted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

