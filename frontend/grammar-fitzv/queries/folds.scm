; Folding for .fitzv: components, their blocks, elements and template directives.
[
  (component)
  (field_list)
  (block)
  (template)
  (style_block)
  (element)
  (if_block)
  (for_block)
  (html_comment)
] @fold
