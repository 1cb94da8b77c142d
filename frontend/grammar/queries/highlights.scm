; Syntax highlighting for Fitz. When several patterns capture the same node,
; the later pattern wins (tree-sitter 0.22 highlighter, Neovim): general
; patterns come first, more specific ones after them.

; Identifiers
(identifier) @variable
((identifier) @constant
  (#match? @constant "^[A-Z][A-Z0-9_]+$"))

; Punctuation and operators
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," "." ":"] @punctuation.delimiter

[
  "+" "-" "*" "/" "%"
  "==" "!=" "<" "<=" ">" ">="
  "&" "|" "^" "~" "<<" ">>"
  "=" "+=" "-=" "*=" "/=" "&=" "|=" "^=" "<<=" ">>="
  ".." "..=" "..."
  "->" "=>"
  "?"
] @operator

; Keywords
[
  "let"
  "type"
  "import"
  "from"
  "as"
  "in"
] @keyword

"fn" @keyword.function

[
  "async"
  "static"
] @keyword.modifier

"await" @keyword.coroutine

"return" @keyword.return

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

(comment) @comment

; Fields and properties
(field_declaration
  name: (identifier) @property)
(field_initializer
  name: (identifier) @property)
(field_expression
  field: (identifier) @property)

; Types
(named_type
  name: (identifier) @type)
(function_type
  "Fn" @type.builtin)
((named_type
  name: (identifier) @type.builtin)
  (#match? @type.builtin "^(Int|Float|Str|Bool|Null|Bytes|Range|Any|List|Map|Result|Future)$"))
(type_definition
  name: (identifier) @type.definition)
(struct_literal
  name: (identifier) @type)

; Functions
(function_definition
  name: (identifier) @function)
(call_expression
  function: (identifier) @function.call)
(call_expression
  function: (field_expression
    field: (identifier) @function.method.call))
((call_expression
  function: (identifier) @function.builtin)
  (#match? @function.builtin "^(print|len|sleep|assert|assert_eq|assert_ne|assert_throws|env|env_or|load_env|bytes|Ok|Err)$"))

; Parameters and named arguments
(parameter
  name: (identifier) @variable.parameter)
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

; Interpolation
(interpolation
  "{" @punctuation.special
  "}" @punctuation.special)
(interpolation
  ":" @punctuation.special)
