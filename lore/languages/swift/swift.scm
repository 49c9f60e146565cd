; Swift: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call SwiftExtractor.on_<name>.
(class_declaration) @def.class
(protocol_declaration) @def.protocol
(function_declaration) @def.function
(protocol_function_declaration) @def.function
(init_declaration) @def.init
(deinit_declaration) @def.deinit
(subscript_declaration) @def.subscript
(typealias_declaration) @def.alias
(property_declaration) @property
(protocol_property_declaration) @property
(call_expression) @call
(import_declaration) @import
(if_statement) @optional_binding
(guard_statement) @optional_binding
(enum_entry) @enum_case
