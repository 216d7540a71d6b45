// Where a JSON text stops being JSON. Node 20's JSON.parse names no position for most syntax
// errors (and quotes a piece of the text instead), so a person told "not JSON" about a large file
// could not find the mistake; this scanner is run only after JSON.parse has failed.

export interface JsonSyntaxError {
  /** 1-based line and column of the first character that cannot be JSON there. */
  line: number;
  column: number;
  problem: string;
}

class Stop {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrt';
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The first syntax error of `text` (RFC 8259 JSON), or undefined when it is valid (or nested too deep to scan). */
export function locateJsonError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const fail = (problem: string): never => {
    throw new Stop(i, problem);
  };
  const found = () => (i >= text.length ? 'the end of the text' : JSON.stringify(text[i]));
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('a string is not closed');
      else if (c === '"') {
        i++;
        return;
      } else if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' && HEX4.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && e !== 'u' && ESCAPES.includes(e)) i += 2;
        else fail('an invalid escape in a string');
      } else if (c < ' ') fail('a control character in a string (write it escaped)');
      else i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${found()}`);
        string();
        space();
        if (text[i] !== ':') fail(`expected ':' after a property name, found ${found()}`);
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(`expected ',' or '}' after a property value, found ${found()}`);
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(`expected ',' or ']' after an array element, found ${found()}`);
      }
    }
    if (c === '"') {
      string();
      return;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      i += number[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    fail(`expected a value, found ${found()}`);
  };
  try {
    value();
    space();
    if (i < text.length) fail(`expected the end of the text after the value, found ${found()}`);
    return undefined;
  } catch (err) {
    // Nesting deeper than the stack: no position to give (the caller falls back to JSON.parse's words).
    if (err instanceof RangeError) return undefined;
    if (!(err instanceof Stop)) throw err;
    const before = text.slice(0, err.offset);
    const line = before.split('\n').length;
    return { line, column: err.offset - (before.lastIndexOf('\n') + 1) + 1, problem: err.problem };
  }
}
