// One instance of the service on a shared database, as one machine behind a balancer would run it: its own
// data directory, the fleet's session secret, listening on a free port (the several-instance tests).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DatabaseTarget, loadConfig } from "../../src/config/env.ts";
import { listen, type RunningServer } from "../../src/http/app.ts";
import { createServices, type ServiceHandle } from "../../src/services.ts";

export interface Instance {
  services: ServiceHandle;
  server: RunningServer;
}

export async function startInstance(database: DatabaseTarget, secret: string, env: Record<string, string>): Promise<Instance> {
  const config = loadConfig(
    { DATA_DIR: mkdtempSync(join(tmpdir(), "adgen-instance-")), SESSION_SECRET: secret, LOG_LEVEL: "silent", ...env },
    { database },
  );
  const services = await createServices(config);
  // Workers run only where the test asks for them (env.WORKERS).
  if (env.WORKERS && config.workers > 0) await services.startWorkers(config.workers);
  return { services, server: await listen(services, 0, "127.0.0.1") };
}

/** Closes each instance's server, then its services (queue, bus, database pool). */
export async function stopInstances(instances: readonly Instance[]): Promise<void> {
  for (const instance of instances) {
    await instance.server.close();
    await instance.services.close();
  }
}
