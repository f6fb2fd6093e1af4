-- CreateTable
CREATE TABLE "SavedSuiteFilter" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filter" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SavedSuiteFilter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SessionSummaryRow" (
    "sessionId" TEXT NOT NULL,
    "tokenizer" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionSummaryRow_pkey" PRIMARY KEY ("sessionId","tokenizer")
);

-- CreateIndex
CREATE UNIQUE INDEX "SavedSuiteFilter_name_key" ON "SavedSuiteFilter"("name");
