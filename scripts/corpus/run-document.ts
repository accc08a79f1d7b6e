// One document's whole measurement, each step time-boxed: plantstore's load, start-up and probes,
// its self-verification, SIGTERM while loading and while listening, then Prism's load, start-up
// and the very same probes, judged the same way.
import { loadDocument, type LoadedDocument } from './document.ts';
import { judgeAnswer, type MissCode } from './judge.ts';
import { freePort, plantstoreArgs, prismArgs, startServer, stop } from './processes.ts';
import { buildProbe, PROBE_TOKEN, type ProbeRequest } from './probe-request.ts';
import { createSchemaJudge, type SchemaJudge } from './schema-judge.ts';
import { selfVerify, type SelfVerifyResult } from './self-verify.ts';
import { runMswStage, type MswResult } from './msw-stage.ts';
import { send } from './send.ts';
import { runStateStage, type StateResult } from './state-stage.ts';
import { LISTENING, measureSigterm, type SigtermResult } from './sigterm.ts';
import type { CorpusDocument } from './sources.ts';

export interface Miss {
  operation: string;
  code: MissCode;
  detail: string;
}

export interface ServerResult {
  loaded: boolean;
  error?: string;
  startMs?: number;
  correct: number;
  /** Of the correct ones, declared 404s for a resource the server does not hold. */
  notFound: number;
  total: number;
  misses: Miss[];
  /** The state stage: which collections keep what was created (unless --no-state). */
  state?: StateResult;
}

export interface DocumentResult {
  name: string;
  origin: string;
  file: string;
  operations: number;
  /** The harness itself could not read the document (then nothing is probed). */
  harnessError?: string;
  /** Probes built with a caveat (security the harness cannot satisfy, no valid body found). */
  caveats: string[];
  plantstore: ServerResult;
  selfVerify?: SelfVerifyResult;
  sigterm?: SigtermResult;
  prism?: ServerResult;
  /** The MSW handlers' answers to the same probes, against a fresh engine's (unless --no-msw). */
  msw?: MswResult;
}

export interface RunSettings {
  root: string;
  prism: boolean;
  msw: boolean;
  state: boolean;
  verify: boolean;
  stateTimeoutMs: number;
  startTimeoutMs: number;
  verifyTimeoutMs: number;
}

const PRISM_LISTENING = /Prism is listening on (http:\/\/\S+)/;

interface Probe {
  label: string;
  request: ProbeRequest;
}

async function runProbes(
  url: string,
  probes: Probe[],
  loaded: LoadedDocument,
  responses: SchemaJudge,
  result: ServerResult,
): Promise<void> {
  for (const [index, probe] of probes.entries()) {
    const answer = await send(url, probe.request);
    result.total++;
    if ('error' in answer) {
      result.misses.push({ operation: probe.label, code: 'no-answer', detail: answer.error });
      continue;
    }
    const verdict = judgeAnswer(loaded.doc, responses, loaded.operations[index], answer);
    if (verdict.ok) {
      result.correct++;
      if (verdict.notFound) result.notFound++;
    } else result.misses.push({ operation: probe.label, code: verdict.code, detail: verdict.detail });
  }
}

export async function runDocument(
  document: CorpusDocument,
  settings: RunSettings,
  say: (line: string) => void,
): Promise<DocumentResult> {
  const result: DocumentResult = {
    name: document.name,
    origin: document.origin,
    file: document.file,
    operations: 0,
    caveats: [],
    plantstore: { loaded: false, correct: 0, notFound: 0, total: 0, misses: [] },
  };
  let loaded: LoadedDocument | undefined;
  let probes: Probe[] = [];
  let responses: SchemaJudge | undefined;
  let requests: SchemaJudge | undefined;
  try {
    loaded = await loadDocument(document.file);
    result.operations = loaded.operations.length;
    responses = createSchemaJudge(loaded.doc, loaded.version, 'response');
    requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
    probes = loaded.operations.map((op) => ({
      label: `${op.method.toUpperCase()} ${op.path}`,
      request: buildProbe(loaded!, requests!, op),
    }));
    for (const probe of probes)
      for (const caveat of probe.request.caveats) result.caveats.push(`${probe.label}: ${caveat}`);
  } catch (error) {
    result.harnessError = (error as Error).message.split('\n')[0].slice(0, 300);
    loaded = undefined;
  }

  say(`  ${document.name}: plantstore mock ...`);
  const started = await startServer(
    process.execPath,
    plantstoreArgs(settings.root, document.file),
    settings.root,
    LISTENING,
    settings.startTimeoutMs,
  );
  if (started.ok) {
    const { server } = started;
    result.plantstore.loaded = true;
    result.plantstore.startMs = server.startMs;
    if (loaded && responses) await runProbes(server.url, probes, loaded, responses, result.plantstore);
    // The probes created resources; the state stage and the verifier each start from an empty
    // store, as on a fresh mock.
    const reset = () =>
      fetch(`${server.url}/__mock/state`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }).catch(
        () => undefined,
      );
    if (settings.state && loaded && requests) {
      say(`  ${document.name}: state ...`);
      await reset();
      result.plantstore.state = await runStateStage(server.url, loaded, requests, {
        timeoutMs: settings.stateTimeoutMs,
      });
    }
    if (settings.verify) {
      say(`  ${document.name}: self-verify ...`);
      await reset();
      result.selfVerify = await selfVerify(
        settings.root,
        document.file,
        server.url,
        settings.verifyTimeoutMs,
        authFlags(loaded?.doc),
      );
    }
    await stop(server.child, 5000);
  } else result.plantstore.error = started.error.slice(0, 300);

  if (settings.msw && loaded && responses) {
    say(`  ${document.name}: msw ...`);
    result.msw = await runMswStage(document.file, loaded, probes, responses);
  }

  say(`  ${document.name}: SIGTERM ...`);
  result.sigterm = await measureSigterm(settings.root, document.file, settings.startTimeoutMs);

  if (settings.prism) {
    say(`  ${document.name}: prism ...`);
    const port = await freePort();
    const prism = await startServer(
      process.execPath,
      prismArgs(settings.root, document.file, port),
      settings.root,
      PRISM_LISTENING,
      settings.startTimeoutMs,
    );
    result.prism = { loaded: prism.ok, correct: 0, notFound: 0, total: 0, misses: [] };
    if (prism.ok) {
      result.prism.startMs = prism.server.startMs;
      if (loaded && responses) await runProbes(prism.server.url, probes, loaded, responses, result.prism);
      if (settings.state && loaded && requests)
        result.prism.state = await runStateStage(prism.server.url, loaded, requests, {
          timeoutMs: settings.stateTimeoutMs,
        });
      await stop(prism.server.child, 5000);
    } else result.prism.error = prism.error.slice(0, 300);
  }
  return result;
}

/**
 * `--auth NAME=VALUE` for every security scheme of the document, as a user of the API would pass
 * its credentials: a basic pair, an API key, a token (the mock accepts any well-formed one).
 */
function authFlags(doc: unknown): string[] {
  const schemes = ((
    doc as { components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> } } | undefined
  )?.components?.securitySchemes ?? {}) as Record<string, { type?: string; scheme?: string }>;
  return Object.entries(schemes).flatMap(([name, scheme]) => {
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic')
      return ['--auth', `${name}=probe:probe-password`];
    if (scheme.type === 'apiKey') return ['--auth', `${name}=probe-key`];
    return ['--auth', `${name}=${PROBE_TOKEN}`];
  });
}
