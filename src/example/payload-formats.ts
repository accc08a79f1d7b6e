// The output choices of `plantstore example`, apart from the code that renders them so that the
// CLI can offer them without loading the renderer.

export const PAYLOAD_FORMATS = ['json', 'ndjson', 'yaml'] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];

export const PAYLOAD_SHAPES = ['body', 'curl', 'fixture'] as const;
export type PayloadShape = (typeof PAYLOAD_SHAPES)[number];
