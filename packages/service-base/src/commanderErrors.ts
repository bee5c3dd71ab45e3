import type { Command, CommanderError } from 'commander';

/** Commander's outcomes that are not errors: the help or version asked for, already printed. */
const notErrors = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

export function isCommanderError(error: CommanderError): boolean {
  return !notErrors.has(error.code);
}

/** The allowed values of the option written `flags` (e.g. "--mode <mode>") in any command. */
function choicesOf(command: Command, flags: string): readonly string[] | undefined {
  const own = command.options.find((option) => option.flags === flags)?.argChoices;
  if (own) return own;
  for (const sub of command.commands) {
    const found = choicesOf(sub, flags);
    if (found) return found;
  }
  return undefined;
}

/**
 * Commander's own errors in the CLI's words: one line naming the option and, where the option
 * has a fixed set of values, the values (main.ts prefixes "quotes-admin: ").
 */
export function commanderErrorLine(error: CommanderError, program: Command): string {
  const text = error.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  const invalid = /^option '(-[\w-]+)[^']*' argument '(.*)' is invalid\. (.*)$/.exec(text);
  if (invalid) {
    const [, name, value, why] = invalid as unknown as [string, string, string, string];
    const choices = /^Allowed choices are (.*)\.$/.exec(why)?.[1];
    if (choices) return `${name} must be one of ${choices}; got '${value}'`;
    return why.includes(value) ? why : `${why}; got '${value}'`;
  }
  const missing = /^required option '((-[\w-]+)[^']*)' not specified$/.exec(text);
  if (missing) {
    const choices = choicesOf(program, missing[1]!);
    return `${missing[2]} is required${choices ? `: one of ${choices.join(', ')}` : ''}`;
  }
  return text;
}
