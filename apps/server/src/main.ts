// Process entry of the API server: the module loading made cheaper first (service-kit's module-loading.ts says
// how), then the server itself (serve.ts), whose imports are resolved only now.
import { speedUpModuleLoading } from '@sea/service-kit/module-loading';

speedUpModuleLoading({ commonJs: ['drizzle-orm'] });
await import('./serve.ts');
