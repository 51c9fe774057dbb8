/** A worker file that cannot load (a packaging that lost a module): its jobs must run inline. */
throw new Error('this worker cannot load');
