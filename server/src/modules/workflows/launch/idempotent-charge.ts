// A launch with an Idempotency-Key: the key's row joins the charge in one transaction, so a retried request
// replays the first answer (charged once) and a reused key with another body is a 409. Keys last 24 hours.
import { createHash, randomUUID } from "node:crypto";
import type { Prisma } from "@adgen/prisma";
import type { LaunchData } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { chargeAndCreateJob, type NewJob } from "./charge-launch.ts";

/** What a launch answers (stored with its key, so a replay answers the same). */
export interface LaunchAnswer {
  data: LaunchData;
  /** Credits charged by the launch that created the job. */
  cost: number;
  message: string;
}

export type ChargeResult =
  | { kind: "replay"; outcome: LaunchAnswer }
  | { kind: "created"; balance: number; published: boolean; outcome: LaunchAnswer };

/** How long a key replays its first answer. */
const KEY_LIFETIME_MS = 86_400_000;

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether the account used this key in the last 24 hours: its first answer is replayed whatever the balance or page are now. */
export async function keyWasUsed(services: Services, userId: string, key: string): Promise<boolean> {
  const earlier = await services.prisma.idempotencyKey.findFirst({
    where: { userId, key, createdAt: { gte: new Date(Date.now() - KEY_LIFETIME_MS) } },
    select: { key: true },
  });
  return earlier !== null;
}

/**
 * Charges and creates the job, or replays the key's first answer. Without a key the launch is one
 * statement; with one, the key's row joins it in a transaction.
 */
export async function chargeOnce(
  services: Services,
  job: NewJob,
  queued: LaunchAnswer,
  idempotency: { key: string; request: unknown } | null,
): Promise<ChargeResult> {
  const entryId = randomUUID();
  if (!idempotency) {
    const charge = await chargeAndCreateJob({ sql: services.db.sql }, services.events, job, entryId);
    return { kind: "created", balance: charge.balance, published: charge.published, outcome: queued };
  }
  const { key } = idempotency;
  const userId = job.userId;
  const requestHash = createHash("sha256").update(stableJson(idempotency.request)).digest("hex");
  return services.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} AND created_at < now() - interval '24 hours'`;
    const inserted = await tx.$queryRaw<{ key: string }[]>`
      INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES (${userId}, ${key}, ${requestHash})
      ON CONFLICT DO NOTHING RETURNING key`;
    if (inserted.length === 0) {
      const earlier = await tx.idempotencyKey.findUniqueOrThrow({ where: { userId_key: { userId, key } } });
      if (earlier.requestHash !== requestHash) {
        throw new AppError("CONFLICT", "This Idempotency-Key was already used with a different request body");
      }
      if (!earlier.response) throw new AppError("CONFLICT", "A request with this Idempotency-Key is still being processed");
      return { kind: "replay" as const, outcome: earlier.response as unknown as LaunchAnswer };
    }
    const charge = await chargeAndCreateJob({ tx }, services.events, job, entryId);
    await tx.idempotencyKey.update({
      where: { userId_key: { userId, key } },
      data: { response: queued as unknown as Prisma.InputJsonValue, status: 200 },
    });
    return { kind: "created" as const, balance: charge.balance, published: charge.published, outcome: queued };
  });
}

/** A launch that waited for its job stores its final answer, so a replay answers that. */
export async function storeAnswer(services: Services, userId: string, key: string, answer: LaunchAnswer): Promise<void> {
  await services.prisma.idempotencyKey.update({
    where: { userId_key: { userId, key } },
    data: { response: answer as unknown as Prisma.InputJsonValue },
  });
}
