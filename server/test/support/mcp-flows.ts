// What an agent does over MCP, run the same over Streamable HTTP and stdio: list the tools (every non-admin
// operation, with its schemas), launch with the user's consent to the price, follow the job by progress
// notifications and its resource, download the rendered video, and the refusals (no consent, a wrong price,
// another account's job, an admin tool, an analytics key that tries to spend).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/operations/catalogue.ts";
import { notAToolBecause, toolNameOf } from "../../src/mcp/tool-list.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./accounts.ts";
import { startTestApp, type TestApp } from "./harness.ts";
import { textOf } from "./mcp.ts";

export const LAUNCH = { type: "painpoint", concept: "Backpacks that never tear: waterproof, ten-year warranty", formats: ["1:1"] };

export interface McpFixture {
  app: TestApp;
  owner: Account;
  /** The owner's full API key and read-only (analytics) key. */
  fullKey: string;
  analyticsKey: string;
  stranger: Account;
}

export function useMcpFixture(): McpFixture {
  const fixture = {} as McpFixture;
  beforeAll(async () => {
    fixture.app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2", SIGNUP_CREDITS: "20" });
    fixture.owner = await signUp(fixture.app, "mcp-owner");
    fixture.stranger = await signUp(fixture.app, "mcp-stranger");
    const admin = await adminClient(fixture.app);
    expect((await admin.patch(`/admin/users/${fixture.owner.id}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
    fixture.fullKey = (await fixture.owner.client.post("/user/api-key")).body.data.apiKey;
    fixture.analyticsKey = (await fixture.owner.client.post("/user/api-key", { scope: "analytics" })).body.data.apiKey;
  });
  afterAll(async () => {
    await fixture.app?.close();
  });
  return fixture;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const balanceOf = async (client: Client) => (await call(client, "user_credits")).structuredContent as { balance: number };

export function mcpFlows(label: string, fixture: McpFixture, connect: (url: string, credential: string) => Promise<Client>): void {
  describe(`MCP over ${label}`, () => {
    const clients: Client[] = [];
    const open = async (credential: string) => {
      const client = await connect(fixture.app.url, credential);
      clients.push(client);
      return client;
    };
    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => {});
    });

    it("lists every non-admin catalogue operation as a tool with its input and output schemas", async () => {
      const client = await open(fixture.fullKey);
      const { tools } = await client.listTools();
      const expected = operations.filter((op) => op.access !== "admin" && notAToolBecause(op) === null).map((op) => toolNameOf(op.name));
      expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const op of operations.filter((o) => o.access !== "admin" && notAToolBecause(o) === null)) {
        const tool = byName.get(toolNameOf(op.name))!;
        expect(tool.inputSchema.type, op.name).toBe("object");
        expect(tool.description, op.name).toContain(op.summary.slice(0, 30));
        expect(Boolean(tool.outputSchema), op.name).toBe(op.output !== null);
      }
      const launch = byName.get("workflow_launch")!;
      expect(Object.keys(launch.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["type", "concept", "formats", "confirmCost"]),
      );
      expect(launch.inputSchema.required).toEqual(expect.arrayContaining(["type", "confirmCost"]));
      expect(launch.description).toMatch(/SPENDS CREDITS.*painpoint 1/);
      expect(launch.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(byName.get("user_profile")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.get("brand_delete")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(Object.keys(byName.get("user_profile")!.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(["id", "email"]));
    });

    it("shows admin tools only to admins, and no write tool to an analytics key", async () => {
      const readOnly = await open(fixture.analyticsKey);
      const names = (await readOnly.listTools()).tools.map((t) => t.name);
      const writes = operations.filter((op) => op.kind === "mutation").map((op) => toolNameOf(op.name));
      expect(names).toContain("user_profile");
      expect(names.filter((n) => writes.includes(n))).toEqual([]);
      expect(names.filter((n) => n.startsWith("admin_"))).toEqual([]);
    });

    it("launches only with confirmCost equal to the price, then streams progress, and serves the job and its video as resources", async () => {
      const client = await open(fixture.fullKey);
      const before = (await balanceOf(client)).balance;
      const estimate = (await call(client, "workflow_estimate", LAUNCH)).structuredContent as { cost: number };
      expect(estimate.cost).toBe(1);

      const unconfirmed = await call(client, "workflow_launch", LAUNCH);
      expect(unconfirmed.isError).toBe(true);
      expect(textOf(unconfirmed)).toContain("This launch costs 1 credits: ask the user, then call again with confirmCost: 1");
      const wrong = await call(client, "workflow_launch", { ...LAUNCH, confirmCost: 3 });
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toContain("confirmCost is 3 but this launch costs 1 credits");
      expect((await balanceOf(client)).balance).toBe(before);

      const launched = await call(client, "workflow_launch", { ...LAUNCH, confirmCost: 1 });
      expect(launched.isError ?? false, textOf(launched)).toBe(false);
      const { jobId, status } = launched.structuredContent as { jobId: string; status: string };
      expect(status).toBe("queued");
      expect(launched.content).toContainEqual(expect.objectContaining({ type: "resource_link", uri: `adgen://jobs/${jobId}` }));
      expect((await balanceOf(client)).balance).toBe(before - 1);

      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      await client.subscribeResource({ uri: `adgen://jobs/${jobId}` });

      const progress: { progress: number; total?: number; message?: string }[] = [];
      const followed = (await client.callTool({ name: "workflow_stream", arguments: { jobId, waitSeconds: 120 } }, undefined, {
        onprogress: (p) => void progress.push(p),
        timeout: 130_000,
      })) as CallToolResult;
      const { events, ended } = followed.structuredContent as { events: { status: string; progress: number }[]; ended: boolean };
      expect(ended).toBe(true);
      expect(events.at(-1)).toMatchObject({ status: "completed", progress: 100 });
      expect(progress.length).toBeGreaterThanOrEqual(2);
      // Percentages of the job, rising (the last one may come after the answer and be dropped by the client).
      expect(progress.every((p, i) => p.total === 100 && (i === 0 || p.progress >= progress[i - 1]!.progress))).toBe(true);
      expect(progress.some((p) => p.progress > 0 && p.progress <= 100)).toBe(true);
      await expect.poll(() => updated.includes(`adgen://jobs/${jobId}`)).toBe(true);

      const read = await client.readResource({ uri: `adgen://jobs/${jobId}` });
      const job = JSON.parse((read.contents[0] as { text: string }).text) as { status: string; files: { uri: string; mimeType: string }[] };
      expect(job.status).toBe("completed");
      const video = job.files.find((f) => f.mimeType === "video/mp4");
      expect(video, JSON.stringify(job.files)).toBeDefined();
      const file = await client.readResource({ uri: video!.uri });
      const bytes = Buffer.from((file.contents[0] as { blob: string }).blob, "base64");
      expect(file.contents[0]!.mimeType).toBe("video/mp4");
      expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
      expect(bytes.byteLength).toBeGreaterThan(10_000);

      // Another account reads nothing of it, by tool or by resource.
      const stranger = await open(fixture.stranger.jwt);
      const theirs = await call(stranger, "workflow_job", { jobId });
      expect(theirs.isError).toBe(true);
      expect(textOf(theirs)).toMatch(/^404 Job not found/);
      await expect(stranger.readResource({ uri: `adgen://jobs/${jobId}` })).rejects.toThrow(/404 Job not found/);
      await expect(stranger.readResource({ uri: video!.uri })).rejects.toThrow(/404/);
    }, 180_000);

    it("refuses an admin tool to a user, and an analytics key cannot spend", async () => {
      const client = await open(fixture.fullKey);
      const admin = await call(client, "admin_users");
      expect(admin.isError).toBe(true);
      expect(textOf(admin)).toBe("403 admin access required");

      const readOnly = await open(fixture.analyticsKey);
      const before = (await balanceOf(readOnly)).balance;
      const spent = await call(readOnly, "workflow_launch", { ...LAUNCH, confirmCost: 1 });
      expect(spent.isError).toBe(true);
      expect(textOf(spent)).toBe("403 This API key is read-only (analytics): it may read the account, not change it.");
      expect((await balanceOf(readOnly)).balance).toBe(before);
    });

    it("says what to fix for invalid input", async () => {
      const client = await open(fixture.fullKey);
      const bad = await call(client, "workflow_estimate", { type: "painpoint", url: "ftp://x" });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain("400 The page address must be a web address starting with http:// or https://");
    });
  });
}
