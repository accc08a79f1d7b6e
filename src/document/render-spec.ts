// `plantstore spec`: the loaded document as one file, dereferenced (every $ref inlined, as the
// toolkit sees it) or bundled (external files pulled in, internal $refs kept). swagger-parser and
// yaml load on use: the CLI imports this file at start-up for SPEC_FORMATS.
import { PlantstoreError } from '../errors.ts';
import type { LoadedSpec } from './loaded-spec.ts';

export const SPEC_FORMATS = ['json', 'yaml'] as const;
export type SpecFormat = (typeof SPEC_FORMATS)[number];
export type SpecMode = 'dereference' | 'bundle';

/**
 * The document as JSON or YAML text, ending with a newline.
 * @example process.stdout.write(await renderSpec(spec, { mode: 'bundle', format: 'yaml' }));
 */
export async function renderSpec(spec: LoadedSpec, options: { mode: SpecMode; format: SpecFormat }): Promise<string> {
  let document: unknown = spec.document;
  if (options.mode === 'bundle') {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    try {
      document = await SwaggerParser.bundle(spec.file);
    } catch (error) {
      throw new PlantstoreError(
        'SPEC_INVALID',
        `${spec.file}: cannot bundle: ${(error as Error).message.split('\n')[0]}`,
      );
    }
  }
  // A dereferenced document shares one object per $ref target; YAML would turn those into
  // anchors and aliases (&a1 / *a1), which many OpenAPI tools do not read.
  if (options.format === 'yaml')
    return (await import('yaml')).default.stringify(document, { aliasDuplicateObjects: false });
  return `${JSON.stringify(document, null, 2)}\n`;
}
