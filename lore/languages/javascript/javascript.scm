; JavaScript: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call JsExtractor.on_<name>.
(function_declaration) @def.function
(generator_function_declaration) @def.function
(class_declaration) @def.class
(class) @def.class
(method_definition) @def.method
(variable_declarator) @var
(assignment_expression) @assign
(pair value: [(function_expression) (arrow_function) (generator_function) (identifier) (member_expression)]) @pair
(for_in_statement) @loop
(call_expression) @call
(return_statement) @return
(if_statement) @branch
(new_expression) @new
(import_statement) @import
(export_statement) @export
(field_definition) @field
