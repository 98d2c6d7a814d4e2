import type { StompOutcome } from '../stomp/stomp-ports.ts';
import { refuse } from '../room-bus/refusals.ts';
import type { GateRefusal } from './moderation-store.ts';

/** The refusal a muted student or one writing too fast under slow mode hears, with how long to wait. */
export function gateRefusal(refusal: GateRefusal, now: number): StompOutcome {
  if (refusal.type === 'slow') {
    return refuse('slow-mode', `천천히 모드예요. ${refusal.waitSeconds}초 후에 다시 보낼 수 있어요.`);
  }
  const minutes = Math.max(1, Math.ceil((refusal.until.getTime() - now) / 60_000));
  return refuse('muted', `강사가 채팅과 질문을 잠시 막았어요. ${minutes}분 후에 다시 쓸 수 있어요.`);
}
