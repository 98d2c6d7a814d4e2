import { pollTopic, questionTopic } from '@sea/contract/classroom';
import { frameText, stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { RawStomp } from '../chat/raw-stomp.ts';
import { now } from './bench-parts.ts';

// The classroom benchmark's clients on the main thread: the teacher, and the askers' refusals.

/** A STOMP client connected with `token`. */
export async function connectClient(url: string, token: string): Promise<RawStomp> {
  const client = new RawStomp(url);
  await client.connect(token);
  return client;
}

/**
 * The teacher: hears questions (each question's latency to the teacher, and to its stored row, by the
 * database's clock on the same machine) and polls, and starts the poll. `waitFor` resolves with the id of the
 * next poll created, or of the next question tagged 'popular'.
 */
export async function connectTeacher(url: string, classId: number, token: string) {
  const teacher = await connectClient(url, token);
  const heard = { questionLatencies: [] as number[], questionStored: [] as number[] };
  const waiting: Record<'poll' | 'popular', (id: number) => void> = { poll: () => {}, popular: () => {} };
  await new Promise<void>((resolve) => {
    teacher.onFrame = (frame) => {
      if (frame.command === 'RECEIPT') return resolve();
      if (frame.command !== 'MESSAGE') return;
      const destination = frame.headers.get('destination');
      if (destination === questionTopic(classId)) {
        const event = JSON.parse(frameText(frame)) as {
          type: string;
          question?: { id: number; content: string; votes: number; createdDate: string };
        };
        const [tag, sentAt] = event.question?.content.split('|') ?? [];
        if (tag === 'q' && event.question) {
          heard.questionLatencies.push(now() - Number(sentAt));
          heard.questionStored.push(Date.parse(event.question.createdDate) - Number(sentAt));
        }
        if (tag === 'popular' && event.question?.votes === 0) waiting.popular(event.question.id);
      } else if (destination === pollTopic(classId)) {
        const poll = JSON.parse(frameText(frame)) as { id: number; voters: number };
        if (poll.voters === 0) waiting.poll(poll.id);
      }
    };
    teacher.send(stompFrame('SUBSCRIBE', { id: 'q', destination: questionTopic(classId) }));
    teacher.send(stompFrame('SUBSCRIBE', { id: 'p', destination: pollTopic(classId), receipt: 'ready' }));
  });
  const waitFor = (what: 'poll' | 'popular'): Promise<number> =>
    new Promise((resolve) => (waiting[what] = resolve));
  return { teacher, heard, waitFor };
}

/** Refusals of the askers' questions, by code (a question that never reaches the teacher says why here). */
export function countRefusals(askers: RawStomp[]): Record<string, number> {
  const refusals: Record<string, number> = {};
  for (const asker of askers) {
    asker.onFrame = (frame) => {
      if (frame.command !== 'MESSAGE') return;
      const { code } = JSON.parse(frameText(frame)) as { code: string };
      refusals[code] = (refusals[code] ?? 0) + 1;
    };
    asker.send(stompFrame('SUBSCRIBE', { id: 'errors', destination: '/user/queue/errors' }));
  }
  return refusals;
}
