[
  (block)
  (type_body)
  (match_body)
  (list)
  (map)
  (tuple)
  (list_comprehension)
  (map_comprehension)
  (struct_literal)
  (arguments)
  (parameters)
  (decorator_arguments)
  (from_import_statement)
  (comment)
] @fold

(string) @fold
