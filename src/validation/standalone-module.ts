// Ajv's standalone code (ajv/dist/standalone, MIT) for many exports, written in steps. Ajv's own
// standaloneCode appends each export to one growing code object, which copies it every time:
// seconds for Stripe's document, in one piece (docs/performance.md §10.16). This writes the same module (each
// shared function once, every export by name) in linear time, one export per step, so that the
// mock's warm-up can write it between other work.
import type { Ajv } from 'ajv';
import { _, _Code, getProperty, nil, type Code } from 'ajv/dist/compile/codegen/code.js';
import { UsedValueState, type UsedScopeValues, type ValueScopeName } from 'ajv/dist/compile/codegen/scope.js';
import type { SourceCode } from 'ajv/dist/types/index.js';

/**
 * The CommonJS text of a module exporting Ajv's validate function for each `refs` entry (export
 * name -> schema id), one export per step; the generator's return value is the module text.
 * The Ajv instance must have been made with `code: { source: true }`.
 */
export function* standaloneModule(ajv: Ajv, refs: Record<string, string>): Generator<void, string> {
  const usedValues: UsedScopeValues = {};
  const parts: string[] = ['"use strict";'];
  for (const [name, id] of Object.entries(refs)) {
    const validate = ajv.getSchema(id);
    if (!validate?.source) throw new Error(`standalone code: no compiled schema with id ${id}`);
    parts.push(
      _`exports${getProperty(name)} = ${validate.source.validateName};`.toString(),
      validateCode(validate.source).toString(),
    );
    yield;
  }
  return parts.join('\n');

  // Ajv's validateCode, as standalone/index.js has it.
  function validateCode(source: SourceCode | undefined): Code {
    if (!source) throw new Error('standalone code: a function has no "source" property');
    if (usedState(source.validateName) === UsedValueState.Completed) return nil;
    setUsedState(source.validateName, UsedValueState.Started);
    const scopeCode = ajv.scope.scopeCode(source.scopeValues, usedValues, refValidateCode);
    const code = new _Code(`${scopeCode.toString()}\n${source.validateCode}`);
    return source.evaluated ? _`${code}${source.validateName}.evaluated = ${source.evaluated};\n` : code;
  }

  function refValidateCode(n: ValueScopeName): Code | undefined {
    const ref = n.value?.ref as unknown;
    if (n.prefix === 'validate' && typeof ref === 'function')
      return validateCode((ref as { source?: SourceCode }).source);
    if ((n.prefix === 'root' || n.prefix === 'wrapper') && typeof ref === 'object' && ref !== null) {
      const { validate, validateName } = ref as { validate?: { source?: SourceCode }; validateName?: ValueScopeName };
      if (!validateName) throw new Error('standalone code: ajv internal error');
      const wrapper = _`const ${n} = {validate: ${validateName}};`;
      if (usedState(validateName) === UsedValueState.Started) return wrapper;
      return _`${wrapper}\n${validateCode(validate?.source)}`;
    }
    return undefined;
  }

  function usedState(name: ValueScopeName): UsedValueState | undefined {
    return usedValues[name.prefix]?.get(name);
  }

  function setUsedState(name: ValueScopeName, state: UsedValueState): void {
    (usedValues[name.prefix] ??= new Map()).set(name, state);
  }
}
