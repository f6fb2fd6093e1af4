-- OTLP/HTTP ingestion (issue 15 item 2): received spans, redacted, unique by trace and span id, so sessions rebuild from them
-- CreateTable
CREATE TABLE "OtlpSpan" (
    "id" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "groupKey" TEXT,
    "sessionKey" TEXT NOT NULL,
    "startNs" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OtlpSpan_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OtlpSpan_sessionKey_idx" ON "OtlpSpan"("sessionKey");

-- CreateIndex
CREATE UNIQUE INDEX "OtlpSpan_traceId_spanId_key" ON "OtlpSpan"("traceId", "spanId");
