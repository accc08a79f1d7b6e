// The example module's public face. Importing it loads json-schema-faker, so the mock imports it
// lazily (on the first generated body) and pays nothing until then. The mock imports
// generate-one.ts, not this file: the payload renderers here bring the YAML library, which a
// page's bundle would otherwise carry for nothing.
export {
  createExampleGenerator,
  type ExampleGenerator,
  type ExampleOptions,
  type InvalidExampleOptions,
} from './example-generator.ts';
export { type InvalidExample, type InvalidRule } from './invalid-examples.ts';
export { toCurl, toFixture, type Fixture, type Payload } from './payload-shapes.ts';
export { PAYLOAD_FORMATS, PAYLOAD_SHAPES, type PayloadFormat, type PayloadShape } from './payload-formats.ts';
export { renderPayloads, type RenderOptions } from './render-payloads.ts';
export { resolveTarget, schemaNames, type ExampleTarget } from '../document/resolve-target.ts';
export { generateOne, invalidExamples } from './generate-one.ts';
