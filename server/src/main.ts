// `pnpm start`: migrate, bootstrap, serve API + SPA, and run WORKERS in-process workflow workers.
import { ConfigError, loadConfig } from "./config/env.ts";
import { startUnpackingTemplate } from "./db/pglite-template.ts";
import { startCompilingPglite } from "./db/pglite-wasm.ts";
import { createLogger } from "./logging/logger.ts";

async function main() {
  const config = loadConfig();
  // A first start on the embedded database writes the build's template (a thousand files) on a thread of
  // its own, and V8 compiles PGlite's WebAssembly on its background threads, while the main thread loads
  // the rest of the service: which is why that is imported only now.
  if (config.database.kind === "pglite") startUnpackingTemplate(config.database.dataDir);
  if (config.database.kind !== "postgres") startCompilingPglite();
  const [{ createServices }, { listen }] = await Promise.all([import("./services.ts"), import("./http/app.ts")]);
  const services = await createServices(config);
  // Requests are served before the workers start: their first polls (the queue's plans, on a database
  // not warmed up yet) would hold up the first requests. A job launched meanwhile waits in the queue.
  const running = await listen(services, config.port, config.host);
  await services.startWorkers(config.workers);
  const where =
    config.database.kind === "postgres"
      ? "PostgreSQL"
      : config.database.kind === "pglite"
        ? `embedded database in ${config.database.dataDir}`
        : "in-memory database";
  services.logger.info(
    { url: running.url, publicUrl: config.publicUrl, database: where, workers: config.workers, version: config.version },
    `AdGen listening on ${running.url} (public URL ${config.publicUrl}) with the ${where}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info({ signal }, `${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await running.close();
    await services.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  // No LOG_LEVEL may be readable yet (a bad environment): a start-up failure is always written.
  const logger = createLogger({ level: "info" });
  if (error instanceof ConfigError) logger.fatal(error.message);
  else logger.fatal({ err: error }, "AdGen could not start");
  process.exit(1);
});
