// The real-service stage's command line: --help prints its usage, a wrong flag one line and the usage, no stack.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/real-services.ts', ...args], { encoding: 'utf8', timeout: 30_000 });

describe('scripts/real-services.ts', () => {
  it('prints its usage for --help and exits 0', () => {
    const { status, stdout, stderr } = run('--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run real-services/);
    expect(stdout).toContain('--generate N');
    expect(stderr).toBe('');
  });

  it('names an unknown flag in one line, shows the usage and exits 2 without a stack', () => {
    const { status, stderr } = run('--bogus');
    expect(status).toBe(2);
    expect(stderr.split('\n')[0]).toBe("real-services: Unknown option '--bogus'");
    expect(stderr).toContain('Usage: npm run real-services');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
