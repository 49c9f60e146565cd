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
; narrowing beyond ``if`` (lore.languages.javascript._narrowing)
(expression_statement (call_expression function: (identifier))) @asserted
(expression_statement (binary_expression operator: "&&")) @conjunction
(return_statement (binary_expression operator: "&&")) @conjunction
(variable_declarator value: (binary_expression operator: "&&")) @conjunction
(ternary_expression) @ternary
(switch_statement value: (parenthesized_expression (true))) @cases
