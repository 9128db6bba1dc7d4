// The service's VAPID key pair (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when both are set, else
// generated once with web-push and kept in DATA_DIR/secrets/vapid.json, so browsers' subscriptions
// survive restarts (a new key would orphan every one of them).
import { createECDH } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config/env.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who runs this push sender (RFC 8292 `sub`): a mailto: on the public host. */
  subject: string;
}

const loaded = new Map<string, VapidKeys>();

/** A P-256 key pair as web-push's generateVAPIDKeys makes it (base64url: the uncompressed point, the 32-byte secret). */
function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  // Padded as web-push pads them: a secret with leading zero bytes comes out shorter.
  const pad = (key: Buffer, length: number) => (key.length < length ? Buffer.concat([Buffer.alloc(length - key.length), key]) : key);
  return {
    publicKey: pad(ecdh.getPublicKey(), 65).toString("base64url"),
    privateKey: pad(ecdh.getPrivateKey(), 32).toString("base64url"),
  };
}

function readOrCreate(dataDir: string): { publicKey: string; privateKey: string } {
  const dir = join(dataDir, "secrets");
  const file = join(dir, "vapid.json");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keys = generateVapidKeys();
    try {
      writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process wrote it first: theirs is the one.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const keys = JSON.parse(readFileSync(file, "utf8")) as { publicKey: string; privateKey: string };
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

export function vapidKeys(config: Config, env: Record<string, string | undefined> = process.env): VapidKeys {
  const cached = loaded.get(config.dataDir);
  if (cached) return cached;
  const fromEnv =
    env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null;
  const pair = fromEnv ?? readOrCreate(config.dataDir);
  const host = new URL(config.publicUrl).hostname;
  const keys = { ...pair, subject: `mailto:notifications@${host.includes(".") ? host : `${host}.invalid`}` };
  loaded.set(config.dataDir, keys);
  return keys;
}
