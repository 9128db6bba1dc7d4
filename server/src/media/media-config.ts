// Which media store a process uses, from its environment (see docs/configuration.md, "Media storage"):
// MEDIA_STORAGE=local (the default: DATA_DIR/media) or s3 (a bucket every machine shares).
import { join } from "node:path";
import type { S3StorageConfig } from "./s3-storage.ts";
import { LocalMediaStorage, type MediaStorage } from "./storage.ts";

export type MediaStorageConfig = { kind: "local" } | ({ kind: "s3" } & S3StorageConfig);

export interface MediaEnv {
  MEDIA_STORAGE?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE?: string | undefined;
}

/** The media store's settings; a wrong or missing value throws an Error whose message names the variable. */
export function mediaStorageConfig(env: MediaEnv): MediaStorageConfig {
  const value = (text: string | undefined) => text?.trim() || null;
  const kind = (value(env.MEDIA_STORAGE) ?? "local").toLowerCase();
  if (kind === "local") return { kind: "local" };
  if (kind !== "s3") throw new Error(`MEDIA_STORAGE must be local or s3 (got "${env.MEDIA_STORAGE}")`);
  const bucket = value(env.S3_BUCKET);
  if (!bucket) throw new Error("MEDIA_STORAGE=s3 needs S3_BUCKET (the bucket's name)");
  const endpoint = value(env.S3_ENDPOINT);
  if (endpoint && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    throw new Error(`S3_ENDPOINT must be the service's http(s) URL, like https://s3.example.com (got "${endpoint}")`);
  }
  const accessKeyId = value(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = value(env.S3_SECRET_ACCESS_KEY);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new Error("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  const pathStyle = value(env.S3_FORCE_PATH_STYLE)?.toLowerCase();
  if (pathStyle && !["1", "true", "0", "false"].includes(pathStyle)) {
    throw new Error(`S3_FORCE_PATH_STYLE must be 1/true or 0/false (got "${env.S3_FORCE_PATH_STYLE}")`);
  }
  return {
    kind: "s3",
    bucket,
    endpoint,
    region: value(env.S3_REGION) ?? "us-east-1",
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    // Self-hosted stores (an S3_ENDPOINT) rarely have per-bucket host names; AWS prefers them.
    forcePathStyle: pathStyle ? pathStyle === "1" || pathStyle === "true" : Boolean(endpoint),
  };
}

/**
 * The process's media store. Local files (and, for S3, scratch space and downloaded copies) live under
 * DATA_DIR/media. The AWS SDK is loaded only when S3 is chosen: the local default pays nothing for it.
 */
export async function createMediaStorage(config: MediaStorageConfig | undefined, dataDir: string): Promise<MediaStorage> {
  const root = join(dataDir, "media");
  if (config?.kind !== "s3") return new LocalMediaStorage(root);
  const { S3MediaStorage } = await import("./s3-storage.ts");
  return new S3MediaStorage(config, root);
}
