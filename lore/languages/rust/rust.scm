; Rust: one query pass; captures are assigned to their innermost enclosing definition.
; def.<kind> opens a definition; impl blocks only say whose methods follow (RustExtractor.on_impl).
(function_item) @def.function
(function_signature_item) @def.function
(struct_item) @def.struct
(union_item) @def.struct
(enum_item) @def.enum
(trait_item) @def.trait
(type_item) @def.type_alias
(mod_item) @mod
(impl_item) @impl
(call_expression) @call
(macro_invocation) @macro
(struct_expression) @struct_expr
(use_declaration) @use
(let_declaration) @let
(field_declaration) @field
