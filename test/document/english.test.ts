import { describe, expect, it } from 'vitest';
import { singular, withArticle } from '../../src/document/english.ts';

describe('nouns in messages', () => {
  it.each([
    ['albums', 'album'],
    ['audio-analysis', 'audio-analysis'],
    ['audio-features', 'audio-feature'],
    ['categories', 'category'],
    ['analyses', 'analysis'],
    ['addresses', 'address'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['statuses', 'status'],
    ['status', 'status'],
    ['movies', 'movie'],
    ['keys', 'key'],
    ['people', 'person'],
    ['series', 'series'],
    ['data', 'data'],
    ['plants', 'plant'],
  ])('the singular of %s is %s', (plural, one) => {
    expect(singular(plural)).toBe(one);
  });

  it.each([
    ['album', 'an album'],
    ['episode', 'an episode'],
    ['item', 'an item'],
    ['order', 'an order'],
    ['user', 'a user'],
    ['unit', 'a unit'],
    ['update', 'an update'],
    ['hour', 'an hour'],
    ['plant', 'a plant'],
    ['audio-analysis', 'an audio-analysis'],
  ])('%s takes its article: %s', (word, phrase) => {
    expect(withArticle(word)).toBe(phrase);
  });
});
