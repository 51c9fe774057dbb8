// The one-clean-stop rule moved to the core (src/common/shutdown.ts) so `tidings serve` follows it
// too; main keeps importing it from here.
export * from '../src/common/shutdown.ts';
