-- OTLP sessions past TRACEFOLD_OTLP_SYNC_SPANS spans are rebuilt after the request, coalesced (issue 15 load): which ones are due
-- CreateTable
CREATE TABLE "OtlpDirtySession" (
    "sessionKey" TEXT NOT NULL PRIMARY KEY,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "since" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userId" TEXT
);
