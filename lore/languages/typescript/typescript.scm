; TypeScript (and TSX): the JavaScript captures plus interfaces, type aliases, enums, namespaces,
; signatures (overloads, interface members, ambient declarations) and typed fields.
(function_declaration) @def.function
(generator_function_declaration) @def.function
(function_signature) @def.function
(class_declaration) @def.class
(abstract_class_declaration) @def.class
(class) @def.class
(method_definition) @def.method
(method_signature) @def.method
(abstract_method_signature) @def.method
(interface_declaration) @def.interface
(type_alias_declaration) @def.type_alias
(enum_declaration) @def.enum
(internal_module) @def.namespace
(variable_declarator) @var
(assignment_expression) @assign
(pair value: [(function_expression) (arrow_function) (generator_function) (identifier) (member_expression)]) @pair
(for_in_statement) @loop
(arrow_function) @closure
(function_expression) @closure
(call_expression) @call
(return_statement) @return
(if_statement) @branch
(new_expression) @new
(import_statement) @import
(export_statement) @export
(public_field_definition) @field
(property_signature) @field
(index_signature) @field
(call_signature) @callsig
(construct_signature) @callsig
; an object type written in place for a property or a field: an interface named after it (not for a
; parameter: it would start on its function's line and stand for the function at that line)
(property_signature type: (type_annotation (object_type) @shape))
(public_field_definition type: (type_annotation (object_type) @shape))
; and a parameter's, when its members start below the function's first line (lore.languages.typescript._shapes)
(required_parameter type: (type_annotation (object_type) @shape))
(optional_parameter type: (type_annotation (object_type) @shape))
; the object part of a parameter's intersection (``req: Request & { store: Store }``): its members, the named parts' after
(required_parameter type: (type_annotation (intersection_type (object_type) @shape)))
(optional_parameter type: (type_annotation (intersection_type (object_type) @shape)))
; narrowing beyond ``if`` (lore.languages.javascript._narrowing)
(expression_statement (call_expression function: (identifier))) @asserted
(expression_statement (binary_expression operator: "&&")) @conjunction
(return_statement (binary_expression operator: "&&")) @conjunction
(variable_declarator value: (binary_expression operator: "&&")) @conjunction
(ternary_expression) @ternary
(switch_statement value: (parenthesized_expression (true))) @cases
