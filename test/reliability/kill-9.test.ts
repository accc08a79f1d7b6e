import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { parseJson } from '../../src/json/exact-json.ts';
import { exitOf, startCliMock } from '../helpers/cli.ts';
import { CANARY } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('kill -9 under load', () => {
  it('loses no acknowledged plant: after a restart on the same file every 200 is there, exactly', async () => {
    const file = join(tempDir('plantstore-kill-'), 'state.log');
    const first = await startCliMock(['--state-file', file, '--quiet', '--token', CANARY]);
    const agent = new Agent({ connections: 20 });
    const acknowledged: string[] = [];
    // The kill comes once 60 creates are acknowledged, with 20 more in flight: not after a guessed time.
    let enough = () => {};
    const enoughAcknowledged = new Promise<void>((resolve) => (enough = resolve));
    let stop = false;
    let next = 0;
    // Ids past 2^53, so exactness is part of what is checked.
    const worker = async () => {
      while (!stop) {
        const id = (9007199254740993n + BigInt(next++ * 2)).toString();
        try {
          const answer = await request(`${first.url}/plants`, {
            dispatcher: agent,
            method: 'POST',
            body: `{"id":${id},"name":"P${id}"}`,
            headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' },
          });
          await answer.body.text();
          if (answer.statusCode === 200 && acknowledged.push(id) === 60) enough();
        } catch {
          // the server died mid-request: that create was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    await enoughAcknowledged;
    const exited = exitOf(first.child);
    first.child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(workers);
    await agent.close();
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    const second = await startCliMock(['--state-file', file, '--quiet']);
    try {
      const state = await request(`${second.url}/__mock/state`);
      const parsed = parseJson(await state.body.text());
      expect(parsed.ok).toBe(true);
      const stored = new Set(
        (
          (parsed as unknown as { value: { collections: Record<string, Array<{ id: bigint }>> } }).value.collections[
            '/plants'
          ] ?? []
        ).map((p) => p.id.toString()),
      );
      const missing = acknowledged.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      expect(readFileSync(file, 'utf8')).not.toContain(CANARY);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
