// `pnpm bench agents`: the agent interface's speed. (1) A free storyboard preview (POST /api/workflow/preview):
// the pipeline to the art direction and a still per scene, median of a few, with the scene count. (2) What MCP
// adds to one call: the profile read as an MCP tool call (the SDK's Client over Streamable HTTP, one session)
// against the same read over REST, sequential, interleaved, medians.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

type Started = { url: string; close(): Promise<void> };
type Log = (line: string) => void;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function agentInterface(
  log: Log,
  startApp: (env: Record<string, string>) => Promise<Started>,
  login: (url: string, email: string, password: string, signup?: boolean) => Promise<string>,
): Promise<void> {
  const app = await startApp({ STUDIO_MAX_AD_SECONDS: "15", RATE_LIMIT_PREVIEW_PER_MINUTE: "1000" });
  try {
    const cookie = await login(app.url, `agents-${Date.now()}@example.com`, "bench-password-1", true);
    const jwt = cookie.slice("session=".length);
    const headers = { cookie, "content-type": "application/json" };
    const body = JSON.stringify({
      type: "cinematic",
      concept: "Backpacks that never tear: waterproof, ten-year warranty, free repairs for life",
      formats: ["9:16"],
    });
    const previews: number[] = [];
    let scenes = 0;
    for (let i = 0; i < Number(process.env.BENCH_PREVIEWS ?? 3); i++) {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/workflow/preview`, { method: "POST", headers, body });
      const answer = (await res.json()) as { data?: { stills: unknown[] }; error?: string };
      if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${answer.error}`);
      previews.push(performance.now() - started);
      scenes = answer.data!.stills.length;
    }
    log(
      `free preview (${scenes} scenes, 9:16, stills at 720p): median ${median(previews).toFixed(0)} ms of ${previews.length} (target < 3000 ms for five scenes)`,
    );

    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${jwt}` } } }),
    );
    const rest: number[] = [];
    const mcp: number[] = [];
    const rounds = Number(process.env.BENCH_MCP_CALLS ?? 200);
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      await (await fetch(`${app.url}/api/user/profile`, { headers: { authorization: `Bearer ${jwt}` } })).json();
      rest.push(performance.now() - t);
      t = performance.now();
      const result = await client.callTool({ name: "user_profile", arguments: {} });
      if (result.isError) throw new Error("user_profile failed over MCP");
      mcp.push(performance.now() - t);
    }
    await client.close();
    const [r, m] = [median(rest), median(mcp)];
    log(
      `profile read, ${rounds} sequential calls each: REST median ${r.toFixed(2)} ms, MCP tool call median ${m.toFixed(2)} ms (${(m / r).toFixed(2)}× REST, +${(m - r).toFixed(2)} ms)`,
    );
  } finally {
    await app.close();
  }
}
