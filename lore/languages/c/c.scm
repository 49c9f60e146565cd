; C: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call CExtractor.on_<name>.
(function_definition) @def.function
(struct_specifier body: (_)) @def.struct
(union_specifier body: (_)) @def.struct
(enum_specifier body: (_)) @def.enum
(type_definition) @typedef
(declaration) @decl
(field_declaration) @field
(call_expression) @call
(preproc_include) @include
(preproc_function_def) @macro
