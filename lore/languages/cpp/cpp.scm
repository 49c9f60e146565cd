; C++: the C captures plus classes, namespaces, new-expressions and method declarations in class bodies.
(function_definition) @def.function
(struct_specifier body: (_)) @def.struct
(union_specifier body: (_)) @def.struct
(enum_specifier body: (_)) @def.enum
(class_specifier body: (_)) @def.class
(namespace_definition) @def.namespace
(type_definition) @typedef
(alias_declaration) @typedef
(declaration) @decl
(field_declaration) @field
(call_expression) @call
(new_expression) @new
(preproc_include) @include
(preproc_function_def) @macro
(using_declaration) @using
(namespace_alias_definition) @namespace_alias
(for_range_loop) @for_range
(field_initializer) @field_init
(lambda_expression) @lambda
