/** The recording's counters of this process, read by `/metrics` (`media-metrics.ts`). */
export const recordingCounts = {
  /** Times a session's recording stalled because its files could not be written. */
  writeFailures: 0,
};
