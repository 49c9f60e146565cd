; Lua: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call LuaExtractor.on_<name>.
(function_declaration) @def.function
(assignment_statement) @assign
(field value: (function_definition)) @field_function
(function_call) @call
(return_statement) @return
