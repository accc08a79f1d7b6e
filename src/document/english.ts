// Nouns in messages, as a person would write them: a collection's singular ("audio-analysis",
// not "audio-analysi") and its article ("an album", not "a album"). A few rules and the common
// exceptions, enough for the words APIs name their collections with.

const UNCHANGED = /(?:ss|us|is|ics|news|series|species|data|media|info)$/i;
const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
};
const KEEP_IE = /(?:movie|cookie|calorie|zombie|rookie|selfie|pie|tie|lie|die)s$/i;

/** The singular of a collection's name: `albums` -> `album`, `categories` -> `category`, `analyses` -> `analysis`. */
export function singular(word: string): string {
  const irregular = IRREGULAR[word.toLowerCase()];
  if (irregular) return irregular;
  const tail = /[^a-z]*([a-z]+)$/i.exec(word)?.[1] ?? word;
  if (tail.length <= 2) return word;
  if (IRREGULAR[tail.toLowerCase()]) return word.slice(0, -tail.length) + IRREGULAR[tail.toLowerCase()];
  if (UNCHANGED.test(word)) return word;
  if (/yses$/i.test(word)) return `${word.slice(0, -4)}ysis`;
  if (KEEP_IE.test(word)) return word.slice(0, -1);
  if (/[^aeiou]ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:x|ch|sh|ss|zz|us)es$/i.test(word)) return word.slice(0, -2);
  if (/s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/** The word with its indefinite article: `an album`, `a user`, `an hour`. */
export function withArticle(word: string): string {
  return `${VOWEL_SOUND.test(word) ? 'an' : 'a'} ${word}`;
}

/** A word said with a vowel first: a, e, i, o, a u not said "you", a silent h, 8, 11, 18. */
const VOWEL_SOUND = /^(?:[aeio]|u(?!ni|s[aeiu]|ti|r[aeiou]|ku|ga|bi)|hour|honest|heir|[18](?:\b|[^0-9])|11|18)/i;
