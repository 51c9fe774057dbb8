/** Tidings' name, version and home, from package.json (one source of truth). */
import pkg from '../../package.json' with { type: 'json' };

export const APP_VERSION: string = pkg.version;
export const PROJECT_URL: string = pkg.homepage;
