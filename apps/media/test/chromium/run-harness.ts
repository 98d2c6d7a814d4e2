// A live class in real Chromium, media on loopback: one teacher page publishing the fake camera, microphone,
// screen and system audio through the SFU to three student pages with fixed layers q/h/f. Prints one JSON
// object with what was measured; chromium.test.ts runs this (inside its own network namespace when it can)
// and checks the figures.
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { Layer } from '@sea/contract/live';
import { startTestMedia, type Claims } from '../test-media-server.ts';
import { serveBundle } from './bundle-site.ts';
import { call, inbound, launchChromium, openPage, received, sleep, type Inbound } from './harness-pages.ts';

const site = await serveBundle(new URL('./harness-entry.ts', import.meta.url));
const media = await startTestMedia({ teacherGraceMs: 10_000 });

const browser = await launchChromium();
const result: Record<string, unknown> = {};
try {
  const open = (claims: Claims) => openPage(browser, site.url, claims, { consoleErrors: true });

  const teacher = await open({ role: 'teacher' });
  result.published = await call(teacher, 'teacher', media.url);
  const layers: Layer[] = ['q', 'h', 'f'];
  const students: Page[] = [];
  for (const [i, layer] of layers.entries()) {
    const page = await open({ role: 'student', sub: `s${i}` });
    await call(page, 'student', media.url, layer);
    students.push(page);
  }
  const firstFrameAt = performance.now();
  const webcamOf = (stats: Inbound[]) => stats.find((s) => s.kind === 'webcamVideo');
  const expectedWidth = { q: 320, h: 640, f: 1280 };
  // Chrome ramps its bandwidth estimate up before it sends the upper layers: wait until each student gets its
  // layer's resolution (bounded).
  const reached: Record<string, number | null> = {};
  for (let t = 0; t < 40; t += 1) {
    const widths = await Promise.all(
      students.map(async (page) => webcamOf(await inbound(page))?.frameWidth ?? 0),
    );
    layers.forEach((layer, i) => {
      if (reached[layer] == null && widths[i] === expectedWidth[layer])
        reached[layer] = performance.now() - firstFrameAt;
    });
    if (layers.every((layer) => reached[layer] != null)) break;
    await sleep(500);
  }
  result.layerReachedMs = reached;
  const before = await Promise.all(students.map(inbound));
  await sleep(2_000);
  const after = await Promise.all(students.map(inbound));
  result.students = layers.map((layer, i) => ({
    layer,
    webcamHeight: webcamOf(after[i] ?? [])?.frameHeight ?? 0,
    ...received(before[i] ?? [], after[i] ?? [], 2),
  }));

  // The q student switches to f: the resolution changes and frames keep coming (no freeze over 1 s).
  const switcher = students[0] as Page;
  await call(switcher, 'setLayer', 'f');
  const samples: { at: number; frames: number; width: number }[] = [];
  const switchStart = performance.now();
  for (let t = 0; t < 24; t += 1) {
    const webcam = webcamOf(await inbound(switcher));
    samples.push({
      at: performance.now() - switchStart,
      frames: webcam?.framesDecoded ?? 0,
      width: webcam?.frameWidth ?? 0,
    });
    await sleep(250);
  }
  const switched = samples.find((s) => s.width === 1280);
  let longestStallMs = 0;
  let lastChange = samples[0]?.at ?? 0;
  for (let i = 1; i < samples.length; i += 1) {
    const current = samples[i];
    const previous = samples[i - 1];
    if (!current || !previous) continue;
    if (current.frames > previous.frames) lastChange = current.at;
    else longestStallMs = Math.max(longestStallMs, current.at - lastChange);
  }
  result.layerSwitch = {
    switchedAfterMs: switched?.at ?? null,
    longestStallMs,
    finalWidth: samples.at(-1)?.width ?? 0,
  };

  // The teacher turns the webcam off and on: students follow without a reload (video decodes again).
  await call(teacher, 'webcam', false);
  await sleep(1_500);
  const atOff = await Promise.all(
    students.map(async (page) => webcamOf(await inbound(page))?.framesDecoded ?? 0),
  );
  await call(teacher, 'webcam', true);
  const onAt = performance.now();
  const resumedMs: (number | null)[] = students.map(() => null);
  for (let t = 0; t < 30 && resumedMs.some((v) => v === null); t += 1) {
    await sleep(500);
    const frames = await Promise.all(
      students.map(async (page) => webcamOf(await inbound(page))?.framesDecoded ?? 0),
    );
    frames.forEach((count, i) => {
      if (resumedMs[i] === null && count > (atOff[i] ?? 0) + 5) resumedMs[i] = performance.now() - onAt;
    });
  }
  const events = (page: Page) =>
    page.evaluate(() => (globalThis as never as { harness: { events(): string[] } }).harness.events());
  result.webcamToggle = { events: await Promise.all(students.map(events)), resumedMs };

  // The network goes away and comes back (loopback down, then up: only inside the harness's own network
  // namespace). Both sides recover by themselves: the teacher's four streams are published again and every
  // student decodes the webcam again. Short outages go unnoticed by signalling (ICE comes back); long ones
  // drop the signalling connections (reconnection, then the room is started and joined again).
  if (process.env.SEA_NETNS === '1') {
    type Status = { signalling: string; media: string; streams: Record<string, string> };
    const status = (page: Page) =>
      page.evaluate(() => (globalThis as never as { harness: { status(): Status } }).harness.status());
    const outage = async (downMs: number) => {
      execFileSync('ip', ['link', 'set', 'lo', 'down']);
      await sleep(downMs);
      execFileSync('ip', ['link', 'set', 'lo', 'up']);
      const upAt = performance.now();
      let teacherMs: number | null = null;
      const studentMs: (number | null)[] = students.map(() => null);
      const increases = students.map(() => 0);
      let last = await Promise.all(
        students.map(async (page) => webcamOf(await inbound(page))?.framesDecoded ?? 0),
      );
      for (let t = 0; t < 80 && (teacherMs === null || studentMs.some((v) => v === null)); t += 1) {
        await sleep(250);
        const now = performance.now() - upAt;
        const teacherStatus = await status(teacher);
        if (
          teacherMs === null &&
          teacherStatus.signalling === 'connected' &&
          teacherStatus.media === 'connected' &&
          Object.values(teacherStatus.streams).every((s) => s === 'published')
        )
          teacherMs = now;
        const frames = await Promise.all(
          students.map(async (page) => webcamOf(await inbound(page))?.framesDecoded ?? 0),
        );
        frames.forEach((count, i) => {
          // Two increases in a row (frames counted on the connection in use): video flows again.
          increases[i] = count > (last[i] ?? 0) ? (increases[i] ?? 0) + 1 : 0;
          if (studentMs[i] === null && (increases[i] ?? 0) >= 2) studentMs[i] = now;
        });
        last = frames;
        if (process.env.HARNESS_TRACE) {
          const st = await Promise.all(students.map(status));
          console.error(
            `t=${Math.round(now)} teacher=${teacherStatus.signalling}/${teacherStatus.media}/${Object.values(teacherStatus.streams).join(',')} ` +
              st.map((x, i) => `${x.signalling}/${x.media}/${frames[i]}`).join(' '),
          );
        }
      }
      return {
        downMs,
        teacherMs,
        studentMs,
        teacher: await status(teacher),
        students: await Promise.all(students.map(status)),
      };
    };
    result.outages = [await outage(3_000), await outage(9_000)];
  }

  // The teacher leaves: every student hears `ended`, the class is reported not live.
  await call(teacher, 'leave');
  await sleep(1_000);
  result.afterLeave = {
    ended: await Promise.all(
      students.map(async (page) => (await events(page)).filter((e) => e === 'ended').length),
    ),
    closedRooms: media.reports.closed.length,
    rooms: media.server.roomCount,
  };
} catch (error) {
  result.error = String((error as Error).stack ?? error);
} finally {
  await browser.close();
  await media.close();
  site.close();
}
process.stdout.write(`HARNESS_RESULT ${JSON.stringify(result)}\n`);
process.exit(0);
