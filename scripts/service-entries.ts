/**
 * The services' process entries as `npm start`, the systemd units and the deploy tests run them: the bundles
 * `build-services.ts` makes (each app's `dist/`), relative to the repository.
 */
export const SERVICE_ENTRIES = {
  server: 'apps/server/dist/main.js',
  media: 'apps/media/dist/main.js',
} as const;
