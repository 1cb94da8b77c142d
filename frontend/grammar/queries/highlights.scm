; Syntax highlighting for Fitz. As in tree-sitter's own highlighter, the first
; pattern that matches a node wins: specific patterns come first, the catch-all
; `(identifier) @variable` comes last.

; Types
((named_type
  name: (identifier) @type.builtin)
  (#match? @type.builtin "^(Int|Float|Str|Bool|Null|Bytes|Range|Any|List|Map|Result|Future)$"))
(named_type
  name: (identifier) @type)
(generic_type
  name: (named_type
    name: (identifier) @type))
(function_type
  "Fn" @type.builtin)

(type_definition
  name: (identifier) @type.definition)
(struct_literal
  name: (identifier) @type)

; Functions
((call_expression
  function: (identifier) @function.builtin)
  (#match? @function.builtin "^(print|len|sleep|assert|assert_eq|assert_ne|assert_throws|env|env_or|load_env|bytes|Ok|Err)$"))
(function_definition
  name: (identifier) @function)
(call_expression
  function: (identifier) @function.call)
(call_expression
  function: (field_expression
    field: (identifier) @function.method.call))

(parameter
  name: (identifier) @variable.parameter)

; Fields and properties
(field_declaration
  name: (identifier) @property)
(field_initializer
  name: (identifier) @property)
(field_expression
  field: (identifier) @property)
(named_argument
  name: (identifier) @variable.parameter)
(keyword_argument
  name: (identifier) @variable.parameter)
(decorator_colon_argument
  name: (identifier) @variable.parameter)

; Decorators
(decorator
  "@" @attribute
  name: (identifier) @attribute)

; Modules
(module_path
  (identifier) @module)
(import_name
  alias: (identifier) @module)
(import_statement
  alias: (identifier) @module)

; Labels
(label) @label

; Patterns
(wildcard_pattern) @variable.builtin
(result_pattern
  kind: _ @constructor)

; Literals
(integer) @number
(float) @number.float
[
  (true)
  (false)
] @boolean
(null) @constant.builtin

(string) @string
(bytes) @string.special
(escape_sequence) @string.escape
(format_spec) @string.special

(interpolation
  "{" @punctuation.special
  "}" @punctuation.special)
(interpolation
  ":" @punctuation.special)

(comment) @comment

; Keywords
[
  "let"
  "type"
  "import"
  "from"
  "as"
  "in"
] @keyword

[
  "fn"
] @keyword.function

[
  "async"
  "static"
] @keyword.modifier

"await" @keyword.coroutine

[
  "return"
] @keyword.return

[
  "if"
  "else"
  "match"
] @keyword.conditional

[
  "while"
  "for"
  "loop"
  "break"
  "continue"
] @keyword.repeat

[
  "and"
  "or"
  "xor"
  "not"
] @keyword.operator

; Operators
[
  "+" "-" "*" "/" "%"
  "==" "!=" "<" "<=" ">" ">="
  "&" "|" "^" "~" "<<" ">>"
  "=" "+=" "-=" "*=" "/=" "&=" "|=" "^=" "<<=" ">>="
  ".." "..=" "..."
  "->" "=>"
  "?"
] @operator

; Punctuation
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," "." ":"] @punctuation.delimiter

; Identifiers
((identifier) @constant
  (#match? @constant "^[A-Z][A-Z0-9_]+$"))
(identifier) @variable
