/** The year of the build (vite.config.ts `define`): what the pre-rendered pages print in their footer. */
declare const __BUILD_YEAR__: number;
