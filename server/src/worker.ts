// `pnpm worker`: workflow workers alone (no HTTP), against a shared PostgreSQL, so rendering scales
// across machines. Start as many as the machines allow; they share one queue.
import { ConfigError, loadConfig } from "./config/env.ts";
import { createLogger } from "./logging/logger.ts";
import { createServices } from "./services.ts";

async function main() {
  const config = loadConfig();
  if (config.database.kind !== "postgres") {
    throw new ConfigError(
      "pnpm worker needs DATABASE_URL=postgres://… : an embedded database belongs to the one process that opened it (pnpm start runs WORKERS in-process instead).",
    );
  }
  const services = await createServices(config);
  const count = Math.max(1, config.workers);
  await services.startWorkers(count);
  services.logger.info({ workers: count }, `AdGen worker: ${count} workflow worker${count === 1 ? "" : "s"} on the shared queue`);
  const stop = async (signal: string) => {
    services.logger.info({ signal }, `${signal}: finishing`);
    setTimeout(() => process.exit(1), 10_000).unref();
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
  else logger.fatal({ err: error }, "AdGen worker could not start");
  process.exit(1);
});
