// The state stage: does a mock keep what was created? For each collection a person reading the
// document would see (collections.ts), against the running mock: create an item with marked values,
// read it back by the id the create's answer gives (its body or its Location), find it in the
// list, update it with new marks and read the update back, delete it and read again. Each step
// records whether it held and, when not, a short reason; a collection keeps what was created when
// the read or the list shows a mark the create sent.
import { findCollections, type Collection, type CollectionKind } from './collections.ts';
import { resolve, type LoadedDocument, type Operation } from './document.ts';
import { markBody, markMaker, type MarkedBody } from './marked-body.ts';
import { buildProbe, parameterValue, pathSegment } from './probe-request.ts';
import type { SchemaJudge } from './schema-judge.ts';
import { send, type SentAnswer } from './send.ts';
import { showableMarks } from './showable-marks.ts';
import { findId, findInList, showsId, showsMark } from './state-answers.ts';

export const STEPS = ['create', 'read', 'list', 'update', 'delete'] as const;
export type StepName = (typeof STEPS)[number];

export interface Step {
  ok: boolean;
  /** A short reason, the same for the same cause across collections (the report groups by it). */
  reason?: string;
  /** What was seen: a status and the start of the answer. */
  detail?: string;
  /** The harness could not take this step (no body it can mark, ...): out of the step's count. */
  unmeasured?: boolean;
  /** It held by the created id: no field the create sent can show in this answer. */
  byId?: boolean;
}

/** Why a create takes no mark, where it is still sent unmarked and its item held to the created id. */
const UNMARKED_CREATES = new Set([
  'no request body declared',
  'no string field to mark',
  'no string field takes a mark',
  'the body is not an object',
]);

/** An id of the created one's shape that no create made: digits for digits, else a fresh mark. */
function controlId(id: string, marks: string[]): string {
  return /^\d+$/.test(id) ? marks[4] : marks[0];
}

export interface CollectionResult {
  path: string;
  itemPath?: string;
  kind: CollectionKind;
  /** Why the harness could not measure this collection at all: out of the count. */
  unmeasured?: string;
  /** The created item's id and where the harness found it. */
  id?: string;
  idFrom?: 'location' | 'answer' | 'request';
  /** The create held and its read or its list showed a mark it sent (or, where none can show, the created id). */
  kept: boolean;
  /** 'id': no field the create sent can show in the read or the list, so the created id was looked for instead. */
  evidence?: 'id';
  /** Only the steps the document declares. */
  steps: Partial<Record<StepName, Step>>;
}

export interface StateResult {
  collections: CollectionResult[];
}

export interface StateSettings {
  /** The stage's time-box: collections not reached by then are unmeasured. */
  timeoutMs: number;
}

const snippet = (answer: SentAnswer) =>
  `${answer.status} ${answer.body.toString('utf8', 0, 160).replace(/\s+/g, ' ').trim()}`.trim();
const ok2xx = (answer: SentAnswer) => answer.status >= 200 && answer.status < 300;

/**
 * The parent path parameters' values, once per collection: an example or sample, serialized, from
 * the item's read, the list or the create, in that order (a read may declare a pattern the create
 * leaves out, as Twilio's `{ConferenceSid}`: its value fits both).
 */
function parentValues(loaded: LoadedDocument, collection: Collection, requests: SchemaJudge): Record<string, string> {
  const values: Record<string, string> = {};
  const ops = [collection.item?.get, collection.list, collection.create].filter((op) => op !== undefined);
  for (const [, name] of collection.path.matchAll(/\{([^{}]+)\}/g)) {
    const declared = (op: Operation) => op.parameters.find((p) => p.in === 'path' && p.name === name);
    const parameter = ops.map(declared).find((p) => p?.schema?.pattern !== undefined) ?? declared(collection.create);
    values[name] = parameter ? pathSegment(parameter, parameterValue(parameter, loaded.doc, requests)) : 'corpus';
  }
  return values;
}

/** What the item path's parameter takes, by its declared type: a person would not put a name where a number goes. */
function acceptsKey(loaded: LoadedDocument, item: NonNullable<Collection['item']>): (id: string) => boolean {
  const op = item.get ?? item.update ?? item.delete;
  const parameter = op?.parameters.find((p) => p.in === 'path' && p.name === item.param);
  const schema = parameter ? resolve(loaded.doc, parameter.schema, '').value : undefined;
  const types: string[] = Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : [];
  if (types.length === 0 || types.includes('string')) return () => true;
  if (types.includes('integer')) return (id) => /^-?\d+$/.test(id);
  if (types.includes('number')) return (id) => id.trim() !== '' && Number.isFinite(Number(id));
  return () => true;
}

export async function runStateStage(
  url: string,
  loaded: LoadedDocument,
  requests: SchemaJudge,
  settings: StateSettings,
): Promise<StateResult> {
  const deadline = performance.now() + settings.timeoutMs;
  const nextMarks = markMaker();
  const collections: CollectionResult[] = [];
  for (const collection of findCollections(loaded)) {
    const result: CollectionResult = {
      path: collection.path,
      itemPath: collection.item?.path,
      kind: collection.kind,
      kept: false,
      steps: {},
    };
    collections.push(result);
    if (performance.now() > deadline) result.unmeasured = `the stage's ${settings.timeoutMs / 1000} s time-box ran out`;
    else await measure(url, loaded, requests, collection, result, nextMarks);
  }
  return { collections };
}

async function measure(
  url: string,
  loaded: LoadedDocument,
  requests: SchemaJudge,
  collection: Collection,
  result: CollectionResult,
  nextMarks: () => string[],
): Promise<void> {
  const parents = parentValues(loaded, collection, requests);
  const call = async (op: Operation, values: Record<string, string>, body?: MarkedBody) => {
    const probe = buildProbe(loaded, requests, op, values);
    if (body) {
      probe.body = body.body;
      probe.headers['content-type'] = body.contentType;
    }
    return send(url, probe);
  };
  const { item, list } = collection;
  const declared = {
    read: item?.get !== undefined,
    list: list !== undefined,
    update: item?.update !== undefined,
    delete: item?.delete !== undefined,
  };
  const notReached = (why: string) => {
    for (const step of ['read', 'list', 'update', 'delete'] as const)
      if (declared[step] && result.steps[step] === undefined)
        result.steps[step] = { ok: false, reason: `${step}: not reached (${why})` };
  };

  const marked = markBody(loaded, requests, collection.create, nextMarks);
  // A create the harness cannot mark (no body, no string field) is still sent as the probes send it: its read and
  // its list are then held to the created id.
  if (!marked.ok && !UNMARKED_CREATES.has(marked.reason)) {
    result.unmeasured = `create: ${marked.reason}`;
    return;
  }
  const created = marked.ok ? marked : undefined;
  const createAnswer = await call(collection.create, parents, created?.body);
  if ('error' in createAnswer) {
    result.steps.create = { ok: false, reason: 'create: no answer', detail: createAnswer.error };
    return notReached('create failed');
  }
  if (createAnswer.status < 200 || createAnswer.status >= 400) {
    result.steps.create = { ok: false, reason: `create: ${createAnswer.status}`, detail: snippet(createAnswer) };
    return notReached('create failed');
  }
  result.steps.create = { ok: true };
  let marks = created?.body.marks ?? [];
  let fields = created?.body.fields ?? [];
  const found = item ? findId(createAnswer, item.param, created?.body.value, acceptsKey(loaded, item)) : undefined;
  const createdId = found?.id ?? findId(createAnswer, 'id', created?.body.value)?.id;
  if (found) [result.id, result.idFrom] = [found.id, found.from];
  // A key that is itself a mark (`{username}`) is in the read's URL: a mock that echoes the path
  // would show it without keeping anything, so the read must show another mark where there is one.
  const evidence = (all: string[]) =>
    found && all.length > 1 && all.includes(found.id) ? all.filter((m) => m !== found.id) : all;
  const itemValues = found && item ? { ...parents, [item.param]: encodeURIComponent(found.id) } : undefined;

  // Only marks the answer's schema can hold count (showable-marks.ts): none left, the step is not measured.
  const cannotShow = (step: string): Step => ({
    ok: false,
    unmeasured: true,
    reason: `${step}: no marked field is a string field of the answer's schema`,
  });
  // Where no mark can show, the created id is the evidence, read or listed; a read is then also sent for an id never
  // created, and a mock that answers that one with its id too (it echoes the path) shows nothing kept.
  const byId = (step: string) => step === 'read' || step === 'list' || step === 'delete, listed again';
  const read = async (step: string, sent: string[], sentFields: string[][]): Promise<Step> => {
    const wanted = showableMarks(loaded, item!.get!, sent, sentFields);
    if (wanted.length === 0 && !(byId(step) && found)) return cannotShow(step);
    const answer = await call(item!.get!, itemValues!);
    if ('error' in answer) return { ok: false, reason: `${step}: no answer`, detail: answer.error };
    if (!ok2xx(answer)) return { ok: false, reason: `${step}: ${answer.status}`, detail: snippet(answer) };
    if (wanted.length === 0) {
      if (!showsId(answer, found!.id))
        return { ok: false, byId: true, reason: `${step}: ${answer.status} without the id`, detail: snippet(answer) };
      const never = controlId(found!.id, nextMarks());
      const control = await call(item!.get!, { ...parents, [item!.param]: encodeURIComponent(never) });
      if (!('error' in control) && ok2xx(control) && showsId(control, never))
        return {
          ok: false,
          byId: true,
          reason: `${step}: an id never created is read back too`,
          detail: snippet(control),
        };
      return { ok: true, byId: true };
    }
    if (!showsMark(answer, evidence(wanted)))
      return { ok: false, reason: `${step}: ${answer.status} without the mark`, detail: snippet(answer) };
    return { ok: true };
  };
  const inList = async (step: string, sent: string[], sentFields: string[][]): Promise<Step & { found?: boolean }> => {
    // A GET on the collection's path that answers one object and no array reads the one item a
    // singleton holds (GitHub's Pages site): the mark is looked for in that object.
    const single = collection.kind.list === 'other';
    const wanted = showableMarks(loaded, list!, sent, sentFields, !single);
    const id = wanted.length === 0 && byId(step) && !single ? createdId : undefined;
    if (wanted.length === 0 && id === undefined) return cannotShow(step);
    const answer = await call(list!, parents);
    if ('error' in answer) return { ok: false, reason: `${step}: no answer`, detail: answer.error };
    if (!ok2xx(answer)) return { ok: false, reason: `${step}: ${answer.status}`, detail: snippet(answer) };
    if (id !== undefined) {
      const listed = findInList(answer, []);
      const held = showsId(answer, id, true);
      const shape =
        listed.shape === 'no list' ? 'no array in the answer' : `no item with the id in the ${listed.shape}`;
      return held
        ? { ok: true, found: true, byId: true }
        : {
            ok: false,
            byId: true,
            found: listed.shape !== 'no list' ? false : undefined,
            reason: `${step}: ${shape}`,
            detail: snippet(answer),
          };
    }
    const where = single
      ? { found: showsMark(answer, wanted), shape: 'one object (a singleton)' }
      : findInList(answer, wanted);
    const miss =
      where.shape === 'no list'
        ? 'no array in the answer'
        : where.shape === 'not JSON'
          ? 'not in the answer (not JSON)'
          : `not in the ${where.shape}`;
    return where.found
      ? { ok: true, found: true }
      : { ok: false, found: false, reason: `${step}: ${miss}`, detail: snippet(answer) };
  };

  if (declared.read)
    result.steps.read = itemValues
      ? await read('read', marks, fields)
      : created
        ? { ok: false, reason: "read: no id in the create's answer", detail: snippet(createAnswer) }
        : // Nothing marked and no id: nothing to look for (the answer's schema declares no key).
          { ok: false, unmeasured: true, reason: "read: no mark sent and no id in the create's answer" };
  if (declared.list) {
    const { found: _found, ...step } = await inList('list', marks, fields);
    result.steps.list = step;
  }
  result.kept = result.steps.read?.ok === true || result.steps.list?.ok === true;
  const measuredShown = [result.steps.read, result.steps.list].filter((step) => step && !step.unmeasured);
  if (measuredShown.length > 0 && measuredShown.every((step) => step!.byId)) result.evidence = 'id';
  const shown = [result.steps.read, result.steps.list].filter((step) => step !== undefined);
  if (shown.length > 0 && shown.every((step) => step.unmeasured))
    result.unmeasured = "no marked field is a string field of the read's or the list's answer";
  if (!itemValues) return notReached("no id in the create's answer");

  if (item!.update && created) {
    const updated = markBody(loaded, requests, item!.update, nextMarks, true, created.body.fields, {
      param: item!.param,
      id: found!.id,
    });
    if (!updated.ok) result.steps.update = { ok: false, unmeasured: true, reason: `update: ${updated.reason}` };
    else {
      const answer = await call(item!.update, itemValues, updated.body);
      if ('error' in answer) result.steps.update = { ok: false, reason: 'update: no answer', detail: answer.error };
      else if (answer.status < 200 || answer.status >= 400)
        result.steps.update = { ok: false, reason: `update: ${answer.status}`, detail: snippet(answer) };
      else {
        const check = declared.read
          ? await read('update, read back', updated.body.marks, updated.body.fields)
          : await inList('update, listed', updated.body.marks, updated.body.fields);
        result.steps.update = check;
        if (check.ok) {
          marks = [...marks, ...updated.body.marks];
          fields = [...fields, ...updated.body.fields];
        }
      }
    }
  }

  if (item!.delete) {
    const answer = await call(item!.delete, itemValues);
    if ('error' in answer) result.steps.delete = { ok: false, reason: 'delete: no answer', detail: answer.error };
    else if (answer.status < 200 || answer.status >= 400)
      result.steps.delete = { ok: false, reason: `delete: ${answer.status}`, detail: snippet(answer) };
    else if (declared.read) {
      const again = await call(item!.get!, itemValues);
      if ('error' in again)
        result.steps.delete = { ok: false, reason: 'delete, read again: no answer', detail: again.error };
      else if (ok2xx(again))
        result.steps.delete = {
          ok: false,
          reason: `delete, read again: ${again.status}${showsMark(again, evidence(marks)) ? ' with the deleted item' : ''}`,
          detail: snippet(again),
        };
      else result.steps.delete = { ok: true };
    } else {
      const listed = await inList('delete, listed again', marks, fields);
      result.steps.delete = listed.unmeasured
        ? { ...listed, reason: `delete, listed again: ${listed.reason}` }
        : listed.found
          ? { ok: false, reason: 'delete, listed again: still in the list', detail: listed.detail }
          : listed.ok === false && listed.found === false
            ? { ok: true }
            : { ok: false, reason: listed.reason, detail: listed.detail };
    }
  }
}
