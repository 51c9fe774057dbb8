/** Whether a process runs (signal 0 checks without sending anything). Our own pid always does. */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, it is someone else's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
