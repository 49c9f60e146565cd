; Bash: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; other captures call BashExtractor.on_<name>.
(function_definition) @def.function
(command) @command
