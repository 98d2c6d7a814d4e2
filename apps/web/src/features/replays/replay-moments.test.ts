import { describe, expect, it } from 'vitest';
import type { SessionChatMessage, SessionPoll, SessionQuestion } from '@sea/contract/sessions';
import { momentKey, replayMoments } from './replay-moments.ts';

const message = (id: number, offset_ms: number) => ({ id, offset_ms }) as SessionChatMessage;
const question = (id: number, offset_ms: number) => ({ id, offset_ms }) as SessionQuestion;
const poll = (id: number, offset_ms: number) => ({ id, offset_ms }) as SessionPoll;

describe('replay moments', () => {
  it('merges messages, questions and polls in time order, a message first at the same moment', () => {
    const moments = replayMoments([message(1, 0), message(2, 5_000), message(3, 9_000)], {
      questions: [question(1, 5_000), question(2, 12_000)],
      polls: [poll(1, 3_000), poll(2, 5_000)],
    });
    expect(moments.map((moment) => [momentKey(moment), moment.offset_ms])).toEqual([
      ['message-1', 0],
      ['poll-1', 3_000],
      ['message-2', 5_000],
      ['question-1', 5_000],
      ['poll-2', 5_000],
      ['message-3', 9_000],
      ['question-2', 12_000],
    ]);
  });

  it('is the chat alone while the questions and polls are not (or cannot be) loaded', () => {
    expect(replayMoments([message(4, 10)], undefined).map(momentKey)).toEqual(['message-4']);
  });
});
