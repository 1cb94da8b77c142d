/**
 * Tree-sitter grammar for Fitz live views (`.fitzv` files).
 *
 * The component structure (imports, blocks, fields, events, hooks) and the template (HTML
 * plus interpolation and directives) are parsed here. Fitz code is not: expressions, statement
 * bodies and types are single opaque tokens (`expression`, `statements`, `type`) that the
 * external scanner (src/scanner.c) cuts at the right bracket, comma or line end while skipping
 * strings, interpolations and comments. queries/injections.scm hands them to the Fitz grammar,
 * and style contents to CSS; the checker lowers them with the Fitz parser.
 */

// HTML void elements: a start tag with no end tag. Lexed with a higher precedence than
// tag_name so `<input>` is recognised; `<inputs>` is still a plain tag (longest match).
const VOID_TAGS = [
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param',
  'source', 'track', 'wbr',
];

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)), optional(','));

module.exports = grammar({
  name: 'fitzv',

  externals: $ => [
    $._statements,         // `{ ... }` body: up to the matching `}`
    $._expression,         // interpolation, condition, key: up to the matching `}`
    $._iterable,           // `{#for x in XS key=...}`: up to `key=` or `}`
    $._field_value,        // field default: up to `,`, a line end, `//` or `}`
    $._type,               // field/parameter type: up to `,` `=` `)` `}` or a line end
    $._attribute_code,     // `@click="CODE"`: up to the closing `"`
    $.text,                // template text (no `<`, `{` or `}`), trimmed
    $._string_text,        // inside "...": up to `"` or `{`
    $._single_string_text, // inside '...': up to `'` or `{`
    $.html_comment,        // <!-- ... -->
    $._style_text,         // raw text up to </style
    $._script_text,        // raw text up to </script
    $._error_sentinel,
  ],

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat(choice($.import_statement, $.component)),

    comment: _ => token(choice(seq('//', /[^\n]*/), seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'))),

    identifier: _ => /[_\p{L}][_\p{L}\p{Nd}]*/,

    // ---- Imports -------------------------------------------------------------------------------

    import_statement: $ => seq(
      'from', field('path', $.module_path), 'import',
      choice(commaSep1(field('name', $.import_name)), seq('(', commaSep1(field('name', $.import_name)), ')')),
    ),
    module_path: $ => seq($.identifier, repeat(seq('.', $.identifier))),
    import_name: $ => seq(field('name', $.identifier), optional(seq('as', field('alias', $.identifier)))),

    // ---- Components ----------------------------------------------------------------------------

    component: $ => seq(
      'component', field('name', $.identifier), optional(field('hydrate', 'hydrate')),
      '{', repeat(field('member', $._member)), '}',
    ),

    _member: $ => choice(
      $.props_block, $.state_block, $.derived_block, $.event_definition, $.hook, $.template,
      $.style_block,
    ),

    props_block: $ => seq('props', field('fields', $.field_list)),
    state_block: $ => seq('state', field('fields', $.field_list)),
    derived_block: $ => seq('derived', field('fields', $.field_list)),

    // Fields are separated by `,` or line ends.
    field_list: $ => seq('{', repeat(seq($.field_declaration, optional(','))), '}'),
    field_declaration: $ => seq(
      field('name', $.identifier), ':', field('type', $.type),
      optional(seq('=', field('default', alias($._field_value, $.expression)))),
    ),

    type: $ => $._type,

    event_definition: $ => seq(
      optional(field('async', 'async')), 'event', field('name', $.identifier),
      field('parameters', $.parameters), field('body', $.block),
    ),

    parameters: $ => seq('(', optional(commaSep1($.parameter)), ')'),
    parameter: $ => seq(
      field('name', $.identifier), ':', field('type', $.type),
      optional(seq('=', field('default', alias($._field_value, $.expression)))),
    ),

    // `on mount {}`, `on every 1s {}`, `on message "topic:{x}" (m: T) {}`. The hook names are
    // not keywords here: the checker knows the reserved set. `async on ...` hooks may `.await`.
    hook: $ => seq(
      optional(field('async', 'async')), 'on', field('name', $.identifier),
      optional(field('argument', choice($.duration, $.string))),
      optional(field('parameters', $.parameters)),
      field('body', $.block),
    ),
    duration: _ => /[0-9][0-9_]*(ms|s|m|h)/,

    block: $ => seq('{', optional(field('code', alias($._statements, $.statements))), '}'),

    string: $ => seq('"', repeat(choice(alias($._string_text, $.string_content), $.interpolation)), '"'),

    // ---- Styles --------------------------------------------------------------------------------

    style_block: $ => seq(
      '<style', optional(field('mode', $.style_mode)), '>',
      optional(field('content', alias($._style_text, $.raw_text))),
      '</style', '>',
    ),

    style_mode: _ => choice('scoped', 'global'),

    // ---- Template ------------------------------------------------------------------------------

    template: $ => seq('<template', '>', repeat($._node), '</template', '>'),

    _node: $ => choice(
      $.element, $.style_element, $.script_element, $.text, $.interpolation, $.html_comment, $.if_block,
      $.for_block,
    ),

    interpolation: $ => seq('{', optional(field('expression', alias($._expression, $.expression))), '}'),

    element: $ => choice(
      seq(field('start', $.start_tag), repeat($._node), field('end', $.end_tag)),
      field('start', alias($._void_start_tag, $.start_tag)),
      field('start', $.self_closing_tag),
    ),

    start_tag: $ => seq('<', field('tag', $.tag_name), repeat(field('attribute', $._attribute)), '>'),
    _void_start_tag: $ => seq(
      '<', field('tag', alias($._void_tag_name, $.tag_name)), repeat(field('attribute', $._attribute)), '>',
    ),
    self_closing_tag: $ => seq(
      '<', field('tag', choice($.tag_name, alias($._void_tag_name, $.tag_name))),
      repeat(field('attribute', $._attribute)), '/>',
    ),
    end_tag: $ => seq('</', field('tag', choice($.tag_name, alias($._void_tag_name, $.tag_name))), '>'),

    tag_name: _ => /[a-zA-Z][a-zA-Z0-9_.-]*/,
    _void_tag_name: _ => token(prec(1, choice(...VOID_TAGS))),

    // `<style>` and `<script>` inside a template: raw text, so a checker can reject them with a
    // clear message instead of a cascade of syntax errors.
    style_element: $ => seq('<style', repeat(field('attribute', $._attribute)), '>',
      optional(field('content', alias($._style_text, $.raw_text))), '</style', '>'),
    script_element: $ => seq('<script', repeat(field('attribute', $._attribute)), '>',
      optional(field('content', alias($._script_text, $.raw_text))), '</script', '>'),

    _attribute: $ => choice($.attribute, $.event_binding, $.directive_attribute),

    // `a`, `a="x-{e} y"`, `a='lit'`, `a={e}`, `a=bare`.
    attribute: $ => seq(field('name', $.attribute_name), optional(seq('=', field('value', $._attribute_value)))),
    attribute_name: _ => /[^\s"'<>\/=@:{}]+/,

    _attribute_value: $ => choice($.quoted_attribute_value, $.interpolation, $.unquoted_attribute_value),
    quoted_attribute_value: $ => choice(
      seq('"', repeat(choice(alias($._string_text, $.attribute_text), $.interpolation)), '"'),
      seq('\'', repeat(choice(alias($._single_string_text, $.attribute_text), $.interpolation)), '\''),
    ),
    unquoted_attribute_value: _ => /[^\s"'=<>`{}\/]+/,

    // `@click="remove(id: t.id)"`, `@saved={on_saved}`: the value is a handler reference.
    event_binding: $ => seq(
      '@', field('event', $.attribute_name),
      optional(seq('=', choice(
        seq('"', optional(field('handler', alias($._attribute_code, $.expression))), '"'),
        field('handler', $.interpolation),
      ))),
    ),

    // `class:active={e}`, `bind:value={field}`: `kind:name`.
    directive_attribute: $ => seq(
      field('kind', alias($.attribute_name, $.directive_kind)), token.immediate(':'),
      field('name', alias(token.immediate(/[^\s"'<>\/=@:{}]+/), $.attribute_name)),
      optional(seq('=', field('value', $._attribute_value))),
    ),

    // ---- Control flow --------------------------------------------------------------------------

    if_block: $ => seq(
      '{#if', field('condition', alias($._expression, $.expression)), '}',
      repeat($._node),
      repeat(field('alternative', $.else_if_clause)),
      optional(field('alternative', $.else_clause)),
      '{/if', '}',
    ),
    else_if_clause: $ => seq('{:else', 'if', field('condition', alias($._expression, $.expression)), '}', repeat($._node)),
    // `{#else}` is upstream's spelling, accepted as well.
    else_clause: $ => seq(choice('{:else', '{#else'), '}', repeat($._node)),

    for_block: $ => seq(
      '{#for', field('item', choice($.identifier, $.tuple_pattern)),
      optional(seq(',', field('index', $.identifier))),
      'in', field('iterable', alias($._iterable, $.expression)),
      optional(seq('key', '=', field('key', alias($._expression, $.expression)))),
      '}',
      repeat($._node),
      optional(field('empty', $.empty_clause)),
      '{/for', '}',
    ),
    tuple_pattern: $ => seq('(', commaSep1($.identifier), ')'),
    empty_clause: $ => seq('{:empty', '}', repeat($._node)),
  },
});
