// The streams open in this process, each under the credential that opened it (SSE, tRPC and GraphQL
// subscriptions, the assistant's answers). A revocation reaching this instance (sessions.ts relays the
// bus's) ends the streams it covers at once, each with the reason as its last error; the transport says
// it in its own form (an SSE `error` event, a tRPC error, a WebSocket close code) and closes.
import { endWhenAborted } from "../../streams/revocable-stream.ts";
import { type CredentialRevocation, ends, type HeldCredential, streamEndedError } from "./credential-revocation.ts";

export interface StreamLease {
  /** Aborts, with the stream's last error as its reason, when the credential ends. */
  signal: AbortSignal;
  release(): void;
}

/**
 * What a stream is held under: the parts of the request's credential (`AuthState` in request-context.ts)
 * that say which revocations end it. Stated here, not imported, because the request context holds the
 * session manager, which holds these streams: the domain does not import the context's shape back.
 */
export interface StreamCredential {
  user: { id: string };
  session: { id: string } | null;
  apiKey?: { id: string } | null;
}

/** The parts of a request's context that opening a live stream reads. */
export interface LiveStreamContext {
  auth: StreamCredential | null;
  services: { sessions: { streams: LiveStreams } };
}

interface Holder extends HeldCredential {
  controller: AbortController;
}

export const heldCredential = (auth: StreamCredential): HeldCredential => ({
  userId: auth.user.id,
  sessionId: auth.session?.id ?? null,
  apiKeyId: auth.session ? null : (auth.apiKey?.id ?? null),
});

export class LiveStreams {
  /** By account: every revocation names one. */
  private readonly byUser = new Map<string, Set<Holder>>();

  hold(auth: StreamCredential): StreamLease {
    const holder: Holder = { ...heldCredential(auth), controller: new AbortController() };
    let holders = this.byUser.get(holder.userId);
    if (!holders) {
      holders = new Set();
      this.byUser.set(holder.userId, holders);
    }
    holders.add(holder);
    return { signal: holder.controller.signal, release: () => this.drop(holder) };
  }

  /** Ends the streams `revocation` covers. */
  end(revocation: CredentialRevocation): void {
    for (const holder of [...(this.byUser.get(revocation.userId) ?? [])]) {
      if (!ends(revocation, holder)) continue;
      this.drop(holder);
      holder.controller.abort(streamEndedError(revocation, holder));
    }
  }

  /** The credentials streams are open under (distinct), for a check after messages may have been missed. */
  held(): HeldCredential[] {
    const seen = new Map<string, HeldCredential>();
    for (const holders of this.byUser.values()) {
      for (const { userId, sessionId, apiKeyId } of holders)
        seen.set(`${userId}/${sessionId}/${apiKeyId}`, { userId, sessionId, apiKeyId });
    }
    return [...seen.values()];
  }

  /** Open streams in this process. */
  get size(): number {
    let count = 0;
    for (const holders of this.byUser.values()) count += holders.size;
    return count;
  }

  private drop(holder: Holder): void {
    const holders = this.byUser.get(holder.userId);
    if (!holders?.delete(holder)) return;
    if (holders.size === 0) this.byUser.delete(holder.userId);
  }
}

/**
 * Opens a stream (`open` invokes the operation with the signal it is given) tied to the credential that
 * asked: when that credential ends, the stream ends with the reason as its last error. `signal` is the
 * transport's own (the client went away). A refused call (no credential, 401, 404) opens nothing.
 */
export async function openLiveStream<T>(
  ctx: LiveStreamContext,
  signal: AbortSignal,
  open: (signal: AbortSignal) => Promise<unknown>,
): Promise<AsyncIterable<T>> {
  if (!ctx.auth) return (await open(signal)) as AsyncIterable<T>;
  const lease = ctx.services.sessions.streams.hold(ctx.auth);
  // Released however the stream ends, and if the client goes before it is ever read.
  signal.addEventListener("abort", lease.release, { once: true });
  const release = () => {
    signal.removeEventListener("abort", lease.release);
    lease.release();
  };
  try {
    const stream = (await open(AbortSignal.any([signal, lease.signal]))) as AsyncIterable<T>;
    return endWhenAborted(stream, lease.signal, release);
  } catch (error) {
    release();
    throw error;
  }
}
