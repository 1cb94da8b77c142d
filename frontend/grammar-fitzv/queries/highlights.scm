; Syntax highlighting for .fitzv files. Fitz code inside a view (the `expression`,
; `statements` and `type` nodes) and style contents are highlighted by the Fitz and CSS
; grammars through injections.scm; this file covers the view's own structure. When several
; patterns capture the same node, the later pattern wins.

(comment) @comment
(html_comment) @comment

; Component structure
[
  "component"
  "props"
  "state"
  "derived"
  "event"
  "on"
] @keyword

[
  "from"
  "import"
  "as"
] @keyword.import

[
  "async"
  "hydrate"
] @keyword.modifier

(component name: (identifier) @type.definition)
(event_definition name: (identifier) @function)
(hook name: (identifier) @function.builtin)
(field_declaration name: (identifier) @property)
(parameter name: (identifier) @variable.parameter)
(type) @type
(import_name name: (identifier) @type)
(import_name alias: (identifier) @type)
(module_path (identifier) @module)
(duration) @number
(string) @string
(string_content) @string

; Template
[
  "<template"
  "</template"
  "<style"
  "</style"
  "<script"
  "</script"
] @tag.builtin

(style_mode) @attribute.builtin

(tag_name) @tag
((tag_name) @type
  (#match? @type "^[A-Z]"))
(attribute_name) @attribute
(attribute (attribute_name) @attribute.builtin
  (#any-of? @attribute.builtin "debounce" "throttle" "keys" "clear-on-submit" "include-form" "slot" "key"))
(event_binding "@" @attribute.builtin event: (attribute_name) @function.method)
(directive_attribute kind: (directive_kind) @keyword name: (attribute_name) @attribute)
(quoted_attribute_value) @string
(attribute_text) @string
(unquoted_attribute_value) @string
(text) @none

["<" ">" "</" "/>"] @punctuation.bracket
["{" "}" "(" ")"] @punctuation.bracket
["," "." ":" "="] @punctuation.delimiter

; Control flow
[
  "{#if"
  "{:else"
  "{#else"
  "{/if"
] @keyword.conditional
"if" @keyword.conditional
[
  "{#for"
  "{:empty"
  "{/for"
] @keyword.repeat
[
  "in"
  "key"
] @keyword.repeat
(for_block item: (identifier) @variable)
(for_block index: (identifier) @variable)
(tuple_pattern (identifier) @variable)

(interpolation "{" @punctuation.special "}" @punctuation.special)
