import type { BlobStore } from "../../storage/blob-store";
import type { RegisterJobs } from "../../jobs/job-feature";
import { reconcileUploadImports, uploadImportHandler } from "./run-upload-import";

/** The trace import's jobs: uploads imported off the request (`upload-import`), `concurrency` at once. */
export function uploadImportJobs(store: BlobStore, concurrency: number): RegisterJobs {
  return async ({ db, queue, workerId, staleMs }) => {
    await queue.work("upload-import", uploadImportHandler(db, store, { workerId, staleMs }), { concurrency });
    return {
      name: "upload imports",
      sweep: async () => {
        await reconcileUploadImports(db, queue, { workerId, staleMs });
      },
    };
  };
}
