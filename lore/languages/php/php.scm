; PHP: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call PhpExtractor.on_<name>.
(class_declaration) @def.class
(interface_declaration) @def.interface
(trait_declaration) @def.trait
(enum_declaration) @def.enum
(method_declaration) @def.method
(function_definition) @def.function
(member_call_expression) @call
(nullsafe_member_call_expression) @call
(scoped_call_expression) @static_call
(function_call_expression) @function_call
(object_creation_expression) @new
(namespace_use_declaration) @import
(use_declaration) @trait_use
(property_declaration) @property
(assignment_expression) @assign
(catch_clause) @catch
