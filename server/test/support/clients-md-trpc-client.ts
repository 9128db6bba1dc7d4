// docs/clients.md's tRPC example, word for word but for where AppRouter comes from (outside: the package
// `@adgen/server`; here: the file it names). `pnpm typecheck` compiles it; outside-clients.test.ts runs it and
// checks the page still shows it.
import type { AppRouter } from "../../src/index.ts";
import { createTRPCClient, httpBatchLink } from "@trpc/client";

/** A client of the service at `baseUrl`, authenticated with an API key. */
export function adgenClient(baseUrl: string, apiKey: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${baseUrl}/trpc`, headers: () => ({ authorization: `Bearer ${apiKey}` }) })],
  });
}

/** The account's credit balance and e-mail address, in one batched request. */
export async function whoAndBalance(baseUrl: string, apiKey: string): Promise<{ email: string; balance: number }> {
  const client = adgenClient(baseUrl, apiKey);
  const [profile, credits] = await Promise.all([client.user.profile.query(), client.user.credits.query()]);
  return { email: profile.email, balance: credits.balance };
}
