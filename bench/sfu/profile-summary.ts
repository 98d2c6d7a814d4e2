// Where a CPU profile's time went: `node bench/sfu/profile-summary.ts /tmp/sfu-prof/*.cpuprofile` prints, per
// profile (one per thread of the media process with SFU_PROFILE=1), the busy share and the functions with the
// most self time, and the share of a few groups (SRTP, sending, forwarding, werift, garbage collection).
import fs from 'node:fs';
import path from 'node:path';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const TOP = 20;
/** Groups by function name or file, first match wins. */
const GROUPS: [string, RegExp][] = [
  ['SRTP (cipher, encrypt)', /createCipheriv|Cipheriv|encryptRtp|getAuthTag|setAAD|update|final|srtp|gcm/i],
  ['sending (sendmsg, ICE)', /send|Udp|dgram|canSendApplicationData/i],
  ['garbage collection', /\(garbage collector\)/],
  ['idle', /\(idle\)|\(program\)/],
  ['forwarding (ours)', /apps\/media\/src/],
  ['werift (other)', /werift/],
];

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const where = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const group = GROUPS.find(([, re]) => re.test(frame.functionName) || re.test(frame.url))?.[0] ?? 'other';
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / total).toFixed(1)}%`;
  const idle = byGroup.get('idle') ?? 0;
  console.log(`\n${path.basename(file)}: ${(total / 1e6).toFixed(1)} s, busy ${share(total - idle)}`);
  for (const [group, us] of [...byGroup].sort((a, b) => b[1] - a[1])) console.log(`  ${share(us)}  ${group}`);
  console.log('  top functions by self time:');
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${share(us).padStart(6)}  ${name}`);
}
