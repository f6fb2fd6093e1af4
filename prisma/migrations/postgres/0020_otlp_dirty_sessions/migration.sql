-- OTLP sessions past TRACEFOLD_OTLP_SYNC_SPANS spans are rebuilt after the request, coalesced (issue 15 load): which ones are due
-- CreateTable
CREATE TABLE "OtlpDirtySession" (
    "sessionKey" TEXT NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "since" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userId" TEXT,

    CONSTRAINT "OtlpDirtySession_pkey" PRIMARY KEY ("sessionKey")
);
