/** The app's version and home (src/common/version.ts reads them from package.json). */
export { APP_VERSION, PROJECT_URL } from '../common/version.ts';
