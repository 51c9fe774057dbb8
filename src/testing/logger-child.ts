/**
 * A process that logs as `tidings cloud` does (ops/logging.ts, stdout written asynchronously): one
 * line bigger than a pipe holds, then two short ones, then it ends its log (`close`: closeLogger)
 * or flushes it (`flush`: flushLogger) and exits at once. Run by ops/logging.test.ts with its
 * stdout paused, so the big line's write is still under way when the process stops.
 */
import { closeLogger, createLogger, flushLogger } from '../cloud/ops/logging.ts';

const logger = createLogger('info');
logger.info(`first ${'x'.repeat(300_000)}`);
await new Promise((resolve) => setTimeout(resolve, 20));
logger.info('second');
logger.info('third');
if (process.argv[2] === 'close') await closeLogger(logger);
else flushLogger(logger);
process.exit(0);
