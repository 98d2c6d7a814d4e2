// Holds some of the room's subscribers (each on the chat, questions, polls and reactions topics of one class),
// makes the chosen ones vote and react when told, and measures what every subscriber receives.
import { parentPort, workerData } from 'node:worker_threads';
import {
  POLL_VOTE_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  pollTopic,
  questionTopic,
  REACTION_DESTINATION,
  REACTIONS,
  reactionTopic,
} from '@sea/contract/classroom';
import { chatTopic } from '@sea/contract/chat';
import { frameText, stompFrame } from '../../apps/server/src/stomp/stomp-frame.ts';
import { RawStomp } from '../chat/raw-stomp.ts';

type Setup = { url: string; classId: number; tokens: string[]; actors: number };
const { url, classId, tokens, actors } = workerData as Setup;
const port = parentPort;
if (!port) throw new Error('run as a worker');

const now = (): number => performance.timeOrigin + performance.now();

/** What one subscriber received in the current phase. */
class Tally {
  reactionTimes: number[] = [];
  reactionSum = 0;
  pollTimes: number[] = [];
  questions = 0;
  chat = 0;
  chatIds = new Set<number>();
}

let phase = '';
let tallies = tokens.map(() => new Tally());
let chatLatencies: number[] = [];
let chatLastAt = 0;
let refusals: Record<string, number> = {};
const topics = [chatTopic(classId), questionTopic(classId), pollTopic(classId), reactionTopic(classId)];

const clients = tokens.map((token, index) => {
  const client = new RawStomp(url);
  const ready = client.connect(token).then(
    () =>
      new Promise<void>((resolve) => {
        client.onFrame = (frame) => {
          if (frame.command === 'RECEIPT') {
            if (frame.headers.get('receipt-id') === 'ready') resolve();
            return;
          }
          if (frame.command !== 'MESSAGE') return;
          const tally = tallies[index];
          if (!tally) return;
          const destination = frame.headers.get('destination');
          if (destination === '/user/queue/errors') {
            const { code } = JSON.parse(frameText(frame)) as { code: string };
            refusals[code] = (refusals[code] ?? 0) + 1;
          } else if (destination === topics[3]) {
            tally.reactionTimes.push(now());
            const { counts } = JSON.parse(frameText(frame)) as { counts: Record<string, number> };
            for (const count of Object.values(counts)) tally.reactionSum += count;
          } else if (destination === topics[2]) {
            tally.pollTimes.push(now());
          } else if (destination === topics[1]) {
            tally.questions += 1;
          } else if (destination === topics[0]) {
            const message = JSON.parse(frameText(frame)) as { id: number; content: string };
            const [tag, sentAt] = message.content.split('|');
            if (tag !== phase) return;
            tally.chat += 1;
            tally.chatIds.add(message.id);
            chatLastAt = now();
            chatLatencies.push(chatLastAt - Number(sentAt));
          }
        };
        client.send(stompFrame('SUBSCRIBE', { id: 'errors', destination: '/user/queue/errors' }));
        topics.forEach((destination, i) => {
          const headers: Record<string, string> = { id: `sub-${i}`, destination };
          if (i === topics.length - 1) headers.receipt = 'ready';
          client.send(stompFrame('SUBSCRIBE', headers));
        });
      }),
  );
  return { client, ready };
});

await Promise.all(clients.map((c) => c.ready));
port.postMessage({ type: 'ready' });

/** The largest number of arrivals within any `windowMs` (times sorted). */
function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let start = 0, end = 0; end < times.length; end += 1) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

type Act = { pollId: number; questionId: number; reactions: number; spreadMs: number };

/**
 * The first `actors` subscribers of this thread answer the poll and upvote the question at once, then send
 * their reactions spread over a while.
 */
function act({ pollId, questionId, reactions, spreadMs }: Act): void {
  for (const { client } of clients.slice(0, actors)) {
    const vote = { roomId: classId, pollId, options: [Math.floor(Math.random() * 3)] };
    client.send(stompFrame('SEND', { destination: POLL_VOTE_DESTINATION }, JSON.stringify(vote)));
    const upvote = { roomId: classId, questionId };
    client.send(stompFrame('SEND', { destination: QUESTION_VOTE_DESTINATION }, JSON.stringify(upvote)));
    for (let i = 0; i < reactions; i += 1) {
      const emoji = REACTIONS[Math.floor(Math.random() * REACTIONS.length)];
      const body = JSON.stringify({ roomId: classId, emoji });
      setTimeout(
        () => client.send(stompFrame('SEND', { destination: REACTION_DESTINATION }, body)),
        ((i + Math.random()) * spreadMs) / reactions,
      );
    }
  }
}

port.on('message', (message: { type: string; phase?: string; act?: Act; seconds?: number }) => {
  if (message.type === 'phase') {
    phase = message.phase ?? '';
    tallies = tokens.map(() => new Tally());
    chatLatencies = [];
    chatLastAt = 0;
    refusals = {};
  } else if (message.type === 'act' && message.act) {
    act(message.act);
  } else if (message.type === 'report') {
    port.postMessage({
      type: 'report',
      reactionMaxPerSecond: tallies.map((t) => maxInWindow(t.reactionTimes, 1_000)),
      reactionMaxPer2s: tallies.map((t) => maxInWindow(t.reactionTimes, 2_000)),
      reactionUpdates: tallies.map((t) => t.reactionTimes.length),
      reactionSpanMs: tallies.map((t) => (t.reactionTimes.at(-1) ?? 0) - (t.reactionTimes[0] ?? 0)),
      reactionSums: tallies.map((t) => t.reactionSum),
      minGapMs: tallies.map((t) =>
        t.reactionTimes
          .slice(1)
          .reduce((min, at, i) => Math.min(min, at - (t.reactionTimes[i] ?? 0)), Infinity),
      ),
      polls: tallies.map((t) => t.pollTimes.length),
      pollMaxPerSecond: tallies.map((t) => maxInWindow(t.pollTimes, 1_000)),
      questions: tallies.map((t) => t.questions),
      chat: tallies.reduce((sum, t) => sum + t.chat, 0),
      chatUnique: tallies.map((t) => t.chatIds.size),
      chatLatencies: Float64Array.from(chatLatencies),
      chatLastAt,
      refusals,
      closed: clients.filter((c) => c.client.closed).length,
    });
  } else if (message.type === 'stop') {
    for (const { client } of clients) client.close();
    port.close();
  }
});
