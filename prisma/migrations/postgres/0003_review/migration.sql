-- CreateTable
CREATE TABLE "ReviewQueue" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "leaseMs" INTEGER NOT NULL DEFAULT 900000,
    "seed" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewQueue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewItem" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "itemKey" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "sessionId" TEXT NOT NULL,
    "cut" INTEGER NOT NULL,
    "payload" TEXT NOT NULL,
    "leaseReviewer" TEXT,
    "leaseAcquiredAt" TIMESTAMP(3),
    "leaseExpiresAt" TIMESTAMP(3),

    CONSTRAINT "ReviewItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewLabelRow" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "itemKey" TEXT NOT NULL,
    "labelId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "retracted" BOOLEAN NOT NULL DEFAULT false,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "savedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewLabelRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewQueue_runId_idx" ON "ReviewQueue"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_queueId_itemKey_key" ON "ReviewItem"("queueId", "itemKey");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_queueId_position_key" ON "ReviewItem"("queueId", "position");

-- CreateIndex
CREATE INDEX "ReviewLabelRow_queueId_itemKey_idx" ON "ReviewLabelRow"("queueId", "itemKey");

-- CreateIndex
CREATE INDEX "ReviewLabelRow_queueId_reviewerId_idx" ON "ReviewLabelRow"("queueId", "reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewLabelRow_labelId_version_key" ON "ReviewLabelRow"("labelId", "version");

-- CreateIndex
CREATE INDEX "ReviewComment_itemId_idx" ON "ReviewComment"("itemId");

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewLabelRow" ADD CONSTRAINT "ReviewLabelRow_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "ReviewItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

