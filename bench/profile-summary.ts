// Reads a V8 .cpuprofile (node --cpu-prof) and sums self time by function, by file and by
// package, so the hot spots of the mock under load can be read without opening DevTools.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ROOT } from './servers.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Sampled time that was not idle, in ms; the percentages are of this. */
  busyMs: number;
  idleMs: number;
  functions: HotSpot[];
  files: HotSpot[];
  packages: HotSpot[];
}

const rootUrl = `${pathToFileURL(ROOT).href}/`;

function fileOf(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  return frame.url.startsWith(rootUrl) ? frame.url.slice(rootUrl.length) : frame.url;
}

/** Where a file belongs: src/<folder>, node_modules/<package>, node internals, or a V8 bucket. */
function packageOf(file: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inModules) return `node_modules/${inModules[1]}`;
  if (file.startsWith('src/')) return file.split('/').slice(0, 2).join('/');
  if (file.startsWith('node:')) return 'node: (Node.js internals)';
  return file;
}

function top(totals: Map<string, number>, busyMs: number, count: number): HotSpot[] {
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, selfMs]) => ({ name, selfMs, percent: (selfMs / busyMs) * 100 }));
}

export function summariseProfile(file: string, count = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; the time after it (delta i+1) was spent in it.
  for (let i = 0; i < profile.samples.length; i++) {
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  const packages = new Map<string, number>();
  let busyMs = 0;
  let idleMs = 0;
  for (const [id, us] of selfUs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const ms = us / 1000;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const where = fileOf(frame);
    // Native frames (JSON.parse, a socket write, ...) have no file: their names are the information.
    const name = frame.url ? `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}` : frame.functionName.startsWith('(') ? where : `${frame.functionName} (native)`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    files.set(where, (files.get(where) ?? 0) + ms);
    packages.set(packageOf(where), (packages.get(packageOf(where)) ?? 0) + ms);
  }
  return { file, busyMs, idleMs, functions: top(functions, busyMs, count), files: top(files, busyMs, count), packages: top(packages, busyMs, count) };
}

export function formatProfileSummary(summary: ProfileSummary): string {
  const section = (title: string, spots: HotSpot[]) =>
    [`  ${title}`, ...spots.map((s) => `    ${s.percent.toFixed(1).padStart(5)}%  ${s.selfMs.toFixed(0).padStart(6)} ms  ${s.name}`)].join('\n');
  return [
    `profile ${summary.file}`,
    `  busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms; self time as % of busy`,
    section('top functions (self time)', summary.functions),
    section('top files', summary.files),
    section('by package / src folder', summary.packages),
  ].join('\n');
}
