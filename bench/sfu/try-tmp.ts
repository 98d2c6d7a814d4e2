import { startJanus } from './janus-server.ts';
const j = await startJanus();
await new Promise((r) => setTimeout(r, 1500));
await j.close();
