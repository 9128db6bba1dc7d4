// A request from another loopback address (127.0.0.2, …), so the server sees another client IP: the
// rate limits that count per IP are tried from several "clients" on one machine.
import { request } from "node:http";

export interface FromAddress {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/** `url` is the whole address; the answer's body is parsed as JSON. */
export function requestFrom(localAddress: string, url: string, options: FromAddress = {}): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  const json = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? (json === undefined ? "GET" : "POST"),
        localAddress,
        headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(json);
  });
}
