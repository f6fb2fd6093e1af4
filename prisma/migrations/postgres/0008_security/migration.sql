-- CreateTable
CREATE TABLE "SignInFailure" (
    "id" TEXT NOT NULL,
    "accountKey" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SignInFailure_accountKey_createdAt_idx" ON "SignInFailure"("accountKey", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_ip_createdAt_idx" ON "SignInFailure"("ip", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_createdAt_idx" ON "SignInFailure"("createdAt");
