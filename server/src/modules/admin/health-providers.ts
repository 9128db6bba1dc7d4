// The remote providers in GET /admin/health: each configured one is asked a free, authenticated question
// (its account, models or balance: nothing that renders, speaks or costs money), so a revoked key shows
// as well as an outage. 2xx is `ok`; a refused key (401, 403) or no answer in time is `error`; a 429, a
// 5xx or another unexpected answer is `degraded`; each with the reason. An unconfigured one says so.
import type { AdminHealth } from "@adgen/schema";
import type { Services } from "../../request-context.ts";

type Check = AdminHealth["checks"][number];

/** How long a provider has to answer the health check. */
export const PROVIDER_TIMEOUT_MS = 5_000;

interface ProviderProbe {
  name: string;
  /** What the service uses it for. */
  role: string;
  /** The variable holding its key, named when the key is refused. */
  keyVariable: string;
  /** The request to make, or null when the provider is not configured. */
  request: { url: string; headers: Record<string, string> } | null;
}

function providerProbes(services: Services): ProviderProbe[] {
  const { providers, languageModel, payments } = services.config;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return [
    {
      name: "fal",
      role: "pictures",
      keyVariable: "FAL_KEY",
      request: providers.falKey
        ? { url: "https://api.fal.ai/v1/models?limit=1", headers: { authorization: `Key ${providers.falKey}` } }
        : null,
    },
    {
      name: "replicate",
      role: "pictures",
      keyVariable: "REPLICATE_API_TOKEN",
      request: providers.replicateToken ? { url: "https://api.replicate.com/v1/account", headers: bearer(providers.replicateToken) } : null,
    },
    {
      name: "elevenlabs",
      role: "voice",
      keyVariable: "ELEVENLABS_API_KEY",
      request: providers.elevenLabsKey
        ? { url: "https://api.elevenlabs.io/v1/user", headers: { "xi-api-key": providers.elevenLabsKey } }
        : null,
    },
    {
      name: "language model",
      role: "the words of ads",
      keyVariable: "LLM_API_KEY",
      request: languageModel ? { url: `${languageModel.baseUrl.replace(/\/+$/, "")}/models`, headers: bearer(languageModel.apiKey) } : null,
    },
    {
      name: "stripe",
      role: "payments",
      keyVariable: "STRIPE_SECRET_KEY",
      request: payments.stripeSecretKey ? { url: "https://api.stripe.com/v1/balance", headers: bearer(payments.stripeSecretKey) } : null,
    },
  ];
}

function judge(probe: ProviderProbe, status: number, where: string): Pick<Check, "status" | "detail"> {
  const answered = `${probe.role}: ${where} answered ${status}`;
  if (status >= 200 && status < 300) return { status: "ok", detail: answered };
  if (status === 401 || status === 403) return { status: "error", detail: `${answered}: the key was refused; check ${probe.keyVariable}` };
  if (status === 429) return { status: "degraded", detail: `${answered}: rate limited, calls may be refused for a while` };
  if (status >= 500) return { status: "degraded", detail: `${answered}: the provider is failing; jobs may fall back or fail` };
  return { status: "degraded", detail: `${answered}: an unexpected answer` };
}

async function probeProvider(services: Services, probe: ProviderProbe, timeoutMs: number): Promise<Check> {
  const name = `provider: ${probe.name}`;
  if (!probe.request) {
    const fallback = probe.name === "stripe" && services.config.paymentsSandbox ? "; the built-in sandbox checkout is used" : "";
    return { name, status: "unconfigured", latencyMs: 0, detail: `not configured (${probe.role})${fallback}` };
  }
  const { url, headers } = probe.request;
  const where = `GET ${new URL(url).origin}${new URL(url).pathname}`;
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 100) / 100;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The race, not only the signal, bounds the wait: a connection that never answers cannot hold the report.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs / 1000} s`);
      error.name = "TimeoutError";
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const response = await Promise.race([fetch(url, { headers, signal: controller.signal, redirect: "manual" }), timeout]);
    response.body?.cancel().catch(() => {});
    return { name, ...judge(probe, response.status, where), latencyMs: latency() };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    const reason = timedOut ? `no answer within ${timeoutMs / 1000} s` : `unreachable (${(error as Error).message})`;
    return { name, status: "error", latencyMs: latency(), detail: `${probe.role}: ${where} ${reason}` };
  } finally {
    clearTimeout(timer);
  }
}

export function checkProviders(services: Services, timeoutMs = PROVIDER_TIMEOUT_MS): Promise<Check[]> {
  return Promise.all(providerProbes(services).map((probe) => probeProvider(services, probe, timeoutMs)));
}
