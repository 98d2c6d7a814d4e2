import type { LiveRequestName } from '@sea/contract/live';
import {
  connectConsumerTransport,
  consume,
  createConsumerTransport,
  pause,
  resume,
  setPreferredLayer,
} from './consumer-handlers.ts';
import type { Handler } from './handler.ts';
import {
  closeProducer,
  connectProducerTransport,
  createProducerTransport,
  produce,
} from './producer-handlers.ts';
import { relayAcceptSpeak, relayEndSpeaking, relayViewers } from './relay-handlers.ts';
import { acceptSpeak, endSpeaking, inviteToSpeak } from './speaking-handlers.ts';
import {
  getProducers,
  getRouterRtpCapabilities,
  joinRoom,
  setRecording,
  startRoom,
  stepOut,
} from './room-handlers.ts';

/** Every request's handler, by request name: the table of contents of the signalling protocol. */
export const REQUEST_HANDLERS: { [N in LiveRequestName]: Handler<N> } = {
  startRoom,
  joinRoom,
  getProducers,
  getRouterRtpCapabilities,
  createProducerTransport,
  connectProducerTransport,
  produce,
  closeProducer,
  setRecording,
  createConsumerTransport,
  consume,
  connectConsumerTransport,
  resume,
  pause,
  setPreferredLayer,
  relayViewers,
  relayAcceptSpeak,
  relayEndSpeaking,
  inviteToSpeak,
  acceptSpeak,
  endSpeaking,
  stepOut,
};
