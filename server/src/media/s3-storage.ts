// Media in an S3-compatible object store (MEDIA_STORAGE=s3): AWS S3 or any service that speaks its API
// (MinIO, Ceph, R2, …). Every machine (instances serving /api/media, `pnpm worker`s rendering) sees the
// same files. Files are uploaded in parts (lib-storage), read as streams with `Range` (a video is never
// held whole in memory) and copied to this machine only for tools that need a path (download-cache.ts).
import { createReadStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { join, posix } from "node:path";
import { Readable } from "node:stream";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { mediaContentType } from "./content-type.ts";
import { DownloadCache } from "./download-cache.ts";
import type { MediaStorage } from "./storage.ts";

export interface S3StorageConfig {
  bucket: string;
  /** The service's URL; unset: AWS S3 for `region`. */
  endpoint: string | null;
  region: string;
  /** Unset: the AWS SDK's default credentials (AWS_* variables, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
}

/** Upload part size: a file up to this is one PUT; a larger one goes in parts of this size, four at a time. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

export class S3MediaStorage implements MediaStorage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly cache: DownloadCache;

  /** `localRoot` holds this machine's scratch folders (`.work/`) and downloaded copies (`.cache/`). */
  constructor(
    config: S3StorageConfig,
    readonly localRoot: string,
  ) {
    const options: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      // Checksums only where the API requires them: many S3-compatible services reject the newer defaults.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 5_000 },
    };
    if (config.endpoint) options.endpoint = config.endpoint;
    if (config.credentials) options.credentials = config.credentials;
    this.client = new S3Client(options);
    this.bucket = config.bucket;
    this.cache = new DownloadCache(join(localRoot, ".cache"), {
      version: async (key) => (await this.head(key))?.ETag ?? null,
      read: (key) => this.read(key),
    });
  }

  async put(key: string, localPath: string): Promise<{ key: string; bytes: number }> {
    checkKey(key);
    const { size } = await stat(localPath);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: createReadStream(localPath), ContentType: mediaContentType(key), ContentLength: size },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    await upload.done();
    await rm(localPath, { force: true });
    return { key, bytes: size };
  }

  async stat(key: string): Promise<{ bytes: number; modifiedAt: Date } | null> {
    checkKey(key);
    const head = await this.head(key);
    return head ? { bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) } : null;
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    checkKey(key);
    return lazyStream(async (signal) => {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        { abortSignal: signal },
      );
      return answer.Body as Readable;
    });
  }

  localFile(key: string): Promise<string> {
    checkKey(key);
    return this.cache.file(key);
  }

  async scratchDir(prefix: string): Promise<string> {
    checkKey(prefix);
    const dir = join(this.localRoot, ".work", prefix);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async remove(prefix: string): Promise<void> {
    checkKey(prefix);
    // `.work/…` names this machine's scratch space, which never reaches the bucket.
    if (prefix === ".work" || prefix.startsWith(".work/")) {
      await rm(join(this.localRoot, prefix), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      return;
    }
    const keys = [prefix, ...(await this.list(prefix)).map((object) => object.key)];
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((Key) => ({ Key }));
      const answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch, Quiet: true } }));
      const failed = (answer.Errors ?? []).filter((error) => error.Code !== "NoSuchKey");
      if (failed.length) throw new Error(`media: could not delete ${failed[0]!.Key}: ${failed[0]!.Message ?? failed[0]!.Code}`);
    }
    await this.cache.drop(prefix);
  }

  async list(prefix: string): Promise<{ key: string; bytes: number }[]> {
    checkKey(prefix);
    return this.listAll(`${prefix}/`);
  }

  async usage(): Promise<{ files: number; bytes: number }> {
    const all = await this.listAll("");
    return { files: all.length, bytes: all.reduce((sum, object) => sum + object.bytes, 0) };
  }

  close(): void {
    this.client.destroy();
  }

  private async listAll(prefix: string): Promise<{ key: string; bytes: number }[]> {
    const out: { key: string; bytes: number }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          ...(prefix ? { Prefix: prefix } : {}),
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) out.push({ key: object.Key, bytes: object.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  private async head(key: string) {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as Error).name === "NotFound" || (error as Error).name === "NoSuchKey") return null;
      throw error;
    }
  }
}

/** A key is relative path segments: nothing empty, `.` or `..` (as LocalMediaStorage refuses a key escaping its folder). */
function checkKey(key: string): void {
  if (!key || key.startsWith("/") || posix.normalize(key) !== key || key.split("/").some((part) => part === ".." || part === "."))
    throw new Error(`media key escapes the store: ${key}`);
}

/**
 * A stream that sends its request when first read, passes the response on with backpressure, and aborts
 * the request when destroyed (a client that hangs up stops the download). Being lazy matters to the ZIP
 * export, which queues a stream per file.
 */
function lazyStream(open: (signal: AbortSignal) => Promise<Readable>): Readable {
  const controller = new AbortController();
  let body: Readable | null = null;
  let opening = false;
  const out = new Readable({
    read() {
      if (body) {
        body.resume();
        return;
      }
      if (opening) return;
      opening = true;
      open(controller.signal).then(
        (opened) => {
          body = opened;
          if (out.destroyed) return void opened.destroy();
          opened.on("data", (chunk: Buffer) => {
            if (!out.push(chunk)) opened.pause();
          });
          opened.once("end", () => out.push(null));
          opened.once("error", (error) => out.destroy(error));
        },
        (error: Error) => out.destroy(error),
      );
    },
    destroy(error, callback) {
      controller.abort();
      body?.destroy();
      callback(error);
    },
  });
  return out;
}
