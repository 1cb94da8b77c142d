; Injections for .fitzv: the view's Fitz code goes to the Fitz grammar, style contents to
; CSS and (rejected, but still shown) script contents to JavaScript.

; Interpolations, conditions, loop iterables and keys, field defaults, handler references.
((expression) @injection.content
  (#set! injection.language "fitz"))

; Event and hook bodies.
((statements) @injection.content
  (#set! injection.language "fitz"))

; Field and parameter types.
((type) @injection.content
  (#set! injection.language "fitz"))

(style_block
  content: (raw_text) @injection.content
  (#set! injection.language "css"))

(style_element
  content: (raw_text) @injection.content
  (#set! injection.language "css"))

(script_element
  content: (raw_text) @injection.content
  (#set! injection.language "javascript"))
