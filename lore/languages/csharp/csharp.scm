; C#: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call CSharpExtractor.on_<name>.
(class_declaration) @def.class
(record_declaration) @def.class
(struct_declaration) @def.struct
(interface_declaration) @def.interface
(enum_declaration) @def.enum
(delegate_declaration) @def.delegate
(method_declaration) @def.method
(constructor_declaration) @def.method
(destructor_declaration) @def.method
(operator_declaration) @def.method
(local_function_statement) @def.function
(invocation_expression) @call
(object_creation_expression) @new
(implicit_object_creation_expression) @new_implicit
(constructor_initializer) @ctor_call
(using_directive) @import
(field_declaration) @field
(property_declaration) @property
(local_declaration_statement) @local
(foreach_statement) @for_each
(catch_declaration) @catch_param
(using_statement) @using_block
(declaration_pattern) @pattern
(declaration_expression) @pattern
