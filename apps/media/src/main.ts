// Process entry of the media service: the module loading made cheaper first (service-kit's module-loading.ts
// says how), then the service itself (serve.ts), whose imports are resolved only now.
import { speedUpModuleLoading } from '@sea/service-kit/module-loading';

speedUpModuleLoading();
await import('./serve.ts');
