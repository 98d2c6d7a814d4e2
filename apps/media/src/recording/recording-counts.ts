/** The recording's counters of this process, read by `/metrics` (`media-metrics.ts`). */
export const recordingCounts = {
  /** Times a session's recording stalled because its files could not be written. */
  writeFailures: 0,
  /** Upload rounds into the object store that failed (STORAGE=s3; each is tried again at the next round). */
  uploadFailures: 0,
};
