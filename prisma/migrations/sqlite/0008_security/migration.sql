-- CreateTable
CREATE TABLE "SignInFailure" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountKey" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "SignInFailure_accountKey_createdAt_idx" ON "SignInFailure"("accountKey", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_ip_createdAt_idx" ON "SignInFailure"("ip", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_createdAt_idx" ON "SignInFailure"("createdAt");
