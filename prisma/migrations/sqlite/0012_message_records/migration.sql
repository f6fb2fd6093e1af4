-- One message merged from several source records (a Claude Code API response written one record per content block) lists them here
-- AlterTable
ALTER TABLE "TraceMessage" ADD COLUMN "records" TEXT;

