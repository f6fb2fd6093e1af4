-- CreateTable
CREATE TABLE "SavedSuiteFilter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "filter" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SessionSummaryRow" (
    "sessionId" TEXT NOT NULL,
    "tokenizer" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("sessionId", "tokenizer")
);

-- CreateIndex
CREATE UNIQUE INDEX "SavedSuiteFilter_name_key" ON "SavedSuiteFilter"("name");
