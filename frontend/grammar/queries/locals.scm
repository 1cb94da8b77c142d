; Scopes: functions and lambdas open a scope; so do comprehensions (their
; variables are local). Blocks of if/while/for/loop/match do not.
(source_file) @local.scope
(function_definition) @local.scope
(lambda) @local.scope
(list_comprehension) @local.scope
(map_comprehension) @local.scope
(type_body) @local.scope

; Definitions
(function_definition
  name: (identifier) @local.definition.function)
(type_definition
  name: (identifier) @local.definition.type)
(parameter
  name: (identifier) @local.definition.parameter)
(let_statement
  name: (identifier) @local.definition.var)
(let_statement
  pattern: (tuple_pattern
    (identifier) @local.definition.var))
(annotated_assignment
  name: (identifier) @local.definition.var)
(assignment
  left: (identifier) @local.definition.var)
(for_statement
  pattern: (identifier) @local.definition.var)
(for_statement
  pattern: (tuple_pattern
    (identifier) @local.definition.var))
(for_clause
  pattern: (identifier) @local.definition.var)
(for_clause
  pattern: (tuple_pattern
    (identifier) @local.definition.var))
(match_arm
  pattern: (identifier) @local.definition.var)
(result_pattern
  pattern: (identifier) @local.definition.var)
(field_declaration
  name: (identifier) @local.definition.field)
(import_statement
  alias: (identifier) @local.definition.import)
(import_name
  alias: (identifier) @local.definition.import)
(import_name
  !alias
  name: (identifier) @local.definition.import)

; References
(identifier) @local.reference
