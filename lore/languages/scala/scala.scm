; Scala: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call ScalaExtractor.on_<name>.
(class_definition) @def.class
(trait_definition) @def.trait
(object_definition) @def.object
(package_object) @def.object
(enum_definition) @def.enum
(function_definition) @def.function
(function_declaration) @def.function
(call_expression) @call
(instance_expression) @new
(import_declaration) @import
(val_definition) @value
(var_definition) @value
(val_declaration) @value
(var_declaration) @value
(typed_pattern) @typed_pattern
