/** Polls `check` every `intervalMs` until it answers something truthy (answered), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Polls GET /workflow/job until the job is completed or failed, and answers it (the caller checks which). */
export async function settledJob(client: { get(path: string): Promise<{ body: any }> }, jobId: string, timeoutMs = 150_000): Promise<any> {
  let job: any;
  await waitFor(
    `job ${jobId} to complete or fail`,
    async () => {
      job = (await client.get(`/workflow/job?jobId=${jobId}`)).body.data;
      return job?.status === "completed" || job?.status === "failed";
    },
    timeoutMs,
    250,
  );
  return job;
}
