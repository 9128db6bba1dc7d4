// An S3-compatible server for tests (s3rver, in this process, files in a temporary folder) and the
// environment that points the service's MEDIA_STORAGE at it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error -- s3rver ships no types
import S3rver from "s3rver";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** MEDIA_STORAGE=s3 and the S3_* variables for this server and bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials (it checks request signatures against them). */
const KEY = "S3RVER";

export async function startS3(bucket = "adgen-media"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "adgen-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
      S3_FORCE_PATH_STYLE: "1",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
