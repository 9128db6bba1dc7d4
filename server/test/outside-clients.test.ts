// docs/clients.md's examples, word for word: each compiles against what an outside client has (types that
// openapi-typescript generates from the served document; the service's AppRouter with @trpc/client at the
// exact version the page names) and runs against the service. Also: a typed client calls the four
// operations whose body SPEC leaves out without inventing one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const SERVER = new URL("..", import.meta.url).pathname;
const DOC = readFileSync(new URL("../../docs/clients.md", import.meta.url), "utf8");
// Under server/node_modules, so the examples resolve openapi-fetch and @trpc/client as the server does.
const CACHE = join(SERVER, "node_modules", ".cache");

/** The example the page marks `// clients.md: <name>`. */
function example(name: string): string {
  const block = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.startsWith(`// clients.md: ${name}\n`));
  if (!block) throw new Error(`docs/clients.md has no example ${name}`);
  return block;
}

let app: TestApp;
let account: Account;
let apiKey: string;
let scratch: string;
beforeAll(async () => {
  app = await startTestApp();
  account = await signUp(app, "outside-client");
  await app.services.prisma.user.update({ where: { id: account.id }, data: { currentPlanId: "subscription_agency" } });
  apiKey = (await account.client.post("/user/api-key")).body.data.apiKey;
  mkdirSync(CACHE, { recursive: true });
  scratch = mkdtempSync(join(CACHE, "outside-clients-"));
  const doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
  writeFileSync(join(scratch, "api.d.ts"), astToString(await openapiTS(doc)));
  writeFileSync(join(scratch, "download-invoice.ts"), example("download-invoice.ts"));
}, 120_000);
afterAll(async () => {
  await app?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Type errors of `files` (in the scratch folder). */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(
    files.map((file) => join(scratch, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: [],
      skipLibCheck: true,
    },
  );
  return files.flatMap((file) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(join(scratch, file)))
      .map((d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
  );
}

/** The example as the JavaScript a client runs (types erased), imported from the scratch folder. */
async function load(name: string): Promise<any> {
  const js = ts.transpileModule(example(name), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(scratch, name.replace(/\.ts$/, ".mjs"));
  writeFileSync(file, js);
  return import(pathToFileURL(file).href);
}

describe("docs/clients.md", () => {
  it("names the exact @trpc/client version, the one the service's own packages pin and install", () => {
    expect(DOC).toContain("npm i @trpc/client@11.22.1 @trpc/server@11.22.1");
    const installed = JSON.parse(readFileSync(join(SERVER, "node_modules", "@trpc", "client", "package.json"), "utf8")).version;
    const pinned = JSON.parse(readFileSync(join(SERVER, "package.json"), "utf8"));
    expect([installed, pinned.dependencies["@trpc/server"]]).toEqual(["11.22.1", "11.22.1"]);
  });

  it("its openapi-fetch example compiles, and so does a typed client calling the four body-less operations without a body", {
    timeout: 120_000,
  }, () => {
    writeFileSync(
      join(scratch, "bodiless.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./api";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1/api" });
export async function bodiless(): Promise<unknown[]> {
  return Promise.all([
    client.POST("/user/api-key"),
    client.POST("/user/webhook"),
    client.DELETE("/notifications/subscribe"),
    client.POST("/invoice/generate", { parseAs: "arrayBuffer" }),
  ]);
}
`,
    );
    expect(typeErrors(["download-invoice.ts", "bodiless.ts"])).toEqual([]);
  });

  it("its openapi-fetch example downloads the invoice PDF with parseAs, and says what is wrong when there is none", {
    timeout: 60_000,
  }, async () => {
    const { latestInvoice } = await load("download-invoice.ts");
    expect(await latestInvoice(app.url, apiKey)).toMatch(/^Nothing to invoice yet/);
    const order = await account.client.post("/user/credits/purchase", { packId: "pack_10" });
    expect((await account.client.post(`/checkout/sandbox/${order.body.data.orderId}`)).status).toBe(200);
    const pdf: Uint8Array = await latestInvoice(app.url, apiKey);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
  });

  it("its tRPC example (compiled against AppRouter by pnpm typecheck, as support/clients-md-trpc-client.ts) reads the account in one batched request", async () => {
    // The page shows the file word for word, AppRouter's import apart (compiling the server's router type
    // here would take most of a minute; `pnpm typecheck` compiles the file with the rest of the tests).
    const file = readFileSync(new URL("./support/clients-md-trpc-client.ts", import.meta.url), "utf8");
    const body = (code: string) =>
      code
        .split("\n")
        .filter((line) => !line.startsWith("//") && !line.includes("AppRouter } from"))
        .join("\n");
    expect(body(file)).toBe(body(example("trpc-client.ts")));
    const { whoAndBalance } = await import("./support/clients-md-trpc-client.ts");
    const balance = (await account.client.get("/user/credits")).body.data.balance;
    expect(await whoAndBalance(app.url, apiKey)).toEqual({ email: account.email, balance });
  });
});
