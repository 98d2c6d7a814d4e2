import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerSetup } from './messages.ts';
import { ForwardingThread } from './forwarding-thread.ts';

/** Entry of a forwarding worker thread (started by `ForwardingPool`). */
const port = parentPort;
if (!port) throw new Error('forwarding-worker.ts runs as a worker thread');
const { rtc } = workerData as WorkerSetup;
const thread = new ForwardingThread(rtc, (message: FromWorker) => port.postMessage(message));
port.on('message', (message: ToWorker) => thread.handle(message));
port.once('close', () => thread.close());
