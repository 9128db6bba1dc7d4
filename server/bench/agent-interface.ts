// `pnpm bench agents`: the agent interface's speed. (1) A free storyboard preview (POST /api/workflow/preview):
// the pipeline to the art direction and a still per scene, median of a few, with the scene count. (2) What MCP
// adds to one call: the profile read as an MCP tool call (the SDK's Client over Streamable HTTP, one session)
// against the same read over REST, sequential, interleaved, medians.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

type Started = { url: string; close(): Promise<void>; services: { startWorkers(count: number): Promise<unknown> } };
type Log = (line: string) => void;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function agentInterface(
  log: Log,
  startApp: (env: Record<string, string>) => Promise<Started>,
  login: (url: string, email: string, password: string, signup?: boolean) => Promise<string>,
): Promise<void> {
  const app = await startApp({ STUDIO_MAX_AD_SECONDS: "30", RATE_LIMIT_PREVIEW_PER_MINUTE: "1000" });
  try {
    const cookie = await login(app.url, `agents-${Date.now()}@example.com`, "bench-password-1", true);
    const jwt = cookie.slice("session=".length);
    const headers = { cookie, "content-type": "application/json" };
    // A brief by part (hook, three benefits, proof, offer) and a fact in the knowledge base that no beat
    // says: the studio's writer gives it its own scene, so the storyboard has as many scenes as it makes.
    await app.services.startWorkers(1);
    const form = new FormData();
    form.append("file", new Blob(["Every pack is sewn by hand in Porto from recycled sailcloth.\n"], { type: "text/plain" }), "facts.txt");
    const uploaded = await fetch(`${app.url}/api/user/brand/knowledge/files`, { method: "POST", headers: { cookie }, body: form });
    const item = (await uploaded.json()) as { data?: { id: string }; error?: string };
    if (uploaded.status !== 200) throw new Error(`knowledge upload answered ${uploaded.status}: ${item.error}`);
    for (let waited = 0; ; waited += 100) {
      const got = (await (await fetch(`${app.url}/api/user/brand/knowledge/${item.data!.id}`, { headers })).json()) as {
        data: { status: string };
      };
      if (got.data.status !== "extracting") break;
      if (waited > 60_000) throw new Error("the knowledge file was not read within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const body = JSON.stringify({
      type: "cinematic",
      concept: "Backpacks that never tear, sewn from recycled sailcloth",
      brief: {
        hook: "Your backpack tore again?",
        benefits: ["Waterproof in any storm", "Light as a feather at 600 g", "Made from 30 recycled bottles"],
        proof: "Rated 4.8 by 20,000 hikers",
        offer: "Free repairs for life",
        cta: "Shop the pack",
      },
      formats: ["9:16"],
    });
    const previews: number[] = [];
    let scenes = 0;
    for (let i = 0; i < Number(process.env.BENCH_PREVIEWS ?? 5); i++) {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/workflow/preview`, { method: "POST", headers, body });
      const answer = (await res.json()) as { data?: { stills: unknown[] }; error?: string };
      if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${answer.error}`);
      previews.push(performance.now() - started);
      scenes = answer.data!.stills.length;
    }
    log(
      `free preview (${scenes} scenes, 9:16, stills at 720p): median ${median(previews).toFixed(0)} ms of ${previews.length}, ${(median(previews) / scenes).toFixed(0)} ms a scene (target < 3000 ms for five scenes)`,
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
