/**
 * Tree-sitter grammar for the Fitz language.
 *
 * Newlines are statement terminators. They are produced by the external
 * scanner (src/scanner.c) as the `_newline` token, and only where the parser
 * can accept one; everywhere else a newline is ordinary whitespace (see
 * `extras`). String bodies, format specs and the newline token are external.
 */

// Binary levels follow the language reference (lowest to highest); all are
// left-associative. Bitwise operators bind tighter than comparisons.
const PREC = {
  lambda: -1,
  or: 1,
  and: 2,
  equality: 3,
  comparison: 4,
  bit_or: 5,
  bit_xor: 6,
  bit_and: 7,
  shift: 8,
  range: 9,
  additive: 10,
  multiplicative: 11,
  unary: 12,
  postfix: 13,
  slice: 14,
};

const IDENT_START = '\\p{L}\\p{Nl}_';
const IDENT_CONT = '\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}';

const COMPOUND_OPERATORS = ['+=', '-=', '*=', '/=', '&=', '|=', '^=', '<<=', '>>='];

// The statement terminator as it appears in the tree: an anonymous node
// "newline" (zero-width, at the start of the next code line). It is visible so
// that a MISSING terminator (`let a = 1 let b = 2`) can be found through the
// node API.
function newline($) {
  return alias($._newline, 'newline');
}

function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

// Items separated by commas, optional trailing comma, possibly empty.
function commaList(rule) {
  return optional(seq(commaSep1(rule), optional(',')));
}

module.exports = grammar({
  name: 'fitz',

  word: $ => $.identifier,

  extras: $ => [/\s/, '\uFEFF', $.comment],

  externals: $ => [
    $._newline,
    $._string_content,
    $._triple_string_content,
    $._bytes_content,
    $.format_spec,
    // Never valid in the grammar: lets the scanner detect error recovery.
    $._error_sentinel,
    // Never valid either: a `;` where a statement could end. Fitz has no `;`;
    // the scanner returns this token so the parser reports an error exactly
    // there, then (during recovery) a zero-width terminator so the next
    // statement parses normally instead of being swallowed by one growing
    // ERROR (which made `let a = 1; let b = 2; …` on one line quadratic).
    $._semicolon,
  ],

  supertypes: $ => [$._expression, $._pattern, $._type],

  inline: $ => [$._arrow_or_block_body, $._primary_expression, $._statement, $._simple_pattern, $._type_item],

  conflicts: $ => [
    // `if x {`: `x {` may start a struct literal or `x` may be the whole
    // condition followed by the block. GLR keeps both; the struct reading
    // only survives when the block reading fails.
    [$._expression, $.struct_literal],
  ],

  rules: {
    source_file: $ => seq(
      repeat(seq($._statement, newline($))),
      optional($._statement),
    ),

    // ------------------------------------------------------------------
    // Statements

    _statement: $ => choice(
      $.let_statement,
      $.annotated_assignment,
      $.assignment,
      $.compound_assignment,
      $.return_statement,
      $.status_return,
      $.break_statement,
      $.continue_statement,
      $.while_statement,
      $.for_statement,
      $.function_definition,
      $.type_definition,
      $.import_statement,
      $.from_import_statement,
      $.expression_statement,
    ),

    // prec: `=> {}` in a match arm is an empty block, not an empty map.
    block: $ => prec(2, seq(
      '{',
      repeat(seq($._statement, newline($))),
      optional($._statement),
      '}',
    )),

    expression_statement: $ => $._expression,

    let_statement: $ => seq(
      'let',
      choice(
        field('name', $.identifier),
        field('pattern', $.tuple_pattern),
      ),
      optional(seq(':', field('type', $._type))),
      '=',
      field('value', $._expression),
    ),

    annotated_assignment: $ => prec(1, seq(
      field('name', $.identifier),
      ':',
      field('type', $._type),
      '=',
      field('value', $._expression),
    )),

    assignment: $ => seq(
      field('left', $._expression),
      '=',
      field('right', $._expression),
    ),

    compound_assignment: $ => seq(
      field('left', $._expression),
      field('operator', choice(...COMPOUND_OPERATORS)),
      field('right', $._expression),
    ),

    return_statement: $ => prec.right(seq(
      'return',
      optional(field('value', $._expression)),
    )),

    // `return 404 {"error": "x"}`, `return 201 user`, `return NOT_FOUND {...}`
    status_return: $ => prec(-1, seq(
      'return',
      field('status', choice($.integer, $.identifier)),
      field('body', $._expression),
    )),

    break_statement: $ => prec.right(seq(
      'break',
      optional(field('label', $.label)),
      optional(field('value', $._expression)),
    )),

    continue_statement: $ => prec.right(seq(
      'continue',
      optional(field('label', $.label)),
    )),

    while_statement: $ => seq(
      optional(seq(field('label', $.label), ':')),
      'while',
      field('condition', $._expression),
      field('body', $.block),
    ),

    for_statement: $ => seq(
      optional(seq(field('label', $.label), ':')),
      'for',
      field('pattern', $._pattern),
      'in',
      field('iterable', $._expression),
      field('body', $.block),
    ),

    // ------------------------------------------------------------------
    // Functions, types, decorators

    function_definition: $ => seq(
      optional($._decorators),
      optional(field('static', 'static')),
      optional(field('async', 'async')),
      'fn',
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      $._arrow_or_block_body,
    ),

    _arrow_or_block_body: $ => choice(
      field('body', $.block),
      seq('=>', field('body', $._expression)),
    ),

    parameters: $ => seq('(', commaList($.parameter), ')'),

    parameter: $ => seq(
      optional(field('variadic', '...')),
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      optional(seq('=', field('default', $._expression))),
    ),

    type_definition: $ => seq(
      optional($._decorators),
      'type',
      field('name', $.identifier),
      field('body', $.type_body),
    ),

    type_body: $ => seq(
      '{',
      repeat(seq($._type_item, choice(',', newline($)))),
      optional($._type_item),
      '}',
    ),

    _type_item: $ => choice($.field_declaration, $.function_definition),

    field_declaration: $ => seq(
      optional($._decorators),
      field('name', $.identifier),
      ':',
      field('type', $._type),
      optional(seq('=', field('default', $._expression))),
    ),

    _decorators: $ => repeat1(field('decorator', $.decorator)),

    decorator: $ => seq(
      '@',
      field('name', $.identifier),
      optional(field('arguments', $.decorator_arguments)),
    ),

    decorator_arguments: $ => seq(
      '(',
      commaList(choice(
        $._expression,
        $.keyword_argument,
        $.decorator_colon_argument,
      )),
      ')',
    ),

    keyword_argument: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', $._expression),
    ),

    // `@server(port: 8080)`: invalid (keyword arguments use `=`), kept as a
    // node so the error can be reported at the `:`.
    decorator_colon_argument: $ => seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    ),

    // ------------------------------------------------------------------
    // Imports

    import_statement: $ => seq(
      'import',
      field('path', $.module_path),
      optional(seq('as', field('alias', $.identifier))),
    ),

    from_import_statement: $ => seq(
      'from',
      field('path', $.module_path),
      'import',
      choice(
        commaSep1(field('name', $.import_name)),
        seq('(', commaList(field('name', $.import_name)), ')'),
      ),
    ),

    module_path: $ => seq($.identifier, repeat(seq('.', $.identifier))),

    import_name: $ => seq(
      field('name', $.identifier),
      optional(seq('as', field('alias', $.identifier))),
    ),

    // ------------------------------------------------------------------
    // Types

    _type: $ => choice(
      $.named_type,
      $.generic_type,
      $.nullable_type,
      $.tuple_type,
      $.parenthesized_type,
      $.function_type,
    ),

    named_type: $ => seq(
      field('name', $.identifier),
      repeat(seq('.', field('name', $.identifier))),
    ),

    generic_type: $ => seq(
      field('name', $.named_type),
      field('arguments', $.type_arguments),
    ),

    type_arguments: $ => seq('<', commaSep1($._type), optional(','), '>'),

    nullable_type: $ => prec(2, seq(field('type', $._type), '?')),

    tuple_type: $ => choice(
      seq('(', ')'),
      seq('(', $._type, ',', ')'),
      seq('(', $._type, repeat1(seq(',', $._type)), optional(','), ')'),
    ),

    parenthesized_type: $ => seq('(', field('type', $._type), ')'),

    function_type: $ => prec.right(1, seq(
      'Fn',
      field('parameters', $.function_type_parameters),
      '->',
      field('return_type', $._type),
    )),

    function_type_parameters: $ => seq('(', commaList($._type), ')'),

    // ------------------------------------------------------------------
    // Expressions

    _expression: $ => choice(
      $.lambda,
      $.binary_expression,
      $.range_expression,
      $.unary_expression,
      $._primary_expression,
    ),

    _primary_expression: $ => choice(
      $.identifier,
      $.integer,
      $.float,
      $.string,
      $.bytes,
      $.true,
      $.false,
      $.null,
      $.parenthesized_expression,
      $.tuple,
      $.list,
      $.map,
      $.list_comprehension,
      $.map_comprehension,
      $.if_expression,
      $.match_expression,
      $.loop_expression,
      $.struct_literal,
      $.field_expression,
      $.tuple_index_expression,
      $.await_expression,
      $.call_expression,
      $.index_expression,
      $.slice_expression,
      $.try_expression,
    ),

    binary_expression: $ => {
      const table = [
        [PREC.or, choice('or', 'xor')],
        [PREC.and, 'and'],
        [PREC.equality, choice('==', '!=')],
        [PREC.comparison, choice('<', '<=', '>', '>=')],
        [PREC.bit_or, '|'],
        [PREC.bit_xor, '^'],
        [PREC.bit_and, '&'],
        [PREC.shift, choice('<<', '>>')],
        [PREC.additive, choice('+', '-')],
        [PREC.multiplicative, choice('*', '/', '%')],
      ];
      return choice(...table.map(([p, op]) => prec.left(p, seq(
        field('left', $._expression),
        field('operator', op),
        field('right', $._expression),
      ))));
    },

    // Non-associative in the language; `a..b..c` parses left-nested and is
    // rejected by the lowering.
    range_expression: $ => prec.left(PREC.range, seq(
      field('start', $._expression),
      field('operator', choice('..', '..=')),
      field('end', $._expression),
    )),

    unary_expression: $ => prec(PREC.unary, seq(
      field('operator', choice('-', 'not', '~')),
      field('operand', $._expression),
    )),

    field_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      '.',
      field('field', $.identifier),
    )),

    tuple_index_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      '.',
      field('index', $.integer),
    )),

    await_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      '.',
      'await',
    )),

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $._expression),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq(
      '(',
      commaList(choice($._expression, $.named_argument)),
      ')',
    ),

    named_argument: $ => seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    ),

    index_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      '[',
      field('index', $._expression),
      ']',
    )),

    slice_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      '[',
      prec(PREC.slice, seq(
        optional(field('start', $._expression)),
        field('operator', choice('..', '..=')),
        optional(field('end', $._expression)),
      )),
      ']',
    )),

    try_expression: $ => prec(PREC.postfix, seq(
      field('operand', $._expression),
      '?',
    )),

    // Negative dynamic precedence: where `x {` may also open a block (the
    // condition of if/while/match, a for iterable), the block reading wins
    // whenever both readings are possible.
    struct_literal: $ => prec.dynamic(-1, seq(
      field('name', $.identifier),
      '{',
      repeat(seq($.field_initializer, choice(',', newline($)))),
      optional($.field_initializer),
      '}',
    )),

    field_initializer: $ => prec(1, seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    )),

    parenthesized_expression: $ => seq('(', field('expression', $._expression), ')'),

    tuple: $ => choice(
      seq('(', ')'),
      seq('(', $._expression, ',', ')'),
      seq('(', $._expression, repeat1(seq(',', $._expression)), optional(','), ')'),
    ),

    list: $ => seq('[', commaList($._expression), ']'),

    map: $ => prec(1, seq('{', commaList($.map_entry), '}')),

    map_entry: $ => seq(
      field('key', $._expression),
      ':',
      field('value', $._expression),
    ),

    list_comprehension: $ => seq(
      '[',
      field('body', $._expression),
      repeat1($.for_clause),
      optional($.if_clause),
      ']',
    ),

    map_comprehension: $ => seq(
      '{',
      field('key', $._expression),
      ':',
      field('value', $._expression),
      repeat1($.for_clause),
      optional($.if_clause),
      '}',
    ),

    for_clause: $ => seq(
      'for',
      field('pattern', $._pattern),
      'in',
      field('iterable', $._expression),
    ),

    if_clause: $ => seq('if', field('condition', $._expression)),

    if_expression: $ => prec.right(seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(seq(
        'else',
        field('alternative', choice($.if_expression, $.block)),
      )),
    )),

    match_expression: $ => seq(
      'match',
      field('value', $._expression),
      field('body', $.match_body),
    ),

    match_body: $ => seq(
      '{',
      repeat(seq($.match_arm, choice(',', newline($)))),
      optional($.match_arm),
      '}',
    ),

    match_arm: $ => seq(
      field('pattern', $._pattern),
      optional(seq('if', field('guard', $._expression))),
      '=>',
      field('value', choice(
        $.block,
        $._expression,
        $.return_statement,
        $.status_return,
        $.break_statement,
        $.continue_statement,
      )),
    ),

    loop_expression: $ => seq(
      optional(seq(field('label', $.label), ':')),
      'loop',
      field('body', $.block),
    ),

    lambda: $ => prec.right(PREC.lambda, seq(
      optional(field('async', 'async')),
      'fn',
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      $._arrow_or_block_body,
    )),

    // ------------------------------------------------------------------
    // Patterns

    _pattern: $ => choice(
      $.or_pattern,
      $._simple_pattern,
    ),

    _simple_pattern: $ => choice(
      $.wildcard_pattern,
      $.identifier,
      $.integer,
      $.float,
      $.negative_literal,
      $.string,
      $.true,
      $.false,
      $.null,
      $.range_pattern,
      $.result_pattern,
      $.tuple_pattern,
    ),

    or_pattern: $ => seq(
      field('alternative', $._simple_pattern),
      repeat1(seq('|', field('alternative', $._simple_pattern))),
    ),

    wildcard_pattern: _ => '_',

    negative_literal: $ => seq('-', choice($.integer, $.float)),

    range_pattern: $ => seq(
      field('start', choice($.integer, $.negative_literal)),
      field('operator', choice('..', '..=')),
      field('end', choice($.integer, $.negative_literal)),
    ),

    result_pattern: $ => seq(
      field('kind', choice('Ok', 'Err')),
      '(',
      field('pattern', $._pattern),
      ')',
    ),

    tuple_pattern: $ => seq('(', commaList(field('element', $._pattern)), ')'),

    // ------------------------------------------------------------------
    // Literals and tokens

    identifier: _ => token(new RegExp(`[${IDENT_START}][${IDENT_CONT}]*`)),

    label: _ => token(new RegExp(`'[${IDENT_START}][${IDENT_CONT}]*`)),

    integer: _ => token(choice(
      /[0-9][0-9_]*/,
      /0[xX][0-9a-fA-F_]*/,
      /0[bB][0-9_]*/,
      /0[oO][0-9_]*/,
    )),

    float: _ => token(choice(
      /[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9_]+)?/,
      /[0-9][0-9_]*[eE][+-]?[0-9_]+/,
    )),

    true: _ => 'true',
    false: _ => 'false',
    null: _ => 'null',

    string: $ => choice(
      seq(
        '"',
        repeat(choice(
          alias($._string_content, $.string_content),
          $.escape_sequence,
          $.interpolation,
        )),
        token.immediate('"'),
      ),
      seq(
        '"""',
        repeat(choice(
          alias($._triple_string_content, $.string_content),
          $.escape_sequence,
          $.interpolation,
        )),
        token.immediate('"""'),
      ),
    ),

    bytes: $ => seq(
      'b"',
      repeat(choice(
        alias($._bytes_content, $.string_content),
        $.escape_sequence,
      )),
      token.immediate('"'),
    ),

    escape_sequence: _ => token.immediate(choice(
      /\\u(\{[^}"\\\n{]*\}?)?/,
      /\\x[0-9a-fA-F]{0,2}/,
      /\\[^ux]/,
      '\\',
    )),

    interpolation: $ => seq(
      token.immediate('{'),
      optional(field('expression', $._expression)),
      optional(seq(':', optional(field('format_spec', $.format_spec)))),
      '}',
    ),

    // A block comment left open runs to the end of the file: it is still a
    // `comment` node (one token, so huge inputs stay cheap); the lowering
    // reports it because its text does not end with `*/`.
    comment: _ => token(choice(
      seq('//', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
      seq('/*', /([^*]|\*+[^*/])*\**/),
    )),
  },
});
