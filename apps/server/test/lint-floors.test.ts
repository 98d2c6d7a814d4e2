import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's floors (SERVER_FLOORS in eslint.config.js): a folder of apps/server/src imports only the
// floors below its own. These lint made-up files in place, as `npm run lint` would read them.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SRC = path.join(ROOT, 'apps/server/src');
const RULE = 'import-x/no-restricted-paths';
// The cycle check follows every import through the tree; these files only ask about floors.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } });

/** The floor rule's messages for `code` written at `file` (under `root`, apps/server/src by default). */
async function floorErrors(file: string, code: string, root = SRC): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

type Probes = Record<string, { file: string; imports: string }>;

/** A floor plan's two checks: upward probes refused with the floors' message, downward ones allowed. */
function probeFloors(root: string, upward: Probes, downward: Probes): void {
  it.each(Object.entries(upward))('refuses an import that runs back up: %s', async (_case, probe) => {
    const errors = await floorErrors(probe.file, `export * from '${probe.imports}';\n`, root);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('imports only the floors below');
  });

  it.each(Object.entries(downward))('lets an import run down: %s', async (_case, probe) => {
    expect(await floorErrors(probe.file, `export * from '${probe.imports}';\n`, root)).toEqual([]);
  });
}

// Made-up files: where each stands, and what it imports.
const UPWARD = {
  'a domain importing a surface': { file: 'sessions/probe.ts', imports: '../replays/replay-urls.ts' },
  'a plugin importing a domain': { file: 'plugins/probe.ts', imports: '../classes/class-role.ts' },
  'the configuration importing the chat': { file: 'config.ts', imports: './chat/register-chat.ts' },
  'the kernel importing the configuration': { file: 'storage/probe.ts', imports: '../config.ts' },
  'a neighbour on the same floor': { file: 'enrolments/probe.ts', imports: '../schedules/schedule-store.ts' },
  'a domain importing the composition root': { file: 'classes/probe.ts', imports: '../app.ts' },
  'the STOMP codec importing the room bus': { file: 'stomp/probe.ts', imports: '../room-bus/room-broker.ts' },
  'the room bus importing the chat': { file: 'room-bus/probe.ts', imports: '../chat/chat-messages.ts' },
};
const DOWNWARD = {
  'a domain importing a plugin': { file: 'classes/probe.ts', imports: '../plugins/auth.ts' },
  'a surface importing domains': { file: 'dashboard/probe.ts', imports: '../schedules/schedule-store.ts' },
  'a folder importing itself': { file: 'replays/probe.ts', imports: './replay-urls.ts' },
  'the room bus importing the STOMP codec': { file: 'room-bus/probe.ts', imports: '../stomp/stomp-frame.ts' },
  'the chat importing the room bus': { file: 'chat/probe.ts', imports: '../room-bus/room-action.ts' },
  'a test driving its floor through the app': { file: 'plugins/probe.test.ts', imports: '../app.ts' },
};

describe('the server’s floors in lint', () => {
  probeFloors(SRC, UPWARD, DOWNWARD);

  it('has every folder and top-level file of the server on a floor', async () => {
    const entries = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || /^[^.]+\.ts$/.test(entry.name))
      .map((entry) => entry.name);
    expect(entries.length).toBeGreaterThan(20);
    for (const name of entries) {
      const file = entry(name);
      const config = (await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown[]> };
      const [, options] = config.rules[RULE] as [unknown, { zones: { target: string; message: string }[] }];
      const own = options.zones.filter((zone) => zone.target === `apps/server/src/${name}`);
      expect(own.map((zone) => zone.message).join(), name).not.toContain('no floor');
    }
  });
});

/** A file that stands where `name` does: the file itself, or one inside the folder. */
function entry(name: string): string {
  return name.endsWith('.ts') ? path.join(SRC, name) : path.join(SRC, name, 'probe.ts');
}

// The web app's floors (WEB_FLOORS in eslint.config.js), held by the same rule.
const WEB = path.join(ROOT, 'apps/web/src');
const WEB_UPWARD = {
  'a test helper importing the app': { file: 'testing/probe.tsx', imports: '../app/routes.tsx' },
  'a test helper importing a feature': {
    file: 'testing/probe.tsx',
    imports: '../features/chat/components/chat-panel.tsx',
  },
  'lib importing a component': { file: 'lib/probe.ts', imports: '../components/ui/button.tsx' },
  'a component importing a feature': { file: 'components/probe.tsx', imports: '../features/chat/texts.ts' },
  'a feature importing the app': { file: 'features/chat/probe.ts', imports: '../../app/routes.tsx' },
};
const WEB_DOWNWARD = {
  "a feature's test helper importing the test helpers": {
    file: 'features/chat/test/probe.tsx',
    imports: '../../../testing/render.tsx',
  },
  'the app importing a feature': { file: 'app/probe.tsx', imports: '../features/chat/texts.ts' },
  'a lib test driving it through the test helpers': {
    file: 'lib/probe.test.ts',
    imports: '../testing/fetch-mock.ts',
  },
};

describe('the web app’s floors in lint', () => {
  probeFloors(WEB, WEB_UPWARD, WEB_DOWNWARD);
});
