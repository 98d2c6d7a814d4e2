import fs from 'node:fs';
import path from 'node:path';
import { RECORDING_MANIFEST, type RecordingEvent, RecordingEventSchema } from '@sea/contract/recording';

/** The events of the recording manifest in `dir`, each checked against the contract's schema. */
export function readManifest(dir: string): RecordingEvent[] {
  const text = fs.readFileSync(path.join(dir, RECORDING_MANIFEST), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => RecordingEventSchema.parse(JSON.parse(line)));
}
