// One class across two media nodes in real Chromium, media on loopback: the teacher page publishes the fake
// camera, microphone, screen and system audio on node A (the origin); a student page enters node B (an edge,
// its ticket naming A) on the top layer. Prints one JSON object with what was measured; chromium-edge.test.ts
// runs this (inside its own network namespace when it can) and checks the figures.
import { signTicket, startTestMedia, type Claims } from '../test-media-server.ts';
import { serveBundle } from './bundle-site.ts';
import { call, inbound, launchChromium, openPage, received, sleep, type Inbound } from './harness-pages.ts';

const site = await serveBundle(new URL('./harness-entry.ts', import.meta.url));
const origin = await startTestMedia({ teacherGraceMs: 10_000, nodeId: 'node-a' });
const edge = await startTestMedia({ teacherGraceMs: 10_000, nodeId: 'node-b' });
const browser = await launchChromium();
const result: Record<string, unknown> = {};
try {
  const open = (claims: Claims) => openPage(browser, site.url, claims);

  const teacher = await open({ role: 'teacher' });
  result.published = await call(teacher, 'teacher', origin.url);
  const student = await open({ role: 'student', sub: 'edge-student', origin: origin.url });
  // Once the edge is gone, a fresh ticket from the API server would name the origin (placement skips a node
  // whose registry entry went stale): the harness answers as it would.
  await student.exposeFunction('relocateTicket', async () => ({
    url: origin.url,
    ticket: await signTicket({ role: 'student', sub: 'edge-student' }),
  }));
  const joinedAt = performance.now();
  await call(student, 'student', edge.url, 'f');
  const webcamOf = (stats: Inbound[]) => stats.find((s) => s.kind === 'webcamVideo');
  let firstFrameMs: number | null = null;
  let topLayerMs: number | null = null;
  for (let t = 0; t < 60 && topLayerMs === null; t += 1) {
    const webcam = webcamOf(await inbound(student));
    if (firstFrameMs === null && (webcam?.framesDecoded ?? 0) > 0)
      firstFrameMs = performance.now() - joinedAt;
    if (webcam?.frameWidth === 1280) topLayerMs = performance.now() - joinedAt;
    else await sleep(500);
  }
  const before = await inbound(student);
  await sleep(2_000);
  const after = await inbound(student);
  result.student = { firstFrameMs, topLayerMs, ...received(before, after, 2) };
  result.nodes = {
    originStudents: origin.server.room(7)?.studentCount ?? null,
    edgeStudents: edge.server.room(7)?.studentCount ?? null,
    edgeIsEdge: edge.server.isEdge(7),
  };
  // The edge dies mid-lecture: the student is back on the origin, decoding the webcam, within 5 s.
  const decoded = async () => webcamOf(await inbound(student))?.framesDecoded ?? 0;
  let last = await decoded();
  const killedAt = performance.now();
  await edge.kill();
  let backMs: number | null = null;
  let increases = 0;
  for (let t = 0; t < 60 && backMs === null; t += 1) {
    await sleep(250);
    const frames = await decoded();
    // Two increases in a row on the connection in use: video flows again (a new connection starts from 0).
    increases = frames > last && frames > 0 ? increases + 1 : 0;
    if (increases >= 2) backMs = performance.now() - killedAt;
    last = frames;
  }
  result.edgeKilled = { backMs, originStudents: origin.server.room(7)?.studentCount ?? null };

  await call(teacher, 'leave');
  await sleep(1_500);
  result.afterLeave = {
    ended: (await call<string[]>(student, 'events')).filter((e) => e === 'ended').length,
    edgeRooms: edge.server.roomCount,
  };
} catch (error) {
  result.error = String((error as Error).stack ?? error);
} finally {
  await browser.close();
  await edge.close();
  await origin.close();
  site.close();
}
process.stdout.write(`HARNESS_RESULT ${JSON.stringify(result)}\n`);
process.exit(0);
