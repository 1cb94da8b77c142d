// A strict reader of VS Code's snippet syntax (tabstops, placeholders, choices, variables,
// escapes). VS Code itself falls back to literal text on anything malformed; this reader
// reports it instead, so that a snippet never silently turns into something unintended.

export const KNOWN_VARIABLES = new Set([
  'TM_SELECTED_TEXT', 'TM_CURRENT_LINE', 'TM_CURRENT_WORD', 'TM_LINE_INDEX', 'TM_LINE_NUMBER',
  'TM_FILENAME', 'TM_FILENAME_BASE', 'TM_DIRECTORY', 'TM_FILEPATH', 'RELATIVE_FILEPATH',
  'CLIPBOARD', 'WORKSPACE_NAME', 'WORKSPACE_FOLDER', 'CURSOR_INDEX', 'CURSOR_NUMBER',
  'CURRENT_YEAR', 'CURRENT_YEAR_SHORT', 'CURRENT_MONTH', 'CURRENT_MONTH_NAME', 'CURRENT_MONTH_NAME_SHORT',
  'CURRENT_DATE', 'CURRENT_DAY_NAME', 'CURRENT_DAY_NAME_SHORT', 'CURRENT_HOUR', 'CURRENT_MINUTE',
  'CURRENT_SECOND', 'CURRENT_SECONDS_UNIX', 'CURRENT_TIMEZONE_OFFSET', 'RANDOM', 'RANDOM_HEX', 'UUID',
  'BLOCK_COMMENT_START', 'BLOCK_COMMENT_END', 'LINE_COMMENT',
]);

export interface ParsedSnippet {
  tabstops: Map<number, string[]>; // index -> default texts seen
  variables: string[];
  text: string; // the text as inserted with every placeholder at its default
}

export class SnippetSyntaxError extends Error {}

export function parseSnippet(body: string): ParsedSnippet {
  let i = 0;
  const tabstops = new Map<number, string[]>();
  const variables: string[] = [];

  const fail = (msg: string): never => {
    throw new SnippetSyntaxError(`${msg} at offset ${i} in ${JSON.stringify(body)}`);
  };
  const addTab = (n: number, def: string) => {
    const list = tabstops.get(n) ?? [];
    list.push(def);
    tabstops.set(n, list);
  };
  const readInt = (): number | undefined => {
    const m = /^\d+/.exec(body.slice(i));
    if (m === null) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  const readVar = (): string | undefined => {
    const m = /^[_a-zA-Z][_a-zA-Z0-9]*/.exec(body.slice(i));
    if (m === null) return undefined;
    i += m[0].length;
    return m[0];
  };

  // Reads until `stop` (exclusive) at this nesting level; returns the default text.
  const readSequence = (inside: boolean): string => {
    let out = '';
    while (i < body.length) {
      const c = body[i];
      if (c === '\\') {
        const next = body[i + 1];
        if (next === '$' || next === '}' || next === '\\') {
          out += next;
          i += 2;
          continue;
        }
        out += c;
        i += 1;
        continue;
      }
      if (c === '}' && inside) return out;
      if (c === '$') {
        out += readDollar();
        continue;
      }
      out += c;
      i += 1;
    }
    if (inside) fail('unterminated ${...}');
    return out;
  };

  const readDollar = (): string => {
    i += 1; // '$'
    if (body[i] === '{') {
      i += 1;
      const n = readInt();
      if (n !== undefined) {
        if (body[i] === '}') {
          i += 1;
          addTab(n, '');
          return '';
        }
        if (body[i] === ':') {
          i += 1;
          const def = readSequence(true);
          i += 1; // '}'
          addTab(n, def);
          return def;
        }
        if (body[i] === '|') {
          i += 1;
          const end = body.indexOf('|}', i);
          if (end < 0) fail('unterminated choice');
          const options = body.slice(i, end).split(/(?<!\\),/);
          if (options.length === 0 || options.some((o) => o.length === 0)) fail('empty choice option');
          i = end + 2;
          addTab(n, options[0]);
          return options[0];
        }
        if (body[i] === '/') fail('transforms are not used in these snippets');
        return fail('malformed tabstop');
      }
      const v = readVar();
      if (v === undefined) return fail('expected a number or a variable name after ${');
      if (!KNOWN_VARIABLES.has(v)) fail(`unknown variable ${v}`);
      variables.push(v);
      if (body[i] === '}') {
        i += 1;
        return '';
      }
      if (body[i] === ':') {
        i += 1;
        const def = readSequence(true);
        i += 1;
        return def;
      }
      return fail('malformed variable');
    }
    const n = readInt();
    if (n !== undefined) {
      addTab(n, '');
      return '';
    }
    const v = readVar();
    if (v === undefined) return fail('a literal $ must be written \\$');
    if (!KNOWN_VARIABLES.has(v)) fail(`unknown variable ${v} (write \\$ for a literal dollar)`);
    variables.push(v);
    return '';
  };

  const text = readSequence(false);
  return { tabstops, variables, text };
}
