// "Did you mean --port?" for a mistyped flag: yargs' recommendCommands() does this for commands
// only, and its strict mode names an unknown flag without a guess.
import { closest, distance } from 'fastest-levenshtein';

const UNKNOWN = /^Unknown arguments?: (.+)$/;

/** A flag's name as the user typed it: `--max-bodi=5` is `max-bodi`. */
const typedFlags = (argv: readonly string[]) =>
  new Set(argv.filter((arg) => /^--[^-]/.test(arg)).map((arg) => arg.slice(2).split('=')[0]));

/**
 * yargs' "Unknown argument(s): ..." message, with each unknown flag written as a flag and the closest
 * known flag of the command suggested when it is near (at most 2 edits, or a third of its length).
 * Unknown words that are no flags are left as they are; another message (a missing --target) gets
 * the guess for a typed flag that is unknown but near a known one.
 * @example withFlagSuggestions('Unknown argument: prot', ['--prot', '5'], ['port', 'host']) // 'Unknown argument:
 * --prot (did you mean --port?)'
 */
export function withFlagSuggestions(message: string, argv: readonly string[], known: readonly string[]): string {
  const typed = typedFlags(argv);
  const candidates = known.filter((name) => name.length > 1 && !/[A-Z]/.test(name));
  const suggestion = (name: string) => {
    const near = candidates.length > 0 ? closest(name, candidates as string[]) : undefined;
    return near !== undefined && distance(name, near) <= Math.max(2, Math.floor(name.length / 3)) ? near : undefined;
  };
  const found = UNKNOWN.exec(message);
  if (!found) {
    // yargs checks required flags before unknown ones: `--targt URL` is reported as a missing --target.
    const isKnown = (name: string) =>
      known.includes(name) || known.includes(camel(name)) || (name.startsWith('no-') && known.includes(name.slice(3)));
    const hints = [...typed]
      .filter((name) => !isKnown(name) && suggestion(name) !== undefined)
      .map((name) => `--${name}: did you mean --${suggestion(name)}?`);
    return hints.length > 0 ? `${message} (${hints.join('; ')})` : message;
  }
  const listed = found[1].split(', ');
  // yargs lists `--max-bodi` twice, as `max-bodi` and as `maxBodi`.
  const names = listed.filter(
    (name) => typed.has(name) || !listed.some((other) => other !== name && typed.has(other) && camel(other) === name),
  );
  const parts = names.map((name) => {
    if (!typed.has(name)) return name;
    const near = suggestion(name);
    return near !== undefined ? `--${name} (did you mean --${near}?)` : `--${name}`;
  });
  return `Unknown argument${parts.length > 1 ? 's' : ''}: ${parts.join(', ')}`;
}

const camel = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
