// Run as a process by logging.test.ts: logs a burst of lines through the default destination (stdout) and
// exits at once, to show that no line is lost to the asynchronous writes. The last line is not `fatal`:
// pino flushes a fatal line (and all before it) at once, which would hide a missing flush at exit.
import { createLogger } from "../../src/logging/logger.ts";

const count = Number(process.argv[2] ?? "1000");
const logger = createLogger({ level: "info" });
for (let n = 1; n <= count; n++) logger.info({ n, padding: "x".repeat(200) }, "line");
logger.info("the last line before exit");
process.exit(3);
