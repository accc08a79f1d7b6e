// A JSON value written as XML the way OpenAPI's `xml` object describes it: element names from
// `xml.name` (else the property name, and for the root the component's name), `attribute: true`
// properties as attributes, arrays repeated in place or inside a wrapper element (`wrapped`).
// fast-xml-builder writes and escapes the XML; this only maps the schema's naming onto it.
import XMLBuilder from 'fast-xml-builder';
import { resolveSchema } from './schema-shape.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

const ATTRIBUTE = '@_';
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: ATTRIBUTE, format: false });

/** The XML text of a value under a schema, with an XML declaration. */
export function toXml(value: unknown, schema: unknown, document: unknown): string {
  const s = resolveSchema(schema, document);
  const root = xmlOf(s).name ?? componentName(s, document) ?? 'root';
  const items = resolveSchema(s?.items, document);
  // A list at the root: its items named like any item (xml.name, else their component, else "item").
  const tree = Array.isArray(value)
    ? { [root]: { [xmlOf(items).name ?? componentName(items, document) ?? 'item']: mapArray(value, items, document) } }
    : { [root]: mapValue(value, s, document) };
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build(tree)}`;
}

function mapValue(value: unknown, schema: Obj | undefined, document: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return mapArray(value, resolveSchema(schema?.items, document), document);
  if (!isObj(value)) return value;
  const properties = isObj(schema?.properties) ? schema.properties : {};
  const out: Obj = {};
  for (const [name, item] of Object.entries(value)) {
    const propertySchema = resolveSchema(properties[name], document);
    const xml = xmlOf(propertySchema);
    const element = xml.name ?? name;
    if (xml.attribute === true && !isObj(item) && !Array.isArray(item)) {
      out[ATTRIBUTE + element] = mapValue(item, propertySchema, document);
    } else if (Array.isArray(item)) {
      const itemSchema = resolveSchema(propertySchema?.items, document);
      const items = mapArray(item, itemSchema, document);
      // Unwrapped (the default), the items stand in place, named by the items' xml.name.
      const inner = xmlOf(itemSchema).name ?? name;
      if (xml.wrapped === true) out[element] = { [inner]: items };
      else out[inner] = items;
    } else {
      out[element] = mapValue(item, propertySchema, document);
    }
  }
  return out;
}

function mapArray(values: unknown[], itemSchema: Obj | undefined, document: unknown): unknown[] {
  return values.map((item) => mapValue(item, itemSchema, document));
}

function xmlOf(schema: Obj | undefined): { name?: string; attribute?: boolean; wrapped?: boolean } {
  const xml = schema?.xml;
  if (!isObj(xml)) return {};
  return {
    name: typeof xml.name === 'string' ? xml.name : undefined,
    attribute: xml.attribute === true,
    wrapped: xml.wrapped === true,
  };
}

// After dereferencing, a response schema is the very object under components/schemas.
function componentName(schema: Obj | undefined, document: unknown): string | undefined {
  const schemas =
    isObj(document) && isObj(document.components) && isObj(document.components.schemas)
      ? document.components.schemas
      : {};
  for (const [name, candidate] of Object.entries(schemas)) if (candidate === schema) return name;
  return undefined;
}
