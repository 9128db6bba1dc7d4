// Runs inside a network namespace of its own (`ip netns exec`, pinned with `taskset`): opens, on this
// namespace's loopback, the TCP ports the worker is configured with (PostgreSQL and the object store), each
// relayed over a Unix socket to the bench's side, then starts `pnpm worker` (scripts/worker.mjs). A network
// namespace shares the filesystem, so a Unix socket is the one way through it that sends nothing to any
// other address. RELAYS="port=/path/to.sock,port=/path/to.sock".
import { spawn } from "node:child_process";
import net from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const servers = [];
for (const relay of (process.env.RELAYS ?? "").split(",").filter(Boolean)) {
  const [port, path] = relay.split("=");
  const server = net.createServer((client) => {
    const upstream = net.connect(path);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(Number(port), "127.0.0.1", resolve));
  servers.push(server);
}
const worker = spawn(process.execPath, [join(root, "scripts/worker.mjs")], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => worker.kill(signal));
worker.on("exit", (code) => {
  for (const server of servers) server.close();
  process.exit(code ?? 0);
});
