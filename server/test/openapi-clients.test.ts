// The served OpenAPI document read by tools nobody here wrote, offline: Redocly's recommended
// rules find nothing; openapi-typescript generates a client whose types a small program compiles against
// (named schemas, the reshaped launch answer, downloads parsed as files); and openapi-fetch calls every
// download of the running service without throwing, each 200 in a content type the document names.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "./support/rest-routes.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);

/** A part of the document with its `$ref` (to a shared component such as an error answer) followed. */
function deref(node: any): any {
  if (!node?.$ref) return node;
  return deref(
    (node.$ref as string)
      .slice(2)
      .split("/")
      .reduce((at: any, key: string) => at?.[key], doc),
  );
}
const SERVER = new URL("..", import.meta.url).pathname;
// Under server/node_modules, so the program below resolves openapi-fetch as the server does.
const CACHE = join(SERVER, "node_modules", ".cache");

let app: TestApp;
let user: Account;
let doc: any;
let scratch: string;
beforeAll(async () => {
  app = await startTestApp({ META_VERIFY_TOKEN: "verify-me" });
  user = await signUp(app, "openapi-clients");
  doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
  mkdirSync(CACHE, { recursive: true });
  scratch = mkdtempSync(join(CACHE, "openapi-clients-"));
  writeFileSync(join(scratch, "openapi.json"), JSON.stringify(doc));
}, 60_000);
afterAll(async () => {
  await app?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("openapi-fetch against the running service", () => {
  const client = () => createClient<any>({ baseUrl: `${app.url}/api`, headers: { authorization: `Bearer ${user.jwt}` } }) as any;

  it("downloads the invoice PDF, the CSV and ZIP exports and the meta challenge as files", async () => {
    const purchase = await user.client.post("/user/credits/purchase", { packId: "pack_10" });
    expect((await user.client.post(`/checkout/sandbox/${purchase.body.data.orderId}`, {})).status).toBe(200);

    const pdf = await client().POST("/invoice/generate", { body: {}, parseAs: "arrayBuffer" });
    expect(pdf.response.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(pdf.data).subarray(0, 5).toString()).toBe("%PDF-");

    const csv = await client().GET("/user/projects/export", { parseAs: "text" });
    expect(csv.response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.data.split("\n")[0]).toMatch(/id/);

    const zip = await client().GET("/user/projects/export", { params: { query: { format: "zip" } }, parseAs: "arrayBuffer" });
    expect(zip.response.headers.get("content-type")).toBe("application/zip");
    expect(Buffer.from(zip.data).subarray(0, 2).toString()).toBe("PK");

    const challenge = await client().GET("/webhook/meta", {
      params: { query: { "hub.mode": "subscribe", "hub.verify_token": "verify-me", "hub.challenge": "1158201444" } },
      parseAs: "text",
    });
    expect([challenge.response.status, challenge.data]).toEqual([200, "1158201444"]);
  });

  it("calls every download without throwing; each answer is in a content type the document names", async () => {
    const downloads = restRoutes.filter((r) => r.source.kind === "download");
    expect(downloads.length).toBeGreaterThanOrEqual(9);
    for (const route of downloads) {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name) => (name === "voiceProvider" ? "elevenlabs" : `missing-${name}`));
      const method = route.method as "GET" | "POST";
      const answer = await client()[method](path, { ...(method === "POST" ? { body: {} } : {}), parseAs: "arrayBuffer" });
      const type = (answer.response.headers.get("content-type") ?? "").split(";")[0];
      const documented = Object.keys(
        deref(doc.paths[route.path][method.toLowerCase()].responses[String(answer.response.status)])?.content ?? {},
      );
      expect(documented, `${method} ${route.path} answered ${answer.response.status} ${type}`).toContain(type);
    }
  });
});

describe("Redocly CLI", () => {
  it("finds no error and no warning with its recommended rules", { timeout: 120_000 }, async () => {
    const bin = join(SERVER, "node_modules", ".bin", "redocly");
    const result = await run(bin, ["lint", "openapi.json", "--extends=recommended", "--format=json"], {
      cwd: scratch,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? "" }));
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
    const problems = (report.problems ?? []).map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer})`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});

describe("openapi-typescript", () => {
  it("generates types a small openapi-fetch program compiles against", { timeout: 120_000 }, async () => {
    writeFileSync(join(scratch, "api.d.ts"), astToString(await openapiTS(doc)));
    writeFileSync(
      join(scratch, "program.ts"),
      `import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type Project = components["schemas"]["Project"];
type User = components["schemas"]["User"];
const client = createClient<paths>({ baseUrl: "http://127.0.0.1/api" });

export async function tour(): Promise<string[]> {
  const profile = await client.GET("/user/profile");
  const me: User | undefined = profile.data?.data;
  const projects = await client.GET("/user/projects");
  const first: Project | undefined = projects.data?.data[0];
  const launch = await client.POST("/workflow", { body: { type: "staticad", concept: "Cold brew" } });
  // The launch answer's cost and message are beside data, as the service sends them.
  const cost: number | undefined = launch.data?.cost;
  const jobId: string | undefined = launch.data?.data.jobId;
  const pdf = await client.POST("/invoice/generate", { body: {}, parseAs: "blob" });
  const csv = await client.GET("/user/projects/export", { params: { query: { format: "csv" } }, parseAs: "text" });
  const voice = await client.GET("/voice/{voiceProvider}", { params: { path: { voiceProvider: "elevenlabs" } } });
  return [me?.email ?? "", first?.id ?? "", String(cost), jobId ?? "", String(pdf.data?.size), csv.data ?? "", String(voice.response.status)];
}
`,
    );
    const program = ts.createProgram([join(scratch, "program.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.split("/").pop()}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(errors).toEqual([]);
  });
});
