; Go: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call GoExtractor.on_<name>.
(function_declaration) @def.function
(method_declaration) @def.method
(type_spec) @def.type
(type_alias) @def.type
(method_elem) @def.method
(call_expression) @call
(composite_literal) @composite
(import_spec) @import
(short_var_declaration) @short_var
(range_clause) @range
(var_spec) @var
(field_declaration) @field
(type_elem) @embed
