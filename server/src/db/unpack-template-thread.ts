// A first start's unpack of the embedded database's template, on a thread of its own
// (startUnpackingTemplate in pglite-template.ts): it answers whether it unpacked, or fails with the error.
import { parentPort, workerData } from "node:worker_threads";
import { unpackTemplate } from "./pglite-template.ts";

const { dataDir, file } = workerData as { dataDir: string; file: string };
parentPort?.postMessage(unpackTemplate(dataDir, file));
