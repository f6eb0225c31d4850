import { ValidationError } from '../errors';

/** POSIX word splitting without expansions: the original ran commands through a shell, so they were written for one. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1])) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 >= command.length) throw unterminated('a trailing backslash');
      const next = command[++i];
      if (next !== '\n') word += next; // backslash-newline continues the line
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw unterminated(`an unterminated ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  return words;
}

function unterminated(what: string): ValidationError {
  return new ValidationError(`command has ${what}`, ['command']);
}
