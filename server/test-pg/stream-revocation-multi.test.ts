// A revocation on one instance ends the streams held on another (issue 27): two instances on one
// PostgreSQL database, an admin suspends an account through A, and the account's streams open on B end
// within a second with the reason, carried by the bus that already revokes cached sessions.
import { randomBytes } from "node:crypto";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { nextBusSubscription } from "../test/support/accounts.ts";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { testDatabase } from "../test/support/harness.ts";
import { type Instance, startInstance, stopInstances } from "../test/support/instance.ts";
import { openSse, type SseStream } from "../test/support/sse.ts";

let drop: () => Promise<void>;
const instances: Instance[] = [];
const streams: SseStream[] = [];
const sockets: Client[] = [];
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  const db = await testDatabase();
  drop = db.drop;
  const started = await Promise.all(
    [0, 1].map(async () => {
      return startInstance(db.target, secret, {
        ADMIN_EMAIL: "root@example.com",
        ADMIN_PASSWORD: "root-password-1",
      });
    }),
  );
  instances.push(...started);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const socket of sockets) await socket.dispose();
  await stopInstances(instances);
  await drop?.();
});

describe("revocations across instances", () => {
  it("a suspension made on instance A ends the account's streams (REST, tRPC, GraphQL WebSocket) held on instance B within a second", async () => {
    const [a, b] = instances as [Instance, Instance];
    const user = new RestClient(b.server.url);
    const signup = await user.post("/auth/signup", { email: uniqueEmail("multi-revoke"), password: "correct horse battery" });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const authorization = `Bearer ${user.cookie}`;

    let live = nextBusSubscription(b);
    const rest = await openSse(`${b.server.url}/api/user/credits/stream`, { authorization });
    streams.push(rest);
    expect(rest.response.status).toBe(200);
    await live;
    live = nextBusSubscription(b);
    const trpc = await openSse(`${b.server.url}/trpc/user.balanceChanges`, { authorization });
    streams.push(trpc);
    expect(await trpc.next()).toMatchObject({ event: "connected" });
    await live;
    live = nextBusSubscription(b);
    let socketClosed!: (code: number) => void;
    const closed = new Promise<number>((resolve) => {
      socketClosed = resolve;
    });
    const graphql = createClient({
      url: `${b.server.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization },
      retryAttempts: 0,
      on: { closed: (event) => socketClosed((event as { code: number }).code) },
    });
    sockets.push(graphql);
    const graphqlError = new Promise<unknown>((resolve) =>
      graphql.subscribe(
        { query: "subscription { userBalanceChanges { balance } }" },
        { next: () => {}, error: resolve, complete: () => resolve(null) },
      ),
    );
    await live;

    const admin = new RestClient(a.server.url);
    expect((await admin.post("/auth/login", { email: "root@example.com", password: "root-password-1" })).status).toBe(200);
    const suspend = await admin.patch(`/admin/users/${signup.body.data.id}/status`, { status: "suspended" });
    expect(suspend.status, JSON.stringify(suspend.body)).toBe(200);
    const deadline = Date.now() + 1000;

    const inTime = <T>(promise: Promise<T>) =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("not ended within 1 s")), deadline - Date.now())),
      ]);
    const [restEnd, trpcEnd, graphqlEnd, closeCode] = await Promise.all([
      rest.next(deadline - Date.now()),
      trpc.next(deadline - Date.now()),
      inTime(graphqlError),
      inTime(closed),
    ]);
    expect(graphqlEnd).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "FORBIDDEN" }) })]);
    expect(closeCode).toBe(4403);
    expect(restEnd.event).toBe("error");
    expect(JSON.parse(restEnd.data)).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/^Account suspended/) });
    expect(trpcEnd.event).toBe("serialized-error");
    expect(JSON.parse(trpcEnd.data)).toMatchObject({ data: { code: "FORBIDDEN" } });
    await expect(rest.next(Math.max(0, deadline - Date.now()))).rejects.toThrow("the stream ended");
    await expect(trpc.next(Math.max(0, deadline - Date.now()))).rejects.toThrow("the stream ended");
    // Instance B holds nothing for the ended streams.
    await expect.poll(() => b.services.sessions.streams.size).toBe(0);
  });
});
