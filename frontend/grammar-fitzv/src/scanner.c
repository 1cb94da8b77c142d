// External scanner for the .fitzv grammar: the tokens a regular expression cannot cut.
//
// Fitz code inside a view (bodies, interpolations, conditions, field defaults, types) is one
// opaque token each. It ends at the first stop character found outside brackets, strings
// (with their `{...}` holes, nested to any depth) and comments, so `{ "}" }` or
// `if (a) { "x" } else { "y" }` stay whole; trailing whitespace is left out. The Fitz grammar
// parses the token's text later (editor injections, the checker).
//
// Tokens (same order as `externals` in grammar.js):
//   STATEMENTS, EXPRESSION  up to the `}` that closes the enclosing brace (both also stop
//                           before `</`, which is never Fitz)
//   ITERABLE                as EXPRESSION, but also stops before ` key=` (a keyed loop)
//   FIELD_VALUE             up to `,`, `)`, a line end, a `//` comment or `}`
//   TYPE                    up to `,` `=` `)` `}` or a line end; `<...>` nests, `->` is kept
//   ATTRIBUTE_CODE          up to the closing `"` of an `@event="..."` value
//   TEXT                    template text: no `<`, `{` or `}`, trimmed at both ends
//   STRING_TEXT             inside "...": up to `"` or `{`
//   SINGLE_STRING_TEXT      inside '...': up to `'` or `{`
//   HTML_COMMENT            <!-- ... --> (an unterminated one is not a token: an error)
//   STYLE_TEXT, SCRIPT_TEXT raw text up to `</style` / `</script` (any case)
//   ERROR_SENTINEL          never valid; when it is, the parser is recovering and this scanner
//                           steps aside
//
// The scanner keeps no state. Every loop advances or stops and checks EOF, so truncated input
// cannot hang it; string holes nest through recursion bounded by kMaxNesting.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  STATEMENTS,
  EXPRESSION,
  ITERABLE,
  FIELD_VALUE,
  TYPE,
  ATTRIBUTE_CODE,
  TEXT,
  STRING_TEXT,
  SINGLE_STRING_TEXT,
  HTML_COMMENT,
  STYLE_TEXT,
  SCRIPT_TEXT,
  ERROR_SENTINEL,
};

typedef enum { STOP_BRACE, STOP_ITERABLE, STOP_FIELD, STOP_TYPE, STOP_QUOTE } StopMode;

// Deeper string-in-hole-in-string nesting is consumed flat; only balance suffers.
static const int kMaxNesting = 32;

static void advance(TSLexer *l) { l->advance(l, false); }
static void skip(TSLexer *l) { l->advance(l, true); }
static bool is_space(int32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int32_t lower(int32_t c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

static void scan_hole(TSLexer *l, int nesting);

// At `/`: consumes a `//` or `/*` comment, or just the `/` (division). Returns false when the
// `/` was a plain operator.
static bool consume_slash(TSLexer *l) {
  advance(l);
  if (l->lookahead == '/') {
    while (!l->eof(l) && l->lookahead != '\n') advance(l);
    return true;
  }
  if (l->lookahead == '*') {
    advance(l);
    bool star = false;
    while (!l->eof(l)) {
      int32_t c = l->lookahead;
      advance(l);
      if (star && c == '/') break;
      star = c == '*';
    }
    return true;
  }
  return false;
}

// At `"`: consumes a Fitz string ("...", """...""") with its holes.
static void scan_fitz_string(TSLexer *l, int nesting) {
  advance(l);
  if (l->lookahead == '"') {
    advance(l);
    if (l->lookahead != '"') return;  // ""
    advance(l);
    int quotes = 0;  // triple-quoted: verbatim up to """
    while (!l->eof(l)) {
      int32_t c = l->lookahead;
      advance(l);
      quotes = c == '"' ? quotes + 1 : 0;
      if (quotes == 3) return;
    }
    return;
  }
  while (!l->eof(l)) {
    int32_t c = l->lookahead;
    if (c == '\n') return;  // unterminated: the line ends the string, not the file
    advance(l);
    if (c == '"') return;
    if (c == '\\') {
      if (!l->eof(l)) advance(l);
    } else if (c == '{') {
      scan_hole(l, nesting + 1);
    }
  }
}

// After a string's `{`: consumes up to and including the matching `}`.
static void scan_hole(TSLexer *l, int nesting) {
  int depth = 0;
  while (!l->eof(l)) {
    int32_t c = l->lookahead;
    if (c == '"' && nesting < kMaxNesting) {
      scan_fitz_string(l, nesting);
      continue;
    }
    if (c == '/') {
      consume_slash(l);
      continue;
    }
    advance(l);
    if (c == '{') depth++;
    if (c == '}') {
      if (depth == 0) return;
      depth--;
    }
  }
}

// At `k` after whitespace in a loop header: consumes `key` + spaces and reports whether `=`
// (not `==`) follows. The caller decides what the consumed characters were.
static bool consume_key_equals(TSLexer *l) {
  const char *word = "key";
  for (const char *p = word; *p; p++) {
    if (l->lookahead != *p) return false;
    advance(l);
  }
  while (l->lookahead == ' ' || l->lookahead == '\t') advance(l);
  if (l->lookahead != '=') return false;
  advance(l);
  return l->lookahead != '=';
}

static bool scan_code(TSLexer *l, StopMode mode, enum TokenType symbol) {
  while (!l->eof(l) && is_space(l->lookahead)) skip(l);
  int depth = 0;
  bool any = false;
  int32_t prev = ' ';
  while (!l->eof(l)) {
    int32_t c = l->lookahead;
    if (depth == 0) {
      if (c == '}') break;
      if (mode == STOP_QUOTE && c == '"') break;
      // `)` ends a parameter's default; in a field list it is an error either way.
      if (mode == STOP_FIELD && (c == ',' || c == ')' || c == '\n' || c == '\r')) break;
      if (mode == STOP_TYPE && (c == ',' || c == '=' || c == ')' || c == '\n' || c == '\r')) break;
      if (mode == STOP_ITERABLE && c == 'k' && is_space(prev)) {
        if (consume_key_equals(l)) break;  // the end stays marked before `key`
        any = true;
        l->mark_end(l);
        prev = 'k';
        continue;
      }
    }
    if (c == '"' && mode != STOP_QUOTE) {
      scan_fitz_string(l, 0);
      l->mark_end(l);
      any = true;
      prev = c;
      continue;
    }
    if (c == '/') {
      if (mode == STOP_FIELD && depth == 0) {
        // A trailing `// comment` ends a field default; a `/` alone is division.
        advance(l);
        if (l->lookahead == '/' || l->lookahead == '*') break;
        l->mark_end(l);
        any = true;
        prev = c;
        continue;
      }
      consume_slash(l);
      l->mark_end(l);
      any = true;
      prev = c;
      continue;
    }
    if (mode == STOP_TYPE && c == '-') {
      advance(l);
      if (l->lookahead == '>') advance(l);
      l->mark_end(l);
      any = true;
      prev = c;
      continue;
    }
    if (c == '<' && depth == 0 && (mode == STOP_BRACE || mode == STOP_ITERABLE)) {
      // `</` is never Fitz: an interpolation left open before an end tag stops here, so the
      // error is a missing `}` at this point instead of a hole swallowing the rest of the file.
      advance(l);
      if (l->lookahead == '/') break;
      l->mark_end(l);
      any = true;
      prev = c;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || (mode == STOP_TYPE && c == '<')) {
      depth++;
    } else if (c == ')' || c == ']' || c == '}' || (mode == STOP_TYPE && c == '>')) {
      if (depth > 0) depth--;
    }
    advance(l);
    if (!is_space(c)) {
      l->mark_end(l);
      any = true;
    }
    prev = c;
  }
  if (!any) return false;
  l->result_symbol = symbol;
  return true;
}

static bool scan_text(TSLexer *l) {
  while (!l->eof(l) && is_space(l->lookahead)) skip(l);
  bool any = false;
  while (!l->eof(l)) {
    int32_t c = l->lookahead;
    if (c == '<' || c == '{' || c == '}') break;
    advance(l);
    if (!is_space(c)) {
      l->mark_end(l);
      any = true;
    }
  }
  if (!any) return false;
  l->result_symbol = TEXT;
  return true;
}

static bool scan_html_comment(TSLexer *l) {
  while (!l->eof(l) && is_space(l->lookahead)) skip(l);
  for (const char *p = "<!--"; *p; p++) {
    if (l->lookahead != *p) return false;
    advance(l);
  }
  int dashes = 0;
  while (!l->eof(l)) {
    int32_t c = l->lookahead;
    advance(l);
    if (c == '>' && dashes >= 2) {
      l->mark_end(l);
      l->result_symbol = HTML_COMMENT;
      return true;
    }
    dashes = c == '-' ? dashes + 1 : 0;
  }
  return false;
}

static bool scan_quoted_text(TSLexer *l, int32_t quote, enum TokenType symbol) {
  bool any = false;
  while (!l->eof(l) && l->lookahead != quote && l->lookahead != '{') {
    advance(l);
    any = true;
  }
  if (!any) return false;
  l->mark_end(l);
  l->result_symbol = symbol;
  return true;
}

static bool scan_raw_text(TSLexer *l, const char *end_tag, enum TokenType symbol) {
  bool any = false;
  while (!l->eof(l)) {
    if (l->lookahead == '<') {
      l->mark_end(l);
      advance(l);
      if (l->lookahead == '/') {
        advance(l);
        const char *p = end_tag;
        while (*p && lower(l->lookahead) == *p) {
          advance(l);
          p++;
        }
        if (!*p) {
          if (!any) return false;
          l->result_symbol = symbol;
          return true;
        }
      }
      any = true;
      l->mark_end(l);
      continue;
    }
    advance(l);
    any = true;
  }
  l->mark_end(l);
  if (!any) return false;
  l->result_symbol = symbol;
  return true;
}

void *tree_sitter_fitzv_external_scanner_create(void) { return NULL; }
void tree_sitter_fitzv_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_fitzv_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_fitzv_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

bool tree_sitter_fitzv_external_scanner_scan(void *payload, TSLexer *l, const bool *valid) {
  (void)payload;
  if (valid[ERROR_SENTINEL]) return false;
  if (valid[STYLE_TEXT]) return scan_raw_text(l, "style", STYLE_TEXT);
  if (valid[SCRIPT_TEXT]) return scan_raw_text(l, "script", SCRIPT_TEXT);
  if (valid[STRING_TEXT]) return scan_quoted_text(l, '"', STRING_TEXT);
  if (valid[SINGLE_STRING_TEXT]) return scan_quoted_text(l, '\'', SINGLE_STRING_TEXT);
  if (valid[ATTRIBUTE_CODE]) return scan_code(l, STOP_QUOTE, ATTRIBUTE_CODE);
  if (valid[TEXT] || valid[HTML_COMMENT]) {
    while (!l->eof(l) && is_space(l->lookahead)) skip(l);
    if (l->lookahead == '<') return valid[HTML_COMMENT] && scan_html_comment(l);
    return valid[TEXT] && scan_text(l);
  }
  if (valid[ITERABLE]) return scan_code(l, STOP_ITERABLE, ITERABLE);
  if (valid[EXPRESSION]) return scan_code(l, STOP_BRACE, EXPRESSION);
  if (valid[STATEMENTS]) return scan_code(l, STOP_BRACE, STATEMENTS);
  if (valid[FIELD_VALUE]) return scan_code(l, STOP_FIELD, FIELD_VALUE);
  if (valid[TYPE]) return scan_code(l, STOP_TYPE, TYPE);
  return false;
}
