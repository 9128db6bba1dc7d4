// SSRF-safe outbound HTTP: URL checks, pinned fetches and page metadata.
export { isPublicAddress } from "./address.ts";
export {
  assertPublicUrl,
  assertStorableUrl,
  createPinnedLookup,
  type Protocol,
  type Resolver,
  SafeFetchError,
  type SafeFetchFailure,
  type SafeFetchOptions,
  type SafeResponse,
  type SafeStreamResponse,
  safeFetch,
  safeFetchStream,
  systemResolver,
  type UrlPolicy,
} from "./safe-fetch.ts";
export { type PageMeta, type PageSignals, type ReadPageOptions, readPageMeta } from "./page-meta.ts";
