// Scenes spread over workers (issue 30): two instances on one PostgreSQL database and one S3 store, as two
// machines would be. A four-format job's segments go through the shared queue and the store (inputs and
// segments in S3), the job's own worker joins them, and the ads download from the other instance.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { testDatabase } from "../test/support/harness.ts";
import { type Instance, startInstance, stopInstances } from "../test/support/instance.ts";
import { startS3, type TestS3 } from "../test/support/s3-server.ts";

let drop: () => Promise<void>;
let s3: TestS3;
const instances: Instance[] = [];
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  s3 = await startS3();
  const db = await testDatabase();
  drop = db.drop;
  for (let i = 0; i < 2; i++) {
    instances.push(
      await startInstance(db.target, secret, {
        WORKERS: "1",
        SIGNUP_CREDITS: "20",
        STUDIO_MAX_AD_SECONDS: "15",
        QUEUE_MAINTENANCE_SECONDS: "1",
        SWEEP_SECONDS: "1",
        ...s3.env,
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await stopInstances(instances);
  await drop?.();
  await s3?.close();
});

describe("two workers on one PostgreSQL and one store", () => {
  it("take a four-format job's scene segments from the shared queue and store, and the ads download from either", {
    timeout: 300_000,
  }, async () => {
    const [a, b] = instances as [Instance, Instance];
    const client = new RestClient(a.server.url);
    const signup = await client.post("/auth/signup", { email: uniqueEmail("farm").toLowerCase(), password: "farm-password-1" });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const userId = signup.body.data.id as string;
    // A plan with room for several encodes at once (a trial account holds two).
    await a.services.prisma.user.update({ where: { id: userId }, data: { currentPlanId: "subscription_enterprise" } });
    const launch = await client.post("/workflow", {
      type: "cinematic",
      concept: "Lumen desk lamp: light that follows your day, dims at night, wakes you at dawn",
      formats: ["9:16", "16:9", "1:1", "4:5"],
    });
    expect(launch.status, JSON.stringify(launch.body)).toBe(200);
    const jobId = launch.body.data.jobId as string;
    let job: { status: string; result?: unknown; error?: string } | undefined;
    for (const deadline = Date.now() + 240_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      job = (await client.get(`/workflow/job?jobId=${jobId}`)).body.data;
      if (job?.status === "completed" || job?.status === "failed") break;
    }
    expect(job?.status, JSON.stringify(job)).toBe("completed");
    const tasks = await a.services.prisma.renderSegmentTask.findMany({ where: { jobId } });
    expect(tasks.length).toBeGreaterThanOrEqual(8);
    expect(tasks.every((t) => t.status === "done")).toBe(true);
    // Every task was taken by one of the two instances' workers, each recording its encoding time. (Which
    // instance takes how many is a race on one machine; \`pnpm bench render\` measures the split between
    // two processes.)
    const names = new Set([a.services.workerName, b.services.workerName]);
    expect(tasks.every((t) => names.has(t.worker!) && t.busyMs > 0)).toBe(true);
    // Every format's ad is delivered, and its video downloads from the other instance too.
    const videos = ((job as { result: { assets: { type: string; format: string; url: string }[] } }).result.assets ?? []).filter(
      (asset) => asset.type === "video",
    );
    expect(new Set(videos.map((v) => v.format))).toEqual(new Set(["9:16", "16:9", "1:1", "4:5"]));
    const url = new URL(videos[0]!.url, a.server.url);
    const download = await fetch(new URL(url.pathname + url.search, b.server.url), { headers: { cookie: `session=${client.cookie}` } });
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
  });
});
