; SQL passed as the first argument of `.query(...)` / `.exec(...)` (conn.query, tx.exec, ...):
; editors with a SQL grammar highlight the string's text as SQL. Interpolation holes stay Fitz.
(call_expression
  function: (field_expression
    field: (identifier) @_method)
  arguments: (arguments
    .
    (string
      (string_content) @injection.content))
  (#any-of? @_method "query" "exec" "query_one" "query_opt")
  (#set! injection.language "sql")
  (#set! injection.combined))
