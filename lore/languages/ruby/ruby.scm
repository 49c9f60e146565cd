; Ruby: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call RubyExtractor.on_<name>.
(class) @def.class
(module) @def.trait
(singleton_class) @singleton
(method) @def.method
(singleton_method) @def.method
(call) @call
(super) @super
(assignment) @assign
(body_statement (identifier) @bare_call)
(block_body (identifier) @bare_call)
(then (identifier) @bare_call)
(else (identifier) @bare_call)
(rescue) @rescue
