; Java: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call JavaExtractor.on_<name>.
(class_declaration) @def.class
(record_declaration) @def.class
(interface_declaration) @def.interface
(annotation_type_declaration) @def.interface
(enum_declaration) @def.enum
(method_declaration) @def.method
(constructor_declaration) @def.method
(compact_constructor_declaration) @def.method
(method_invocation) @call
(explicit_constructor_invocation) @ctor_call
(object_creation_expression) @new
(import_declaration) @import
(field_declaration) @field
(local_variable_declaration) @local
(enum_constant) @enum_constant
(object_creation_expression (class_body) @def.anon)
(enum_constant (class_body) @def.anon)
(enhanced_for_statement) @for_each
(catch_formal_parameter) @catch_param
