// The layout of the whole repository, held by dependency-cruiser: no import cycles (type-only imports
// included), and the layers point one way only. Around the library: bin, bench, scripts and test
// stand on src/ and src/ never imports them; test may import bench and scripts (it tests them), never
// the reverse. In bench/, each suite's folder stands on bench/lib/, and neither lib nor a suite
// imports another suite. Inside src/, from the command line down to plain data:
//   cli, index.ts -> proxy | msw -> mock | runner -> example -> document, validation, state -> json, log, http,
// platform, errors
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const BASE = '^src/(json|log|http|platform)/|^src/errors\\.ts$|^src/node-version\\.ts$';
const MODEL = '^src/(document|validation|state)/';
const ABOVE_BASE = '^src/(document|validation|state|example|mock|runner|proxy|msw|cli)/|^src/index\\.ts$';
const ABOVE_MODEL = '^src/(example|mock|runner|proxy|msw|cli)/|^src/index\\.ts$';

const RULES: IForbiddenRuleType[] = [
  { name: 'no-cycles', severity: 'error', from: { path: '^(src|bench|scripts|test|bin)/' }, to: { circular: true } },
  {
    name: 'src-stands-alone',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^(bench|scripts|test|bin)/' },
  },
  { name: 'bin-only-starts-src', severity: 'error', from: { path: '^bin/' }, to: { path: '^(bench|scripts|test)/' } },
  {
    name: 'tools-never-import-tests',
    severity: 'error',
    from: { path: '^(bench|scripts)/' },
    to: { path: '^test/|^bin/' },
  },
  { name: 'bench-and-scripts-apart', severity: 'error', from: { path: '^bench/' }, to: { path: '^scripts/' } },
  { name: 'scripts-and-bench-apart', severity: 'error', from: { path: '^scripts/' }, to: { path: '^bench/' } },
  {
    name: 'bench-lib-below-suites',
    severity: 'error',
    from: { path: '^bench/lib/' },
    to: { path: '^bench/(?!lib/)' },
  },
  {
    name: 'bench-suites-apart',
    severity: 'error',
    from: { path: '^bench/([^/]+)/' },
    to: { path: '^bench/', pathNot: '^bench/($1|lib)/' },
  },
  { name: 'base-stays-below', severity: 'error', from: { path: BASE }, to: { path: ABOVE_BASE } },
  { name: 'model-stays-below', severity: 'error', from: { path: MODEL }, to: { path: ABOVE_MODEL } },
  {
    name: 'example-stays-below',
    severity: 'error',
    from: { path: '^src/example/' },
    to: { path: '^src/(mock|runner|proxy|msw|cli)/|^src/index\\.ts$' },
  },
  {
    name: 'mock-and-runner-apart',
    severity: 'error',
    from: { path: '^src/mock/' },
    to: { path: '^src/(runner|proxy|msw|cli)/|^src/index\\.ts$' },
  },
  {
    name: 'runner-and-mock-apart',
    severity: 'error',
    from: { path: '^src/runner/' },
    to: { path: '^src/(mock|proxy|msw|cli)/|^src/index\\.ts$' },
  },
  {
    name: 'msw-below-cli',
    severity: 'error',
    from: { path: '^src/msw/' },
    to: { path: '^src/(proxy|runner|cli)/|^src/index\\.ts$' },
  },
  // Inside the mock, one request's steps: reading the request, then making the answer, then the admin
  // API that reports on both; the engine and the server (at the folder's top) assemble them.
  {
    name: 'mock-request-first',
    severity: 'error',
    from: { path: '^src/mock/request/' },
    to: { path: '^src/mock/(answer|admin)/' },
  },
  {
    name: 'mock-answer-before-admin',
    severity: 'error',
    from: { path: '^src/mock/answer/' },
    to: { path: '^src/mock/admin/' },
  },
  {
    name: 'mock-steps-below-engine',
    severity: 'error',
    from: { path: '^src/mock/(request|answer|admin)/' },
    to: { path: '^src/mock/(engine|server)\\.ts$' },
  },
  // Inside the runner: cases are generated, then run; running may use what generation planned, never the reverse.
  {
    name: 'runner-generate-before-run',
    severity: 'error',
    from: { path: '^src/runner/generate/' },
    to: { path: '^src/runner/run/' },
  },
  {
    name: 'runner-steps-below-verify',
    severity: 'error',
    from: { path: '^src/runner/(generate|run)/' },
    to: { path: '^src/runner/(verify|verify-options|merge-reports|shard|index)\\.ts$|^src/runner/reporters/' },
  },
  {
    name: 'proxy-below-cli',
    severity: 'error',
    from: { path: '^src/proxy/' },
    to: { path: '^src/cli/|^src/index\\.ts$' },
  },
];

describe('the layout of the repository', () => {
  it('has no import cycles and no import that runs back up a layer', async () => {
    const tsConfig = extractTSConfig('tsconfig.json');
    const result = await cruise(
      ['src', 'bench', 'scripts', 'test', 'bin'],
      {
        validate: true,
        ruleSet: { forbidden: RULES },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: 'tsconfig.json' },
        doNotFollow: { path: 'node_modules' },
        exclude: { path: 'node_modules|^test/msw/vitest-recipe/' },
        outputType: 'err',
      },
      {},
      { tsConfig },
    );
    const output = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
    expect(result.exitCode, output).toBe(0);
  }, 60_000);
});
