-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "UploadRedaction" (
    "uploadId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "report" TEXT NOT NULL,
    "rawStorageKey" TEXT,
    "emailsRedacted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadRedaction_pkey" PRIMARY KEY ("uploadId")
);

