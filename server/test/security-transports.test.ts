// Attacks from the security review, each performed and now refused: another origin using the cookie
// (HTTP and WebSocket), bodies large enough to stall the parser, odd input that used to be a 500, and
// credentials and settings that outlived their rules.
import { request as httpRequest } from "node:http";
import type { TRPCClientError } from "@trpc/client";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const PARTNER = "https://partner.example";
const EVIL = "https://evil.example";

let app: TestApp;
let victim: Account;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, CORS_ORIGINS: `${PARTNER}/`, NODE_ENV: "production" });
  victim = await signUp(app, "victim");
});
afterAll(() => app?.close());

const cookie = () => `session=${victim.jwt}`;

describe("1. origins", () => {
  it("refuses another origin's preflight on every transport, with no CORS headers", async () => {
    for (const path of ["/graphql", "/trpc/user.generateApiKey", "/api/user/api-key"]) {
      const res = await fetch(`${app.url}${path}`, {
        method: "OPTIONS",
        headers: { origin: EVIL, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
      expect(res.status, path).toBe(403);
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(res.headers.get("access-control-allow-credentials"), path).toBeNull();
    }
  });

  it("never lets another origin's request use the session cookie", async () => {
    const headers = { origin: EVIL, cookie: cookie(), "content-type": "application/json" };
    const gql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "mutation { userGenerateApiKey { apiKey } }" }),
    });
    expect((await gql.json()).errors[0].extensions.code).toBe("UNAUTHORIZED");
    expect(gql.headers.get("access-control-allow-origin")).toBeNull();
    expect((await fetch(`${app.url}/api/user/profile`, { headers })).status).toBe(401);
    expect((await fetch(`${app.url}/trpc/user.profile`, { headers })).status).toBe(401);
    // The same cookie from the service's own page works.
    expect((await fetch(`${app.url}/api/user/profile`, { headers: { ...headers, origin: app.url } })).status).toBe(200);
  });

  it("answers an allowed origin's preflight without credentials; its bearer calls work, its cookies do not", async () => {
    const preflight = await fetch(`${app.url}/graphql`, {
      method: "OPTIONS",
      headers: {
        origin: PARTNER,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(PARTNER);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");

    const bearer = await fetch(`${app.url}/api/user/credits`, { headers: { origin: PARTNER, authorization: `Bearer ${victim.jwt}` } });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("access-control-allow-origin")).toBe(PARTNER);
    expect((await fetch(`${app.url}/api/user/credits`, { headers: { origin: PARTNER, cookie: cookie() } })).status).toBe(401);
    // Server-side clients send no Origin: bearer keeps working.
    expect((await new RestClient(app.url, { bearer: victim.jwt }).get("/user/credits")).status).toBe(200);
  });

  it("refuses a WebSocket handshake from another origin, and ignores the cookie on an allowed one", async () => {
    const handshake = (origin: string, headers: Record<string, string> = {}) =>
      new Promise<number | "open">((resolve) => {
        const socket = new WebSocket(`${app.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
          headers: { origin, ...headers },
        });
        socket.on("open", () => {
          socket.close();
          resolve("open");
        });
        socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        socket.on("error", () => {});
      });
    expect(await handshake(EVIL, { cookie: cookie() })).toBe(401);
    expect(await handshake(PARTNER)).toBe("open");

    const partner = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { origin: PARTNER, cookie: cookie() } });
        }
      },
      retryAttempts: 0,
    });
    const viaCookie = await partner
      .iterate({ query: "subscription { userBalanceChanges { balance } }" })
      .next()
      .then(
        (result) => (result.value as { errors?: { message: string }[] } | undefined)?.errors?.[0]?.message ?? "delivered",
        (errors: { message: string }[]) => errors[0]?.message,
      );
    expect(viaCookie).toBe("Authentication required");
    await partner.dispose();
  });
});

describe("2. request size", () => {
  /** A POST written chunk by chunk; resolves with the answer as soon as it arrives, then hangs up. */
  function rawPost(path: string, headers: Record<string, string>, chunks: Buffer[]) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${app.url}${path}`);
      let answered = false;
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => {
          answered = true;
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      // Writing on after the server has answered and closed is expected here.
      req.on("error", (error) => {
        if (!answered && !["EPIPE", "ECONNRESET"].includes((error as NodeJS.ErrnoException).code ?? "")) reject(error);
      });
      (async () => {
        for (const chunk of chunks) {
          if (req.destroyed || answered) return;
          if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
        }
      })().catch(() => {});
    });
  }

  it("answers 413 at once from Content-Length, before reading a byte of a 200 MB body, on every transport", async () => {
    for (const [path, limit] of [
      ["/api/contact", "1 MB"],
      ["/trpc/public.contact", "1 MB"],
      ["/graphql", "256 KB"],
    ] as const) {
      const started = Date.now();
      const res = await rawPost(path, { "content-type": "application/json", "content-length": "200000000" }, [Buffer.from("{")]);
      expect(res.status, path).toBe(413);
      expect(res.body, path).toContain(`larger than ${limit}`);
      expect(Date.now() - started, path).toBeLessThan(2_000);
    }
  });

  it("counts a chunked body while it streams and stops it past the limit", async () => {
    const chunk = Buffer.alloc(256 * 1024, "a");
    const res = await rawPost("/graphql", { "content-type": "application/json", "transfer-encoding": "chunked" }, Array(80).fill(chunk));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    // The service answered the health check meanwhile.
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });

  /** A POST sent piece by piece, each written only after the one before has gone out. */
  function pacedPost(path: string, headers: Record<string, string>, pieces: Buffer[]) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${app.url}${path}`);
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      (async () => {
        for (const piece of pieces) {
          await new Promise<void>((done) => req.write(piece, () => done()));
          // Apart in time, so the server's stream receives them as separate chunks.
          await new Promise((r) => setTimeout(r, 30));
        }
        req.end();
      })().catch(reject);
    });
  }

  it("reads a JSON body that arrives in pieces split inside a character", async () => {
    const body = Buffer.from(JSON.stringify({ brandName: "Café ☕ Crème" }));
    const cut = body.indexOf(Buffer.from("☕")) + 1; // inside the three bytes of ☕
    const res = await pacedPost(
      "/api/user/brand",
      { "content-type": "application/json", "content-length": String(body.length), cookie: cookie() },
      [body.subarray(0, cut), body.subarray(cut, cut + 1), body.subarray(cut + 1)],
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.brandName).toBe("Café ☕ Crème");
  });

  it("closes a GraphQL socket whose message is larger than a document may be over HTTP (1009), and serves the next", async () => {
    const open = async () => {
      const socket = new WebSocket(`${app.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
      const messages: { type: string }[] = [];
      socket.on("message", (data) => messages.push(JSON.parse(String(data))));
      await new Promise((resolve) => socket.once("open", resolve));
      socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${victim.jwt}` } }));
      await expect.poll(() => messages.map((m) => m.type), { timeout: 10_000 }).toContain("connection_ack");
      return { socket, messages };
    };
    const big = await open();
    const closed = new Promise<number>((resolve) => big.socket.once("close", resolve));
    const query = "{ userProfile { id } }";
    const padded = (bytes: number) => ({ query, extensions: { pad: "x".repeat(bytes) } });
    big.socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: padded(300 * 1024) }));
    expect(await closed).toBe(1009);
    // A message within the limit, on a new socket, is answered.
    const next = await open();
    next.socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: padded(200 * 1024) }));
    await expect.poll(() => next.messages.map((m) => m.type), { timeout: 10_000 }).toContain("complete");
    expect(next.messages.find((m) => m.type === "next")).toEqual({
      id: "1",
      type: "next",
      payload: { data: { userProfile: { id: victim.id } } },
    });
    next.socket.close();
  });

  it("stops a GraphQL document at the token limit before any cost analysis", async () => {
    const query = `{ ${Array.from({ length: 2100 }, () => "__typename").join(" ")} }`;
    const res = await graphql(app.url, query, {}, victim.jwt);
    expect(res.body.errors?.[0]?.message).toMatch(/token/i);
  });

  it("suggests no field names, and answers introspection in production only to signed-in callers", async () => {
    const typo = await graphql(app.url, "{ adminUserz { total } }");
    expect(JSON.stringify(typo.body)).not.toMatch(/Did you mean/i);
    const anonymous = await graphql(app.url, "{ __schema { queryType { name } } }");
    expect(anonymous.body.errors?.[0]?.message).toMatch(/introspection/i);
    const signedIn = await graphql(app.url, "{ __schema { queryType { name } } }", {}, victim.jwt);
    expect(signedIn.body).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
    // GraphiQL is off in production.
    const page = await fetch(`${app.url}/graphql`, { headers: { accept: "text/html" } });
    expect(await page.text()).not.toMatch(/graphiql/i);
  });
});

describe("5. odd but harmless input is a 400 naming the field, never a 500", () => {
  const rest = () => new RestClient(app.url, { bearer: victim.jwt });

  it("a NUL character in any string, on REST, tRPC and GraphQL", async () => {
    const contact = await new RestClient(app.url).post("/contact", { email: "a@example.com", message: "hi\u0000" });
    expect(contact.status).toBe(400);
    expect(contact.body.error).toBe("message must not contain a NUL character (\\u0000)");
    const brand = await rest().post("/user/brand", { brandName: "Acme\u0000" });
    expect(brand.status).toBe(400);
    expect(brand.body.error).toMatch(/^brandName must not contain a NUL/);
    const viaTrpc = await trpcClient(app.url)
      .public.contact.mutate({ email: "a@example.com", message: "hi\u0000" })
      .catch((e: TRPCClientError<never>) => e);
    expect((viaTrpc as TRPCClientError<never>).data).toMatchObject({ code: "BAD_REQUEST", fields: [{ field: "message" }] });
    const viaGql = await graphql(app.url, 'mutation($m: String!) { publicContact(email: "a@example.com", message: $m) { id } }', {
      m: "hi\u0000",
    });
    expect(viaGql.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_REQUEST", fields: [{ field: "message" }] });
  });

  it("a lone surrogate in a concept", async () => {
    const body = '{"type":"cinematic","concept":"late-night \\ud800 coffee"}';
    const res = await rest().call("POST", "/workflow/estimate", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("concept contains invalid Unicode (an unpaired surrogate)");
    const viaGql = await graphql(
      app.url,
      "query($c: String) { workflowEstimate(type: cinematic, concept: $c) { cost } }",
      { c: "a\ud800" },
      victim.jwt,
    );
    expect(viaGql.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });

  it("a job id holding %00, in the query and in the path", async () => {
    const query = await rest().get("/workflow/job?jobId=%00");
    expect(query.status).toBe(400);
    expect(query.body.error).toMatch(/^jobId must not contain a NUL/);
    const path = await fetch(`${app.url}/api/media/%00/ad.mp4`, { headers: { authorization: `Bearer ${victim.jwt}` } });
    expect(path.status).toBe(400);
  });

  it("statistics dates out of any sensible range", async () => {
    const res = await rest().get("/user/stats?startDate=0001-01-01&endDate=9999-12-31");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/startDate must be between 2000-01-01 and 2100-12-31/);
  });

  it("undecodable percent-encoding in a page path", async () => {
    const res = await fetch(`${app.url}/%ZZ`);
    expect(res.status).toBe(400);
  });

  it("a foreign or anonymous tRPC job stream is NOT_FOUND or UNAUTHORIZED, not an internal error", async () => {
    const launched = await rest().post("/workflow", { type: "cinematic", concept: "stream owner" });
    expect(launched.status).toBe(200);
    const other = await signUp(app, "other");
    const read = async (headers: Record<string, string>) => {
      const res = await fetch(
        `${app.url}/trpc/workflow.stream?input=${encodeURIComponent(JSON.stringify({ jobId: launched.body.data.jobId }))}`,
        {
          headers: { accept: "text/event-stream", ...headers },
          signal: AbortSignal.timeout(5_000),
        },
      );
      const reader = res.body!.getReader();
      let text = "";
      while (!/event: serialized-error[\s\S]*\n\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      return text;
    };
    expect(await read({ authorization: `Bearer ${other.jwt}` })).toMatch(/"code":"NOT_FOUND"|NOT_FOUND/);
    expect(await read({})).toMatch(/UNAUTHORIZED/);
  });

  it("oversized request headers get a 431 with the JSON envelope", async () => {
    const res = await new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
      const url = new URL(app.url);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: "/api/health", headers: { "x-big": "a".repeat(64 * 1024) } },
        (r) => {
          let body = "";
          r.on("data", (c) => {
            body += c;
          });
          r.on("end", () => resolve({ status: r.statusCode ?? 0, body, type: r.headers["content-type"] }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(res.status).toBe(431);
    expect(res.type).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toEqual({ success: false, error: "Request headers are too large" });
  });
});

describe("6. smaller rules", () => {
  it("every kind of answer says nosniff and carries the request's id: REST data and errors, tRPC, GraphQL, the SPA", async () => {
    const answers = await Promise.all([
      fetch(`${app.url}/api/user/profile`, { headers: { authorization: `Bearer ${victim.jwt}` } }),
      fetch(`${app.url}/api/user/profile`),
      fetch(`${app.url}/api/nowhere`),
      fetch(`${app.url}/api/contact`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      fetch(`${app.url}/trpc/user.profile`, { headers: { authorization: `Bearer ${victim.jwt}` } }),
      fetch(`${app.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{ __typename }"}' }),
      fetch(`${app.url}/`),
    ]);
    // The SPA answers 503 with a hint before `pnpm build` has made it (the test run does not build it).
    expect(answers.map((res) => res.status).slice(0, 6)).toEqual([200, 401, 404, 400, 200, 200]);
    expect([200, 503]).toContain(answers[6]!.status);
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
      expect(res.headers.get("x-request-id"), res.url).toMatch(/.+/);
    }
    const profile = await answers[0]!.json();
    expect(profile).toMatchObject({ success: true, data: { id: victim.id } });
    expect(answers[0]!.headers.get("content-type")).toBe("application/json");
    expect(await answers[3]!.json()).toMatchObject({ success: false, error: "Request body is not valid JSON" });
  });

  it("an API key works only while the plan allows keys, and not after a suspension", async () => {
    const admin = await adminClient(app);
    const owner = await signUp(app, "keys");
    expect((await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
    const key = (await owner.client.post("/user/api-key")).body.data.apiKey as string;
    const withKey = new RestClient(app.url, { bearer: key });
    expect((await withKey.get("/user/credits")).status).toBe(200);

    await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_pro" });
    expect((await withKey.get("/user/credits")).status).toBe(401);
    await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_agency" });
    expect((await withKey.get("/user/credits")).status).toBe(200);

    await admin.patch(`/admin/users/${owner.id}/status`, { status: "suspended" });
    await admin.patch(`/admin/users/${owner.id}/status`, { status: "active" });
    expect((await withKey.get("/user/credits")).status).toBe(401);
  });

  it("studio defaults refuse a callback URL on a private address, as a launch does", async () => {
    const res = await new RestClient(app.url, { bearer: victim.jwt }).post("/workflow/prefs", {
      callbackUrl: "http://127.0.0.1:8080/hook",
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^callbackUrl /);
    expect((await new RestClient(app.url, { bearer: victim.jwt }).get("/workflow/prefs")).body.data.callbackUrl).toBeUndefined();
  });

  it("an estimate with another account's brand is a 404, as a launch is", async () => {
    const owner = await signUp(app, "brand-owner");
    const brand = (await owner.client.post("/user/brand", { brandName: "Theirs" })).body.data.id as string;
    const res = await new RestClient(app.url, { bearer: victim.jwt }).post("/workflow/estimate", { type: "cinematic", brand });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Brand not found");
  });

  it("one Idempotency-Key replays the same launch on REST, GraphQL and tRPC", async () => {
    const buyer = await signUp(app, "idem");
    const key = `idem-${Date.now()}`;
    const first = await new RestClient(app.url, { bearer: buyer.jwt }).call(
      "POST",
      "/workflow",
      { type: "cinematic", concept: "once" },
      {
        "idempotency-key": key,
      },
    );
    expect(first.status).toBe(200);
    const viaGql = await graphql(
      app.url,
      `mutation($k: String) { workflowLaunch(type: cinematic, concept: "once", idempotencyKey: $k) { jobId replayed } }`,
      { k: key },
      buyer.jwt,
    );
    expect(viaGql.body.data?.workflowLaunch).toEqual({ jobId: first.body.data.jobId, replayed: true });
    const viaTrpc = await trpcClient(app.url, buyer.jwt).workflow.launch.mutate({
      type: "cinematic",
      concept: "once",
      idempotencyKey: key,
    });
    expect(viaTrpc).toMatchObject({ jobId: first.body.data.jobId, replayed: true });
    expect((await new RestClient(app.url, { bearer: buyer.jwt }).get("/user/credits")).body.data.balance).toBe(
      10 - first.body.data.creditsUsed,
    );
  });
});
