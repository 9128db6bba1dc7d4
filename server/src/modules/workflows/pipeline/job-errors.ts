// How a step says that no retry can help: the job fails and is refunded at once. Its own module, so a step
// can throw it without importing the runner that runs the steps.

/** A failure no retry can fix: the job fails (and is refunded) at once. */
export class PermanentJobError extends Error {}
