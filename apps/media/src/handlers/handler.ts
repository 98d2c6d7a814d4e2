import type { LiveRequestData, LiveRequestName, LiveRequestPayload } from '@sea/contract/live';
import type { Session } from '../session.ts';

/** Handles one request of a session: returns the answer's `data`, or throws a `LiveError`. */
export type Handler<N extends LiveRequestName> = (
  session: Session,
  payload: LiveRequestPayload<N>,
) => Promise<LiveRequestData<N>> | LiveRequestData<N>;
