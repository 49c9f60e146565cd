; Everything the Python extractor needs, in one pass of the query engine (C speed); each capture name
; has its handler in _parser.py (decorators are read from their definition).
; Captures are merged in document order and assigned to their innermost enclosing definition.
(function_definition) @def.function
(class_definition) @def.class
(lambda) @def.lambda
(call) @call
(import_statement) @import
(import_from_statement) @import_from
(assignment) @assign
(with_item) @with_item
(except_clause) @except
(for_statement) @for
(for_in_clause) @comp_for
(return_statement) @return
(yield) @yield
(raise_statement) @raise
(if_statement) @if
(elif_clause) @elif
(assert_statement) @assert
(if_statement consequence: (block) @branch)
(elif_clause consequence: (block) @branch)
(else_clause body: (block) @branch)
(try_statement body: (block) @branch)
(except_clause (block) @branch)
(case_clause consequence: (block) @branch)
