; Kotlin: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call KotlinExtractor.on_<name>.
(class_declaration) @def.class
(object_declaration) @def.object
(function_declaration) @def.function
(secondary_constructor) @def.constructor
(call_expression) @call
(import) @import
(property_declaration) @property
(for_statement) @for_each
(catch_block) @catch_param
(type_alias) @def.alias
