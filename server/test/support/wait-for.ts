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
