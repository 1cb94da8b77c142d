// The TextMate grammar, tokenized by vscode-textmate + vscode-oniguruma: golden scope dumps of
// every fixture, plus targeted checks of the constructs that matter most.
// Regenerate the goldens with `UPDATE_GOLDEN=1 npm test` (or `npm run update-golden`) and
// review them with `git diff test/golden`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { dumpScopes, EXTENSION_ROOT, Token, tokenize, tokenizeView } from './support/textmate';

const FIXTURES = path.join(EXTENSION_ROOT, 'test', 'fixtures');
const GOLDEN = path.join(EXTENSION_ROOT, 'test', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

describe('grammar golden scope dumps', () => {
  const fixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.fitz')).sort();
  it('has fixtures', () => assert.ok(fixtures.length >= 5, `only ${fixtures.length} fixtures`));
  for (const fixture of fixtures) {
    it(fixture, async () => {
      const dump = dumpScopes(await tokenize(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8')));
      const golden = path.join(GOLDEN, fixture.replace(/\.fitz$/, '.scopes'));
      if (UPDATE || !fs.existsSync(golden)) {
        fs.mkdirSync(GOLDEN, { recursive: true });
        fs.writeFileSync(golden, dump);
        if (!UPDATE) assert.fail(`wrote missing golden ${path.relative(EXTENSION_ROOT, golden)}; review it and run again`);
        return;
      }
      const expected = fs.readFileSync(golden, 'utf8');
      if (dump !== expected) {
        const a = expected.split('\n');
        const b = dump.split('\n');
        const i = a.findIndex((line, k) => line !== b[k]);
        assert.fail(
          `${fixture}: scopes differ from ${path.relative(EXTENSION_ROOT, golden)} (UPDATE_GOLDEN=1 npm test to accept)\n` +
            `first difference at dump line ${i + 1}:\n  expected: ${a[i]}\n  actual:   ${b[i]}`,
        );
      }
    });
  }
  it('every golden has a fixture', () => {
    for (const g of fs.readdirSync(GOLDEN)) {
      assert.ok(fixtures.includes(g.replace(/\.scopes$/, '.fitz')), `stale golden ${g}`);
    }
  });
});

// ---- targeted assertions ------------------------------------------------------------------

async function tokensOf(source: string, withSql = true): Promise<Token[]> {
  return tokenize(source, withSql);
}

/** The n-th (0-based) token whose text is exactly `text`. */
function find(tokens: readonly Token[], text: string, n = 0): Token {
  const hits = tokens.filter((t) => t.text === text);
  const t = hits[n];
  if (t === undefined) {
    assert.fail(`no token ${JSON.stringify(text)} #${n}; tokens: ${tokens.map((x) => JSON.stringify(x.text)).join(' ')}`);
  }
  return t;
}

function hasScope(t: Token, prefix: string): boolean {
  return t.scopes.some((s) => s === prefix || s.startsWith(prefix + '.'));
}

function assertScope(t: Token, prefix: string): void {
  assert.ok(hasScope(t, prefix), `${JSON.stringify(t.text)} at ${t.line}:${t.column} lacks ${prefix}: [${t.scopes.join(', ')}]`);
}

function assertNoScope(t: Token, prefix: string): void {
  assert.ok(!hasScope(t, prefix), `${JSON.stringify(t.text)} at ${t.line}:${t.column} should not have ${prefix}: [${t.scopes.join(', ')}]`);
}

describe('grammar: comments and keywords', () => {
  it('line and block comments', async () => {
    const t = await tokensOf('let a = 1 // trailing\n/* block\n still */ let b = 2');
    assertScope(find(t, ' trailing'), 'comment.line.double-slash');
    assertScope(find(t, ' still '), 'comment.block');
    assertScope(find(t, 'let', 1), 'storage.type.let');
  });
  it('keyword groups', async () => {
    const src = 'if a { } else { } for x in xs { } while c { } loop { break } match v { _ => 1 }\n' +
      'return continue\nasync fn f() { x.await }\nimport m\nfrom m import x as y\nstatic\ntype T {}\na and b or c xor not d';
    const t = await tokensOf(src);
    for (const k of ['if', 'else', 'match']) assertScope(find(t, k), 'keyword.control.conditional');
    for (const k of ['for', 'in', 'while', 'loop']) assertScope(find(t, k), 'keyword.control.loop');
    for (const k of ['return', 'continue', 'break']) assertScope(find(t, k), 'keyword.control.flow');
    assertScope(find(t, 'await'), 'keyword.control.await');
    for (const k of ['import', 'from', 'as']) assertScope(find(t, k), 'keyword.control.import');
    assertScope(find(t, 'async'), 'storage.modifier.async');
    assertScope(find(t, 'static'), 'storage.modifier.static');
    assertScope(find(t, 'fn'), 'storage.type.function');
    assertScope(find(t, 'type'), 'storage.type.type');
    for (const k of ['and', 'or', 'xor', 'not']) assertScope(find(t, k), 'keyword.operator.logical');
  });
  it('keywords inside identifiers are not keywords', async () => {
    const t = await tokensOf('let type_name = format_if + android');
    assertScope(find(t, 'type_name'), 'variable.other.readwrite');
    assertScope(find(t, 'format_if'), 'variable.other.readwrite');
    assertScope(find(t, 'android'), 'variable.other.readwrite');
  });
  it('labels', async () => {
    const t = await tokensOf("'outer: for x in xs { break 'outer }");
    assertScope(find(t, 'outer'), 'entity.name.label');
    assertScope(find(t, "'"), 'punctuation.definition.label');
    assertScope(find(t, 'outer', 1), 'entity.name.label');
  });
  it('constants', async () => {
    const t = await tokensOf('let x = [true, false, null, Ok(1), Err("e"), MAX_SIZE, _]');
    assertScope(find(t, 'true'), 'constant.language.boolean');
    assertScope(find(t, 'null'), 'constant.language.null');
    assertScope(find(t, 'Ok'), 'constant.language.result');
    assertScope(find(t, 'Err'), 'constant.language.result');
    assertScope(find(t, 'MAX_SIZE'), 'variable.other.constant');
    assertScope(find(t, '_'), 'variable.language.wildcard');
  });
});

describe('grammar: numbers', () => {
  const cases: Array<[string, string]> = [
    ['1_000', 'constant.numeric.integer.decimal'],
    ['007', 'constant.numeric.integer.decimal'],
    ['0xFF', 'constant.numeric.integer.hexadecimal'],
    ['0xDEAD_BEEF', 'constant.numeric.integer.hexadecimal'],
    ['0b1010', 'constant.numeric.integer.binary'],
    ['0b1111_0000', 'constant.numeric.integer.binary'],
    ['0o17', 'constant.numeric.integer.octal'],
    ['1.5e-3', 'constant.numeric.float'],
    ['2.50', 'constant.numeric.float'],
    ['1e3', 'constant.numeric.float'],
    ['1.5E2', 'constant.numeric.float'],
    ['1__0', 'invalid.illegal.numeric'],
    ['1_', 'invalid.illegal.numeric'],
  ];
  for (const [text, scope] of cases) {
    it(text, async () => {
      const t = await tokensOf(`let n = ${text} + 1`);
      assertScope(find(t, text), scope);
    });
  }
  it('ranges are not floats: 0..10 and 1..=5', async () => {
    const t = await tokensOf('for i in 0..10 { } for j in 1..=5 { }');
    assertScope(find(t, '0'), 'constant.numeric.integer.decimal');
    assertScope(find(t, '..'), 'keyword.operator.range');
    assertScope(find(t, '10'), 'constant.numeric.integer.decimal');
    assertScope(find(t, '..='), 'keyword.operator.range');
  });
  it('tuple indices are not floats: t.0.1', async () => {
    const t = await tokensOf('print(t.0.1)');
    assertScope(find(t, '0'), 'constant.numeric.integer.decimal');
    assertScope(find(t, '1'), 'constant.numeric.integer.decimal');
    assert.equal(t.filter((x) => x.text === '.').length, 2);
    assert.ok(!t.some((x) => hasScope(x, 'constant.numeric.float')));
  });
});

describe('grammar: strings and interpolation', () => {
  it('escapes', async () => {
    const t = await tokensOf(String.raw`print("a\nb \t \u{1F600} \x41 \{ \} \" \\ \q")`);
    for (const e of [String.raw`\n`, String.raw`\t`, String.raw`\u{1F600}`, String.raw`\x41`, String.raw`\{`, String.raw`\}`, String.raw`\"`, String.raw`\\`]) {
      assertScope(find(t, e), 'constant.character.escape');
    }
    assertScope(find(t, String.raw`\q`), 'invalid.illegal.escape');
  });
  it('the { of a hole is punctuation.section.interpolation and the hole is code', async () => {
    const t = await tokensOf('print("hi {name}!")');
    const open = find(t, '{');
    assertScope(open, 'punctuation.section.interpolation.begin');
    assertScope(open, 'string.quoted.double');
    assertScope(find(t, '}'), 'punctuation.section.interpolation.end');
    const name = find(t, 'name');
    assertScope(name, 'meta.embedded.line.fitz');
    assertScope(name, 'variable.other.readwrite');
    assertScope(find(t, '!'), 'string.quoted.double');
    assertNoScope(find(t, '!'), 'meta.interpolation');
  });
  it('upper in "{name.upper()}" is a method call inside the embedded expression', async () => {
    const t = await tokensOf('print("{name.upper()}")');
    const upper = find(t, 'upper');
    assertScope(upper, 'meta.embedded.line.fitz');
    assertScope(upper, 'meta.function-call');
    assertScope(upper, 'entity.name.function.member');
  });
  it('format specs get their own scope', async () => {
    const t = await tokensOf('print("{score:.2f} {name:*>6} {n:#x} {big:,} {p:.1%} {n:05}")');
    for (const spec of ['.2f', '*>6', '#x', ',', '.1%', '05']) assertScope(find(t, spec), 'constant.other.format-spec');
    assertScope(find(t, ':'), 'punctuation.separator.format-spec');
  });
  it('nested strings and braces inside a hole', async () => {
    const t = await tokensOf('print("{m.get("k:{n}")} and { {"a": 1}.len() } end")');
    assertScope(find(t, 'k:'), 'string.quoted.double');
    assertScope(find(t, 'k:'), 'meta.embedded.line.fitz');
    assertNoScope(find(t, 'k:'), 'constant.other.format-spec');
    assertScope(find(t, 'n'), 'variable.other.readwrite');
    assertScope(find(t, 'get'), 'entity.name.function.member');
    assertScope(find(t, 'len'), 'entity.name.function.member');
    const end = find(t, ' end');
    assertScope(end, 'string.quoted.double');
    assertNoScope(end, 'meta.interpolation');
  });
  it('named argument colons are not format specs', async () => {
    const t = await tokensOf('print("{f(x: 1)}")');
    assert.ok(!t.some((x) => hasScope(x, 'constant.other.format-spec')));
  });
  it('lone } and empty {} are marked invalid', async () => {
    const t = await tokensOf('print("a } b {} c")');
    assertScope(find(t, '}'), 'invalid.illegal.lone-brace');
    assertScope(find(t, '{}'), 'invalid.illegal.empty-interpolation');
  });
  it('an unterminated string stops at the end of its line', async () => {
    const t = await tokensOf('print("open\nlet x = 1');
    assertScope(find(t, 'let'), 'storage.type.let');
    assertNoScope(find(t, 'let'), 'string');
  });
  it('triple-quoted strings span lines, with escapes and holes', async () => {
    const t = await tokensOf('let s = """\n  alpha {name:>4} "q"\n  beta \\t"""\nlet after = 1');
    assertScope(find(t, '  alpha '), 'string.quoted.triple');
    assertScope(find(t, 'name'), 'meta.embedded.line.fitz');
    assertScope(find(t, '>4'), 'constant.other.format-spec');
    assertScope(find(t, '\\t'), 'constant.character.escape');
    assertScope(find(t, 'let', 1), 'storage.type.let');
  });
  it('bytes literals: b"..." with byte escapes and no holes', async () => {
    const t = await tokensOf('let b = b"\\x00 {x} \\u{41}"');
    assertScope(find(t, 'b', 1), 'storage.type.string.bytes');
    assertScope(find(t, '\\x00'), 'constant.character.escape');
    assertScope(find(t, '\\u'), 'invalid.illegal.escape');
    assert.ok(!t.some((x) => hasScope(x, 'meta.interpolation')));
  });
});

describe('grammar: SQL', () => {
  it('"""SELECT ...""" passed to conn.query gets the embedded SQL scope', async () => {
    const t = await tokensOf('let rows = conn.query("""SELECT id FROM users WHERE id = $1""", [id]).await?', false);
    const sql = find(t, 'SELECT id FROM users WHERE id = $1');
    assertScope(sql, 'meta.embedded.block.sql');
    assertScope(find(t, 'query'), 'entity.name.function.member');
    assertScope(find(t, '"""'), 'punctuation.definition.string.begin');
    assertScope(find(t, 'id'), 'variable.other.readwrite');
    assertNoScope(find(t, 'id'), 'meta.embedded');
  });
  it('reaches the SQL grammar (stand-in for VS Code\'s source.sql)', async () => {
    const t = await tokensOf('conn.exec("""\n  INSERT INTO users (name) VALUES ($1)\n""", [n])');
    assertScope(find(t, 'INSERT'), 'keyword.other.sql-stub');
    assertScope(find(t, 'INSERT'), 'meta.embedded.block.sql');
    assertScope(find(t, '$1'), 'variable.parameter.sql-stub');
  });
  it('"..." passed to .exec( is SQL too, and holes stay Fitz', async () => {
    const t = await tokensOf('tx.exec("DELETE FROM t WHERE name = \'{who}\'", [])', false);
    assertScope(find(t, 'who'), 'meta.embedded.line.fitz');
    assert.ok(t.some((x) => x.text.includes('DELETE FROM t') && hasScope(x, 'meta.embedded.line.sql')));
  });
  it('holes inside the SQL grammar\'s quoted strings stay visible', async () => {
    const t = await tokensOf('conn.exec("""UPDATE users SET name = \'{body.name}\' WHERE id = $1""", [i])');
    assertScope(find(t, 'body'), 'meta.embedded.line.fitz');
    assertScope(find(t, '{'), 'punctuation.section.interpolation.begin');
    assertScope(find(t, 'name'), 'variable.other.property');
  });
  it('the SQL string may start on the next line', async () => {
    const t = await tokensOf('let n = conn.exec(\n    """UPDATE t SET a = 1""",\n    [],\n)', false);
    assert.ok(t.some((x) => x.text.includes('UPDATE t SET') && hasScope(x, 'meta.embedded.block.sql')));
  });
  it('a non-string first argument is left alone', async () => {
    const t = await tokensOf('conn.query(sql, ["SELECT"])', false);
    assertScope(find(t, 'sql'), 'variable.other.readwrite');
    assert.ok(!t.some((x) => hasScope(x, 'meta.embedded.block.sql') || hasScope(x, 'meta.embedded.line.sql')));
  });
  it('strings starting with an SQL keyword are SQL; other strings are not', async () => {
    const t = await tokensOf('let q = "SELECT * FROM users"\nlet m = "DELETE"\nlet p = "DELETE is a verb"\nlet s = """CREATE TABLE x (id bigint)"""', false);
    assert.ok(t.some((x) => x.text.startsWith('SELECT') && hasScope(x, 'meta.embedded.line.sql')));
    assertNoScope(find(t, 'DELETE'), 'meta.embedded');
    assertNoScope(find(t, 'DELETE is a verb'), 'meta.embedded');
    assert.ok(t.some((x) => x.text.startsWith('CREATE TABLE') && hasScope(x, 'meta.embedded.block.sql')));
  });
});

describe('grammar: decorators, types and functions', () => {
  it('decorators with keyword arguments', async () => {
    const t = await tokensOf('@cron("0 3 * * *", tz="UTC", retry={max: 3}, catch_up=true)\n@test fn t() {}');
    assertScope(find(t, 'cron'), 'entity.name.function.decorator');
    assertScope(find(t, '@'), 'punctuation.definition.decorator');
    assertScope(find(t, 'tz'), 'variable.parameter.keyword');
    assertScope(find(t, 'catch_up'), 'variable.parameter.keyword');
    assertNoScope(find(t, 'max'), 'variable.parameter.keyword');
    assertScope(find(t, 'test'), 'entity.name.function.decorator');
  });
  it('route paths: {name} holes are handler parameters', async () => {
    const t = await tokensOf('@get("/users/{id}/posts?limit={limit}")\n@ws("/chat")\nlet s = "/users/{id}"');
    assertScope(find(t, 'id'), 'variable.parameter.route');
    assertScope(find(t, 'limit'), 'variable.parameter.route');
    assertScope(find(t, '/chat'), 'string.quoted.double.route');
    assertScope(find(t, 'id', 1), 'meta.interpolation');
  });
  it('nested calls inside decorator arguments', async () => {
    const t = await tokensOf('@middleware(cors({"allow_origin": "*"}))\n@header(name="X-Id")');
    assertScope(find(t, 'cors'), 'support.function.builtin');
    assertScope(find(t, 'name'), 'variable.parameter.keyword');
  });
  it('generic and function types', async () => {
    const t = await tokensOf('let m: List<Map<Str, Int>>? = []\nlet f: Fn(A) -> R = g\nlet o: User? = null');
    assertScope(find(t, 'List'), 'support.type.builtin');
    assertScope(find(t, 'Map'), 'support.type.builtin');
    assertScope(find(t, 'Str'), 'support.type.primitive');
    assertScope(find(t, 'Int'), 'support.type.primitive');
    assertScope(find(t, '<'), 'punctuation.definition.typeparameters.begin');
    assertScope(find(t, '>'), 'punctuation.definition.typeparameters.end');
    assertScope(find(t, '>', 1), 'punctuation.definition.typeparameters.end');
    assertScope(find(t, '?'), 'keyword.operator.optional');
    assertScope(find(t, 'Fn'), 'support.type.builtin');
    assertScope(find(t, 'A'), 'entity.name.type');
    assertScope(find(t, '->'), 'keyword.operator.arrow');
    assertScope(find(t, 'User'), 'entity.name.type');
    assertScope(find(t, '?', 1), 'keyword.operator.optional');
  });
  it('comparisons are not generics', async () => {
    const t = await tokensOf('if a < b and c > d { }');
    assertScope(find(t, '<'), 'keyword.operator.comparison');
    assertScope(find(t, '>'), 'keyword.operator.comparison');
  });
  it('function definitions, parameters and call sites', async () => {
    const t = await tokensOf('fn add(a: Int, b: Int = 2, ...rest: Int) -> Int => a + b\nlet x = add(1, b: 3)\nprint(x)');
    assertScope(find(t, 'add'), 'entity.name.function');
    assertNoScope(find(t, 'add'), 'meta.function-call');
    for (const p of ['a', 'b', 'rest']) assertScope(find(t, p), 'variable.parameter');
    assertScope(find(t, '...'), 'keyword.operator.variadic');
    assertScope(find(t, 'add', 1), 'entity.name.function.call');
    assertScope(find(t, 'print'), 'support.function.builtin');
  });
  it('lambdas', async () => {
    const t = await tokensOf('xs.map(fn(x) => x * 2)');
    assertScope(find(t, 'fn'), 'storage.type.function');
    assertScope(find(t, 'x'), 'variable.parameter');
    assertScope(find(t, 'map'), 'entity.name.function.member');
  });
  it('type declarations: fields, methods and struct literals', async () => {
    const t = await tokensOf('type P {\n    x: Float = 0.0\n    @primary id: Int\n    fn norm(k: Int) -> Float {\n        return P { x: 1.0 }\n    }\n}\nlet y: Int = 1');
    assertScope(find(t, 'P'), 'entity.name.type');
    assertScope(find(t, 'x'), 'variable.other.field');
    assertScope(find(t, 'id'), 'variable.other.field');
    assertScope(find(t, 'norm'), 'entity.name.function');
    assertScope(find(t, 'k'), 'variable.parameter');
    assertNoScope(find(t, 'x', 1), 'variable.other.field');
    assertNoScope(find(t, 'y'), 'variable.other.field');
  });
  it('imports name modules', async () => {
    const t = await tokensOf('import models.user as um\nfrom shapes import area');
    assertScope(find(t, 'models.user'), 'entity.name.namespace');
    assertScope(find(t, 'um'), 'entity.name.namespace');
    assertScope(find(t, 'shapes'), 'entity.name.namespace');
  });
  it('operators, longest match first', async () => {
    const t = await tokensOf('a <<= 1\nb >>= 2\nc => d -> e\nf ..= g\nh += 1\ni << 2 != j\nr?');
    assertScope(find(t, '<<='), 'keyword.operator.assignment.compound');
    assertScope(find(t, '>>='), 'keyword.operator.assignment.compound');
    assertScope(find(t, '=>'), 'keyword.operator.arrow');
    assertScope(find(t, '->'), 'keyword.operator.arrow');
    assertScope(find(t, '..='), 'keyword.operator.range');
    assertScope(find(t, '+='), 'keyword.operator.assignment.compound');
    assertScope(find(t, '<<'), 'keyword.operator.bitwise.shift');
    assertScope(find(t, '!='), 'keyword.operator.comparison');
    assertScope(find(t, '?'), 'keyword.operator.try');
  });
  it('unicode identifiers', async () => {
    const t = await tokensOf('let π = función(ß)');
    assertScope(find(t, 'π'), 'variable.other.readwrite');
    assertScope(find(t, 'función'), 'entity.name.function.call');
  });
});

// ---- .fitzv live views --------------------------------------------------------------------

describe('grammar: .fitzv live views', () => {
  const VIEWS = path.join(EXTENSION_ROOT, '..', 'tests', 'testdata', 'views');
  // fail_* (syntax errors) and err_* (checker errors) are wrong on purpose.
  const views = fs.readdirSync(VIEWS)
    .filter((f) => f.endsWith('.fitzv') && !f.startsWith('fail_') && !f.startsWith('err_')).sort();

  it('the spec example views tokenize with no invalid tokens', async () => {
    assert.ok(views.length >= 4, `only ${views.length} views`);
    for (const v of views) {
      const tokens = await tokenizeView(fs.readFileSync(path.join(VIEWS, v), 'utf8'));
      const bad = tokens.filter((t) => t.scopes.some((x) => x.startsWith('invalid.')));
      assert.deepEqual(bad.map((t) => `${t.line}:${t.column} ${t.text}`), [], v);
    }
  });

  it('forbidden markup (a <script> element) is marked invalid', async () => {
    const tokens = await tokenizeView(fs.readFileSync(path.join(VIEWS, 'err_forbidden_markup.fitzv'), 'utf8'));
    const bad = tokens.filter((t) => t.scopes.some((x) => x.startsWith('invalid.')));
    assert.ok(bad.some((t) => t.text === 'script'), JSON.stringify(bad.map((t) => t.text)));
  });

  it('component structure: blocks, events, hooks', async () => {
    const t = await tokenizeView(fs.readFileSync(path.join(VIEWS, 'chat.fitzv'), 'utf8'));
    assertScope(find(t, 'component'), 'storage.type.component');
    assertScope(find(t, 'ChatRoom'), 'entity.name.type.component');
    assertScope(find(t, 'props'), 'storage.type.props');
    assertScope(find(t, 'room', 0), 'variable.other.field');
    assertScope(find(t, 'List', 0), 'meta.fields');
    assertScope(find(t, 'async'), 'storage.modifier.async');
    assertScope(find(t, 'send'), 'entity.name.function.event');
    assertScope(find(t, 'on'), 'storage.type.hook');
    assertScope(find(t, 'mount'), 'support.function.hook');
    assertScope(find(t, 'ctx'), 'meta.embedded.block.fitz');
    assertScope(find(t, 'scoped'), 'storage.modifier.style');
    assertScope(find(t, 'text-align'), 'meta.embedded.block.css');
    assertScope(find(t, 'text-align'), 'support.type.property-name.css-stub');
    // A `}` inside a CSS string neither ends the style nor the component.
    assertScope(find(t, 'font-family'), 'meta.component');
  });

  it('async hooks: `async on every 1s`', async () => {
    const t = await tokenizeView(fs.readFileSync(path.join(VIEWS, 'async_hooks.fitzv'), 'utf8'));
    assertScope(find(t, 'async'), 'storage.modifier.async');
    assertScope(find(t, 'on'), 'storage.type.hook');
    assertScope(find(t, 'every'), 'support.function.hook');
    assertScope(find(t, 'sleep'), 'meta.embedded.block.fitz');
  });

  it('template: tags, directives, event bindings, interpolation, comments', async () => {
    const t = await tokenizeView(fs.readFileSync(path.join(VIEWS, 'chat.fitzv'), 'utf8'));
    assertScope(find(t, 'section'), 'entity.name.tag');
    assertScope(find(t, '#for'), 'keyword.control.loop');
    assertScope(find(t, 'key'), 'keyword.control.loop.key');
    assertScope(find(t, '/for'), 'keyword.control');
    assertScope(find(t, 'submit'), 'entity.other.attribute-name.event');
    assertScope(find(t, 'bind'), 'keyword.other.directive');
    assertScope(find(t, 'online_count', 1), 'meta.embedded.expression.fitz');
    assertNoScope(find(t, ' online'), 'meta.embedded.expression.fitz');
    assertScope(find(t, ' messages are plain text: {m.text} is always escaped '), 'comment.block.html');
    const s = await tokenizeView(fs.readFileSync(path.join(VIEWS, 'signup_form.fitzv'), 'utf8'));
    assertScope(find(s, 'FormCard', 1), 'entity.name.type.component');
    assertScope(find(s, '#if'), 'keyword.control.conditional');
    assertScope(find(s, ':else if'), 'keyword.control.conditional');
  });
});
