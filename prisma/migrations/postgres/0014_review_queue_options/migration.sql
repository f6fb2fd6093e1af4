-- Review queue options (issue 17 item 12): the A/B pair and its cuts, a seeded sample of the items, blind mode for failure-category queues
-- AlterTable
ALTER TABLE "ReviewQueue" ADD COLUMN     "policyA" TEXT;
ALTER TABLE "ReviewQueue" ADD COLUMN     "policyB" TEXT;
ALTER TABLE "ReviewQueue" ADD COLUMN     "cuts" TEXT;
ALTER TABLE "ReviewQueue" ADD COLUMN     "sampleSize" INTEGER;
ALTER TABLE "ReviewQueue" ADD COLUMN     "sampledFrom" INTEGER;
ALTER TABLE "ReviewQueue" ADD COLUMN     "blind" BOOLEAN NOT NULL DEFAULT false;
