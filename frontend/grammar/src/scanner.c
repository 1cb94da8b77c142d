// External scanner for the Fitz grammar.
//
// Tokens produced here (same order as `externals` in grammar.js):
//   NEWLINE               statement terminator; only when the parser can accept
//                         one (or is recovering from an error), and not when the
//                         next non-blank, non-comment line starts with `.`
//                         (method chain) or `else`. Zero-width, placed at the
//                         start of the next code line.
//   STRING_CONTENT        text chunk of a "..." string
//   TRIPLE_STRING_CONTENT text chunk of a """...""" string (newlines included)
//   BYTES_CONTENT         text chunk of a b"..." literal
//   FORMAT_SPEC           everything after the `:` of an interpolation hole up
//                         to the closing `}`
//   ERROR_SENTINEL        never valid in the grammar; when the parser marks it
//                         valid it is recovering from an error: we then only
//                         report line breaks and let the internal lexer do the rest.
//   SEMICOLON             never valid: a `;` seen where a statement could end.
//                         It is an error by construction; the scanner remembers
//                         it (the only state it keeps) and, in the recovery that
//                         follows, returns a zero-width NEWLINE so the parser
//                         resynchronises right after the `;`.
//   FIELD_BREAK           zero-width, after a `.` that ends its line (or the
//                         file, or is followed by a line comment): the member
//                         is missing. A member name never comes from the next
//                         line, as a statement never continues after a `.`.
//
// Every loop either advances or stops, and EOF is checked everywhere, so the
// scanner cannot hang on truncated input. NUL bytes are ordinary characters.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

enum TokenType {
  NEWLINE,
  STRING_CONTENT,
  TRIPLE_STRING_CONTENT,
  BYTES_CONTENT,
  FORMAT_SPEC,
  ERROR_SENTINEL,
  SEMICOLON,
  FIELD_BREAK,
};

typedef struct {
  bool after_semicolon;
} Scanner;

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool is_horizontal_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0xFEFF;
}

static inline bool is_ident_char(int32_t c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80;
}

// A newline ends the statement unless the next code line (after blank lines)
// starts with `.` (not `..`) or with the keyword `else`.
//
// The token is zero-width and sits at the start of the next code line: the
// newlines before it are skipped as whitespace. When the next non-blank line
// starts with a comment, the decision is deferred: we return false, the
// internal lexer takes the comment as an extra, and we are called again at the
// newline after it. This keeps scanning linear however many comment lines
// separate a method chain.
static bool scan_newline(TSLexer *lexer) {
  while (!lexer->eof(lexer) && is_horizontal_space(lexer->lookahead)) skip(lexer);
  if (lexer->eof(lexer) || lexer->lookahead != '\n') return false;
  while (!lexer->eof(lexer) && (lexer->lookahead == '\n' || is_horizontal_space(lexer->lookahead))) {
    skip(lexer);
  }
  if (lexer->eof(lexer)) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = NEWLINE;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '/') {
      advance(lexer);
      if (lexer->lookahead == '/') return false;  // decide after the line comment
      if (lexer->lookahead != '*') return true;
      // A block comment: if the line goes on after it, decide now; if it ends
      // the line, decide at the next newline.
      advance(lexer);
      for (;;) {
        if (lexer->eof(lexer)) return false;
        if (lexer->lookahead == '*') {
          advance(lexer);
          if (lexer->lookahead == '/') {
            advance(lexer);
            break;
          }
        } else {
          advance(lexer);
        }
      }
      while (!lexer->eof(lexer) && is_horizontal_space(lexer->lookahead)) advance(lexer);
      if (lexer->eof(lexer) || lexer->lookahead == '\n') return false;
      continue;
    }
    if (c == '.') {
      advance(lexer);
      return lexer->lookahead == '.';
    }
    if (c == 'e') {
      static const char rest[] = "lse";
      advance(lexer);
      for (int i = 0; rest[i]; i++) {
        if (lexer->lookahead != rest[i]) return true;
        advance(lexer);
      }
      return !lexer->eof(lexer) && is_ident_char(lexer->lookahead);
    }
    return true;
  }
}

// Content of a string body up to (not including) the next escape, hole,
// closing quote, end of line (single-line strings) or end of file.
static bool scan_string_content(TSLexer *lexer, enum TokenType kind) {
  bool has_content = false;
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '\\') break;
    if (c == '{' && kind != BYTES_CONTENT) break;
    if (c == '\n' && kind != TRIPLE_STRING_CONTENT) break;
    if (c == '"') {
      if (kind != TRIPLE_STRING_CONTENT) break;
      // One or two quotes are content; three end the string.
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '"') {
        advance(lexer);
        if (lexer->lookahead == '"') {
          lexer->result_symbol = kind;
          return has_content;  // token ends at the mark, before the quotes
        }
      }
      has_content = true;
      continue;
    }
    advance(lexer);
    has_content = true;
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = kind;
  return has_content;
}

static bool scan_format_spec(TSLexer *lexer) {
  bool has_content = false;
  while (!lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (c == '}' || c == '"' || c == '\n') break;
    advance(lexer);
    has_content = true;
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = FORMAT_SPEC;
  return has_content;
}

void *tree_sitter_fitz_external_scanner_create(void) { return calloc(1, sizeof(Scanner)); }

void tree_sitter_fitz_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_fitz_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *scanner = payload;
  if (!scanner->after_semicolon) return 0;
  buffer[0] = 1;
  return 1;
}

void tree_sitter_fitz_external_scanner_deserialize(void *payload, const char *buffer,
                                                   unsigned length) {
  Scanner *scanner = payload;
  scanner->after_semicolon = length > 0 && buffer[0] != 0;
}

// After a `.`: a FIELD_BREAK when nothing but spaces (or a line comment) is
// left on the line; otherwise nothing, and the internal lexer reads the member.
static bool scan_field_break(TSLexer *lexer) {
  while (!lexer->eof(lexer) && is_horizontal_space(lexer->lookahead)) skip(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = FIELD_BREAK;
  if (lexer->eof(lexer) || lexer->lookahead == '\n') return true;
  if (lexer->lookahead != '/') return false;
  advance(lexer);
  return lexer->lookahead == '/';
}

bool tree_sitter_fitz_external_scanner_scan(void *payload, TSLexer *lexer,
                                            const bool *valid_symbols) {
  Scanner *scanner = payload;
  // Error recovery: every symbol is valid. Only real line breaks (and the
  // terminator owed after a `;`) are reported, so that the parser can
  // resynchronise at the next statement.
  if (valid_symbols[ERROR_SENTINEL]) {
    if (scanner->after_semicolon) {
      scanner->after_semicolon = false;
      lexer->mark_end(lexer);
      lexer->result_symbol = NEWLINE;
      return true;
    }
    return scan_newline(lexer);
  }
  scanner->after_semicolon = false;

  if (valid_symbols[STRING_CONTENT]) return scan_string_content(lexer, STRING_CONTENT);
  if (valid_symbols[TRIPLE_STRING_CONTENT])
    return scan_string_content(lexer, TRIPLE_STRING_CONTENT);
  if (valid_symbols[BYTES_CONTENT]) return scan_string_content(lexer, BYTES_CONTENT);
  if (valid_symbols[FORMAT_SPEC]) return scan_format_spec(lexer);
  if (valid_symbols[NEWLINE]) {
    while (!lexer->eof(lexer) && is_horizontal_space(lexer->lookahead)) skip(lexer);
    if (lexer->lookahead == ';') {
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = SEMICOLON;
      scanner->after_semicolon = true;
      return true;
    }
    return scan_newline(lexer);
  }
  if (valid_symbols[FIELD_BREAK]) return scan_field_break(lexer);
  return false;
}
