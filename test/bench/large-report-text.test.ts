// The large-document report says plainly what timed out, and compares only what both servers did.
import { describe, expect, it } from 'vitest';
import { documentRatios, formatDocument, type DocumentReport } from '../../bench/large-documents/report-text.ts';
import { summariseRuns } from '../../bench/large-documents/summary.ts';

const MB = 1048576;
const configs = {
  'plantstore-warm': summariseRuns([
    {
      listeningMs: 2000,
      firstAnswerMs: 2100,
      answers: [
        { operation: 'GET /slow', ms: 450, status: 200 },
        { operation: 'GET /fast', ms: 10, status: 500 },
      ],
      rssBytes: 200 * MB,
      termMs: undefined,
    },
  ]),
  prism: summariseRuns([
    { answers: [], rssBytes: 400 * MB, termMs: 100, stalled: 'no answer to GET / within 60 s of spawn' },
  ]),
};
const report: DocumentReport = {
  name: 'example',
  file: 'pkg@1 api.json',
  megabytes: 2.5,
  operations: 10,
  probe: 'GET /',
  sampled: ['GET /slow', 'GET /fast'],
  configs,
  termWhileLoading: {
    'plantstore-warm': { delayMs: 1000, termMs: 70, listening: false },
    prism: { delayMs: 30000, termMs: 90, listening: true },
  },
  ratios: documentRatios(configs),
};
const text = formatDocument(report, 60);
const row = (title: string) => text.split('\n').find((line) => line.startsWith(title)) ?? '';

describe('formatDocument', () => {
  it.each([
    ['Prism 5.16 ', 'none in 60 s', 'a server that never answered'],
    ['plantstore, warm cache ', '>5 s (1 of 1)', 'a SIGTERM over the limit after listening'],
    ['plantstore, warm cache ', '230 ms / 450 ms', 'the median over operations and the slowest first answer'],
    ['plantstore, warm cache ÷ Prism', '0.50x', 'the RSS ratio, the one figure both have'],
  ])('prints %s with "%s" (%s)', (title, expected) => {
    expect(row(title)).toContain(expected);
  });

  it('names the operations over 200 ms, what stalled, the statuses, and a SIGTERM that came too late for loading', () => {
    expect(text).toContain('first answers over 200 ms: GET /slow 450 ms');
    expect(text).toContain('Prism 5.16: no answer to GET / within 60 s of spawn');
    expect(text).toContain('statuses of the sampled answers 200: 1, 500: 1');
    expect(text).toContain('Prism 5.16: already listening 30000 ms after spawn');
  });

  it('gives no ratio for a figure Prism never produced', () => {
    expect(report.ratios['plantstore-warm']).toEqual({ rssMb: 0.5 });
  });
});
