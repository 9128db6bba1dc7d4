// CONTRACT OpenAPI: /api/openapi.json documents every REST route (and only those), and /api/docs renders it
// from local assets.
import { restRoutes } from "./support/rest-routes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await startTestApp();
  const response = await fetch(`${app.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  doc = await response.json();
});
afterAll(() => app?.close());

const METHODS = ["get", "head", "post", "put", "patch", "delete"];

/** A part of the document with its `$ref` (to a shared component) followed, as a client reads it. */
function deref(node: any): any {
  if (!node?.$ref) return node;
  return deref(
    (node.$ref as string)
      .slice(2)
      .split("/")
      .reduce((at: any, key: string) => at[key], doc),
  );
}

function documentedOperations(): { path: string; method: string; operation: any }[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every route of the table, and HEAD beside the GET routes that document it (SPEC: `GET, HEAD /health`). */
const documentedRoutes = () =>
  restRoutes.flatMap((r) => [`${r.method} ${r.path}`, ...(r.source.rest.documentHead ? [`HEAD ${r.path}`] : [])]);

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1.0 document of interface version 1.0.0 served under /api", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: expect.any(String), version: "1.0.0" });
    expect(doc.servers).toEqual([{ url: "/api" }]);
    expect(doc.components.securitySchemes).toEqual({
      sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
  });

  it("documents every route of the REST table with its method and a unique operationId", () => {
    expect(restRoutes.length).toBeGreaterThan(0);
    for (const route of restRoutes) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operation);
      expect(operation.responses["200"], `${route.method} ${route.path}`).toBeDefined();
      if (route.body)
        expect(deref(operation.requestBody)?.content?.["application/json"]?.schema, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.security).toEqual(route.auth === "public" ? [] : [{ sessionCookie: [] }, { bearer: [] }]);
    }
    const ids = documentedOperations().map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // Nothing is documented that the table does not route.
    expect(
      documentedOperations()
        .map((o) => `${o.method.toUpperCase()} ${o.path}`)
        .sort(),
    ).toEqual(documentedRoutes().sort());
  });

  it("documents request bodies from the validating schemas", () => {
    const signup = deref(deref(doc.paths["/auth/signup"].post.requestBody).content["application/json"].schema);
    expect(signup.required).toEqual(["email", "password"]);
    expect(signup.properties.password).toMatchObject({ type: "string", minLength: 8, maxLength: 128 });
    const patch = doc.paths["/admin/users/{id}"].patch;
    expect(Object.keys(deref(deref(patch.requestBody).content["application/json"].schema).properties).sort()).toEqual([
      "current_plan_id",
      "provider_preference",
      "role",
      "status",
      "trial_ends_at",
    ]);
    expect(patch.parameters).toEqual([{ name: "id", in: "path", required: true, schema: { type: "string", minLength: 1 } }]);
    const list = doc.paths["/admin/users"].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(list).toEqual(["query:page", "query:pageSize", "query:search"]);
  });

  it("documents the rate-limit and request-id headers and the error envelope", () => {
    const login = doc.paths["/auth/login"].post;
    expect(Object.keys(login.responses["200"].headers)).toEqual([
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "X-Request-Id",
    ]);
    expect(Object.keys(login.responses).sort()).toEqual(["200", "400", "401", "403", "429", "500"]);
    expect(deref(deref(login.responses["401"]).content["application/json"].schema)).toEqual({
      type: "object",
      required: ["success", "error"],
      properties: { success: { const: false }, error: { type: "string" }, requestId: expect.objectContaining({ type: "string" }) },
    });
  });

  it("documents the bodies SPEC has as none or optional as bodies a caller may leave out", () => {
    const body = (path: string, method: string) => deref(doc.paths[path][method].requestBody);
    for (const [path, method] of [
      ["/user/api-key", "post"],
      ["/user/webhook", "post"],
      ["/notifications/subscribe", "delete"],
      ["/invoice/generate", "post"],
    ] as const) {
      const documented = body(path, method);
      expect(documented.required, `${method} ${path}`).toBe(false);
      expect(deref(documented.content["application/json"].schema).required ?? [], `${method} ${path}`).toEqual([]);
    }
    // Its default, so a caller knows what leaving the body out means.
    expect(deref(deref(body("/user/api-key", "post").content["application/json"].schema).properties.scope).default).toBe("full");
    // A body with a field to fill stays required.
    expect(body("/notifications/subscribe", "post").required).toBe(true);
    expect(body("/workflow", "post").required).toBe(true);
    // Nothing to invoice is the caller's error; a named invoice that is not theirs is not found.
    expect(deref(doc.paths["/invoice/generate"].post.responses["400"]).description).toMatch(/Nothing to invoice/);
  });

  it("says which answers carry the rate-limit headers, and that an unknown path or method counts against nothing", () => {
    expect(doc.info.description).toMatch(/refusals \(401, 403, 429\) included/);
    expect(doc.info.description).toMatch(/names no operation \(404\) or a method the path does not take \(405\) counts against no limit/);
    for (const { operation } of documentedOperations().filter(({ method }) => method !== "head")) {
      for (const status of ["401", "403"]) {
        const answer = operation.responses[status] && deref(operation.responses[status]);
        if (answer) expect(Object.keys(answer.headers), `${operation.operationId} ${status}`).toContain("X-RateLimit-Remaining");
      }
    }
  });

  it("writes each shared part once: headers, error answers and main request bodies are named components", () => {
    const text = JSON.stringify(doc);
    // 883 KB when every operation wrote out its headers, error envelopes and bodies.
    expect(Buffer.byteLength(text)).toBeLessThan(450_000);
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "X-Request-Id",
    ]);
    const launch = doc.paths["/workflow"].post;
    expect(launch.responses["401"]).toEqual({ $ref: "#/components/responses/AuthenticationRequired" });
    expect(launch.responses["404"].$ref).toMatch(/^#\/components\/responses\/NotFound_/);
    // A body with a default the caller may leave out is a requestBodies component (a client reads it as a request's).
    const body = (path: string, method: string) => doc.paths[path][method].requestBody;
    expect(body("/workflow", "post")).toEqual({ $ref: "#/components/requestBodies/WorkflowRequest" });
    expect(body("/workflow/estimate", "post")).toEqual({ $ref: "#/components/requestBodies/WorkflowRequest" });
    expect(body("/auth/signup", "post")).toEqual({ $ref: "#/components/requestBodies/AuthCredentials" });
    expect(body("/auth/login", "post")).toEqual(body("/auth/signup", "post"));
    expect(body("/user/brands", "post")).toEqual({ $ref: "#/components/requestBodies/BrandCreate" });
    // The header and path fields are parameters, not in the body.
    const launchBody = deref(body("/workflow", "post")).content["application/json"].schema;
    expect(launchBody.required).toEqual(["type"]);
    expect(Object.keys(launchBody.properties)).not.toContain("idempotencyKey");
    expect(Object.keys(deref(body("/user/brands/{id}", "patch")).content["application/json"].schema.properties)).not.toContain("id");
    // Every reference leads somewhere.
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) expect(deref({ $ref: ref }), ref).toBeDefined();
  });

  it("every documented operation is served: none answers 404 or 405 on the running server", async () => {
    const operations = documentedOperations();
    expect(operations.length).toBe(documentedRoutes().length);
    for (const { path, method } of operations) {
      const url = `${app.url}/api${path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000")}`;
      const hasBody = method !== "get" && method !== "head";
      const response = await fetch(url, {
        method: method.toUpperCase(),
        headers: hasBody ? { "content-type": "application/json" } : {},
        body: hasBody ? "{}" : undefined,
      });
      await response.arrayBuffer();
      // Anonymous calls: public routes answer 200 or 400, the others 401; never "no such route".
      expect([404, 405], `${method.toUpperCase()} ${path} answered ${response.status}`).not.toContain(response.status);
    }
  });
});

describe("GET /api/docs", () => {
  it("serves HTML that loads Swagger UI from local assets, each of which answers 200", async () => {
    const response = await fetch(`${app.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset, "assets are served by this service, not a CDN").toMatch(/^\/api\/docs\/assets\//);
      const res = await fetch(`${app.url}${asset}`);
      expect(res.status, asset).toBe(200);
      const body = await res.text();
      expect(body.length, asset).toBeGreaterThan(0);
      if (asset.endsWith(".js")) expect(res.headers.get("content-type")).toMatch(/javascript/);
      if (asset.endsWith(".css")) expect(res.headers.get("content-type")).toMatch(/^text\/css/);
    }
    const init = await (await fetch(`${app.url}/api/docs/assets/init.js`)).text();
    expect(init).toContain("/api/openapi.json");
    // Its own icon, so the browser does not ask for a missing /favicon.ico.
    const icon = html.match(/<link rel="icon"[^>]*href="([^"]+)"/)?.[1];
    expect(icon).toBe("/api/docs/assets/favicon-32x32.png");
    const iconRes = await fetch(`${app.url}${icon}`);
    expect([iconRes.status, iconRes.headers.get("content-type")]).toEqual([200, "image/png"]);
  });

  it("documents a 400's `fields`, keyed for machines beside the message for people", () => {
    const fields = deref(deref(doc.paths["/auth/login"].post.responses["400"]).content["application/json"].schema).properties.fields;
    expect(fields).toMatchObject({ type: "array", items: { required: ["field", "message"] } });
  });

  it("does not serve other files from the asset folder", async () => {
    for (const name of ["package.json", "..%2F..%2Fpackage.json", "index.html"]) {
      const res = await fetch(`${app.url}/api/docs/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "Not found", requestId: res.headers.get("x-request-id") });
    }
  });
});
