/** The command line is wrong (exit 2); any other error is a failed operation (exit 1). */
export class UsageError extends Error {}
