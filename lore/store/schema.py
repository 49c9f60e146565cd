"""The one place where lore's SQLite schema is defined.

The index is a derived cache of the repository, so an index written with another
``SCHEMA_VERSION`` is never migrated in place: ``lore index`` rebuilds it from the sources
(``--rebuild``), and readers refuse it with :class:`~lore.errors.SchemaVersionError`. The document
tables hold data that cannot be re-derived from the repository alone (metadata given on the command
line), so they are listed in ``PRESERVED_ON_REBUILD`` and copied across a rebuild when their own
layout is unchanged (``DOCS_LAYOUT``).

Edge resolutions, strongest first. ``confidence`` is 1.0 for the certain ones, lower for
heuristics, and ``1/k`` for each of ``k`` ambiguous candidates.
"""

from __future__ import annotations

SCHEMA_VERSION = 9  # 2: cluster members as one blob per run; 3: call arguments and lambdas in the records (values that travel);
# 4: history_runs (co-change counts mined from git, lore.store.history); 5: files_fts.content (a file's whole text) and
# symbols_fts.rest (a body past its first 2,000 characters, nested definitions left out; issue 37: search reads everything)
# 6: symbols_fts and files_fts contentless, their text stored once, compressed, in <table>_text (issue 33: the index
# held every body and every file's source twice)
# 7: symbols_fts_text holds one compressed row per file (all its symbols' search text), file_records keeps its symbol
# ids as runs and its names compressed; the edge tables store their kind and resolution as small integer codes, read
# back as text through virtual generated columns (issue 33: the kernel's index on disk)
# 8: derived_state.data and cluster_runs' summary and members stored zlib-compressed (issue 33: 15.9 -> 3.6 MB on a
# kernel subsystem)
# 9: one fts_text row per file holds both search tables' text of the file in one zlib stream (symbols_fts_text and
# files_fts_text merged; issue 33: 48.6 -> 39.4 MB on a kernel subsystem, every row and term unchanged)
DOCS_LAYOUT = 1
# what the parsers and the resolver make of the same sources: bump it when their records or edges
# change, and every index another format wrote is rebuilt by its next ``lore index`` (an unchanged
# file is otherwise never parsed or resolved again, so an upgrade would keep the old edges)
INDEX_FORMAT = 15  # 2: <yield> and tuple-element bindings; fixture_flow, unpacked-tuple, same-line-rebinding and marker-base edges;
# 3: a binding reads the bindings of every earlier line (the line just before was skipped)
# 4: isinstance narrowings (Binding.until), branch bindings (Binding.branch_end); rebound parameters;
#    elements of annotated containers
# 5: Java calls record their arguments (overloads), enum constants call constructors, enhanced-for and catch
#    variables and java.lang types (String ...) are typed
#    TS/JS: name guesses only into imported modules, declared member types, super(), getters, JSDoc;
#    Rust: guesses respect privacy and std paths, impl blocks of std types, generic bounds
#    C/C++: include search paths, global linkage (no name guesses), macro-tolerant extraction, overloads by arity
# 6: C#, Ruby, PHP and Kotlin (.cs, .rb, .php, .kt files are indexed; .NET test projects, *_spec.rb, *Test.php,
#    Kotlin test source sets are test code); the basic tier (Lua, Scala: name_only edges)
#    C: preprocessor branches of a default build (Symbol.condition); C++: a header takes its project's language,
#    overloads by declared argument types; Python: generic bases, values that follow a call's first argument,
#    properties, with-as; TS/JS: runtime types, contextual typing, typed containers; Java: typed collections
# 7: Swift, Scala, Lua and Bash full languages (.swift, .sh/.bash/.bats and shebang scripts are indexed; Scala
#    and Lua leave the basic tier, which now serves Elixir, Dart and OCaml); Python: what a metaclass sets;
#    TS: type arguments, inferred returns, instanceof; C++: container elements, casts, operator[]
# 8: C: a source file's #define stays in its file, conditions other headers decide, a configured kernel's options;
#    C++: one branch of a broken #if, inline namespaces, lower-case classes; TS: root tsconfig paths, callback
#    parameters typed by the callee, no invented builtin members; Python: containers filled by append, await
# 9: Python: a method giving back self / a copy of self / self.__class__(...) / -> Self gives its receiver's class;
#    a class built from another class's copied methods records it as its __delegate__ (a new binding)
# 10: Python: an assignment in one branch of an if statement is not read in its other branches (Binding.shut);
#    isinstance(self.attr, C) narrows the path in its branch; a known branch stands for an unknown sibling after it
#    (both this session's): also C reads compile_commands.json; C++ lambdas in variables, constructions, iterators,
#    out-of-line template members; TS casts, intersections, in-place parameter shapes; Python import fallbacks,
#    ContextVar/Future/Task, unpacking loops, Generic[T] parameters
# 11: Python: narrowing by elimination (the else of isinstance(x, A), the branch of not isinstance: no A; "!A");
#     a parameter annotated `type` and isinstance(x, type) hold the classes their values give, not `type`;
#     TS: the object part of a parameter's intersection is an interface (`req: Request & { store: S }`), and a
#     `declare global { interface Request {...} }` adds its members to the runtime's Request
# 12: Python: the else of isinstance(x, type) holds no class (unknown when only classes were known)
#     (both this session's): also C: standard-library names, PNG_FUNCTION, decided compiler conditions, later
#     macro redefinitions; C++: block scopes, value-category overloads, smart-pointer get(), pairs, iterators;
#     TS: methods returning wrapped `this`, one-line destructured shapes, typed returns, ternaries;
#     C++: calls that go outside the project (::f, p.reset() of a smart pointer, std names and aliases) bound there
# 13: TS: `declare module 'fw' { interface App {...} }` (and './local') adds its members to that module's interface;
#     a static method and an instance method of one name are told apart by class or instance access (<static>);
#     `type Ctx<T> = T & {...}` gives Ctx<C> C's members; `function f(this: T)`; a member typed `typeof f` holds f
#     C++: class templates read with their arguments (Grid<Point>::at -> Point, template bases, aliases of them),
#     number fields and results choosing overloads, container aliases of other headers, x.template f<T>();
#     C++ definitions a macro hid (MACRO((cond), (T)) f(, a macro for if constexpr, T LIB_FN f(, Get##name##X())
#     C: names a macro writes (BZ_API(name), pasted IMPL_CTYPE_FN(x) definitions), a macro's own name and file
#     scope, the statics/macros/typedefs of a source file included by name (#include "lz4.c")
#     TS/JS: the object literal a function returns is its namespace <return>
#     (`make.<return>.find`), `ReturnType<typeof f>` holds what f() gives, a declare-module block reads the others
#     Python: a subscript keyed by a name records it (d[*k]); a name bound once to an int/str literal records
#     it (=k); a literal container read with such a constant key gives that slot only; a function giving back
#     its first argument gives this call site's argument (f(a)(), x = f(a)); cls: type[T] -> T gives the
#     receiver's class; an if TYPE_CHECKING import is not rebound by its else stand-in; with closing(x) as y
#     holds x; an int/str literal argument records its key (=1) and a subscript call with unnamed arguments
#     records ['']; a parameter read as a key that its function rebinds records =k without a literal
# 14: TS: a class field called as this.#f() and a constructor parameter property holding a function are methods
#     of the class; a returned literal's shorthand names of the function's own functions are its members and
#     its <return> namespace starts at its first member
#     C++: a call on a receiver typed by a template parameter binds every function of its name (at most five,
#     as clangd answers it); a macro for if constexpr spelled CONSTEXPR_IF, also after else
#     C: a flag the headers a file includes surely #define decides that file's #if branches ("=un NAME" marks
#     the plain #defines an includer cannot count on); an object-like macro renaming a function (#define
#     MZ_FCLOSE fclose) is a symbol its calls bind, as clangd answers them
#     Python: a value annotated with a type variable is an instance of its bound (TypeVar(..., bound=B)); one
#     without a bound keeps typing.TypeVar's members, as before
# 15: C++: a construction whose type depends on a template parameter, and a copy of a class without a declared
#     copy constructor, bind the class; a source calls its own definition of a function before another
#     source's; a macro writing an if/while condition (if LIB_UNLIKELY(x)) is read as the condition
#     TS/JS: an instanceof test of a property path (this.error) narrows it in its branch; a callback pushed onto
#     an array of a function type takes that type's parameters; Foo<A>[] keeps its element type; a callback's
#     parameter named like the array's owner is not what the call it is given to reads; a package importing
#     itself by name resolves through its package.json exports
#     C: a file included several times after different macros defines the names they paste (FN(HistogramAdd) ->
#     HistogramAddLiteral, per including unit; "=tpl"/"=decl"/"=tm" defines entries); #include MACRO follows the
#     header the macro names ("=inc"); a typedef a macro writes names its type only; __asm { } blocks are blanked;
#     a renaming #define before the call binds it whatever its arity; src/win/ files read src/win/ headers
#     Python: x = await f() marks its binding (Binding.arg "<await>..."); when f() gives an instance of a class
#     with __await__, x is opaque (what __await__ gives), never that instance; a module's pytest_plugins names
#     (<pytest_plugins> bindings): their fixtures reach the tests below it after every conftest.py; calling an
#     instance gives what its class's __call__ returns; a definition in the branch of an if sys.version_info
#     test that no supported Python (3.10 and later) runs is marked as an import's fallback is (condition "0")
#     C++ (round 11): namespace and attribute macros another header defines (FMT_BEGIN_NAMESPACE) are read
#     as their expansion in every C++ file (a project-wide table; a changed table re-parses the C++ files);
#     void (*fn)(int); is a variable in C++, no function
#     TS/JS (round 14): type guards and assertion functions of the file, `e instanceof A && e.m()`, ternaries and
#     switch (true) narrow; a member a runtime class lacks (err.toResponse() with err: Error) is unbound, not invented

# strongest first; the resolver records which rule bound each edge
RESOLUTIONS: tuple[str, ...] = (
    "local_scope",  # name bound in the same or an enclosing function/class scope
    "import",  # through an import (aliases, re-exports, relative imports)
    "self_method",  # self.m() / cls.m() / super().m() / this.m() through the class hierarchy
    "annotated_type",  # receiver typed by an annotation (param, variable, attribute)
    "constructor_type",  # receiver typed by the constructor or function (annotated, or whose returns agree) it came from
    "module_global",  # name defined at module level of the same file
    "global_linkage",  # C/C++: the exported definitions of a name in other source files, no prototype in sight
    "fixture_flow",  # a test's parameter named after a pytest fixture: what the fixture returns or yields
    # values that travel (lore.index._flow): the last step that brought the value to the call names the edge
    "decorator_flow",  # the name of a decorated function stands for the wrapper its decorator returns
    "return_flow",  # a function (or several) returned by the callee of an inner call: f()()
    "attribute_flow",  # read from an attribute whose value came in from elsewhere (self.cb = cb)
    "container_flow",  # read from a container slot whose key is unknown, or a loop over a container
    "argument_flow",  # a parameter, bound to every value callers pass into it (confidence split k ways)
    "same_file_name",  # heuristic: a unique definition of that name in the same file
    "unique_name",  # heuristic: the only definition of that name in the repository (or the one all others override)
    "ambiguous_name",  # heuristic: one of k candidates, confidence 1/k each
    "name_only",  # basic tier (a grammar's tags.scm, no rules of the language): a definition of that name, 1/k each
    "external",  # stdlib / third-party target, an `external` symbol named by import path
    "builtin",  # a language builtin (len, print, ...), an `external` symbol under `builtins.`
    "unresolved",  # nothing found: callee_id is NULL, the raw name is kept
)

CONFIDENCE: dict[str, float] = {
    "local_scope": 1.0,
    "import": 1.0,
    "self_method": 0.95,
    "annotated_type": 0.9,
    "constructor_type": 0.85,
    "module_global": 1.0,
    "global_linkage": 0.9,
    "fixture_flow": 0.85,
    "decorator_flow": 0.85,
    "return_flow": 0.8,
    "attribute_flow": 0.8,
    "container_flow": 0.75,
    "argument_flow": 0.75,
    "same_file_name": 0.6,
    "unique_name": 0.5,
    "ambiguous_name": 0.5,  # multiplied by 1/k
    "name_only": 0.4,  # multiplied by 1/k
    "external": 1.0,
    "builtin": 1.0,
    "unresolved": 0.0,
}

# Edges bound by a name alone (no scope, import, type or value proves them): heuristics and guesses.
NAME_GUESSES: frozenset[str] = frozenset({"same_file_name", "unique_name", "ambiguous_name", "name_only"})

# How much of the call graph to trust (``lore stats``): every resolution falls in one strength.
STRENGTHS: tuple[str, ...] = ("rule", "heuristic", "ambiguous", "external", "unresolved")


def strength(resolution: str) -> str:
    """The strength of an edge's resolution: ``rule`` (bound by scopes, imports, types, the class
    hierarchy or values that travel), ``heuristic`` (a unique name), ``ambiguous`` (one of k names),
    ``external`` (a library or builtin target an import or the language proves) or ``unresolved``.

    Examples
    --------
    >>> [strength(r) for r in ("import", "argument_flow", "same_file_name", "ambiguous_name", "builtin", "unresolved")]
    ['rule', 'rule', 'heuristic', 'ambiguous', 'external', 'unresolved']
    """
    if resolution in ("same_file_name", "unique_name", "name_only"):
        return "heuristic"
    if resolution == "ambiguous_name":
        return "ambiguous"
    if resolution in ("external", "builtin"):
        return "external"
    if resolution == "unresolved" or resolution not in CONFIDENCE:
        return "unresolved"
    return "rule"


# Edge kinds and resolutions are stored as small integer codes (an index in these tuples; 1 byte instead of a
# word of text in each of the kernel's 7M edge rows) in the columns kind_code / res_code, and read as text
# through the virtual generated columns kind / resolution (no storage; every query reads them as before).
# A value not in its tuple is stored as its own text and read back unchanged, so a new kind needs no bump.
# Append only: the position is what an index holds.
REF_KINDS: tuple[str, ...] = ("call", "new", "decorator", "raise", "implicit")
TYPE_KINDS: tuple[str, ...] = ("param", "return", "annotation", "field", "instantiation", "isinstance", "generic")
REL_KINDS: tuple[str, ...] = ("contains", "extends", "implements", "overrides", "embeds")
# The resolutions' codes have their own frozen order: RESOLUTIONS is ordered by strength (the resolver's RANK
# reads it), so a new rule may be inserted anywhere there, while a code, once written, must keep its word.
STORED_RESOLUTIONS: tuple[str, ...] = (
    "local_scope", "import", "self_method", "annotated_type", "constructor_type", "module_global", "global_linkage",
    "fixture_flow", "decorator_flow", "return_flow", "attribute_flow", "container_flow", "argument_flow",
    "same_file_name", "unique_name", "ambiguous_name", "name_only", "external", "builtin", "unresolved",
)


def _as_text(column: str, values: tuple[str, ...]) -> str:
    """The SQL expression that reads a code column as its text (a text value stays as it is).

    Examples
    --------
    >>> _as_text("k", ("a", "b"))
    "CASE k WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE k END"
    """
    return f"CASE {column} " + " ".join(f"WHEN {i} THEN '{v}'" for i, v in enumerate(values)) + f" ELSE {column} END"


def _codes(values: tuple[str, ...]) -> dict[str, int]:
    return {v: i for i, v in enumerate(values)}


REF_KIND_CODES, TYPE_KIND_CODES, REL_KIND_CODES, RESOLUTION_CODES = map(_codes, (REF_KINDS, TYPE_KINDS, REL_KINDS,
                                                                                   STORED_RESOLUTIONS))


CORE_DDL = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS files (
    id            INTEGER PRIMARY KEY,
    path          TEXT NOT NULL UNIQUE,
    language      TEXT NOT NULL,
    module        TEXT NOT NULL,
    hash          TEXT NOT NULL,
    size          INTEGER NOT NULL,
    mtime_ns      INTEGER NOT NULL,
    lines         INTEGER NOT NULL DEFAULT 0,
    syntax_errors INTEGER NOT NULL DEFAULT 0,
    is_test       INTEGER NOT NULL DEFAULT 0,
    generation    INTEGER NOT NULL
);

-- raw parser output per file (compressed pickle of lore.parsers.records.ParsedFile) so that
-- edges can be re-resolved after a refresh without re-parsing unchanged files
CREATE TABLE IF NOT EXISTS file_records (
    file_id   INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    data      BLOB NOT NULL,
    local_ids BLOB NOT NULL DEFAULT x'',  -- the symbol id of each record symbol, in record order, as int64 (start, count) runs
    ref_names BLOB NOT NULL DEFAULT x''  -- zlib of every name the file's edges mention (finds dependents on refresh)
);

CREATE TABLE IF NOT EXISTS symbols (
    id             INTEGER PRIMARY KEY,
    file_id        INTEGER REFERENCES files(id) ON DELETE CASCADE,  -- NULL for external symbols
    name           TEXT NOT NULL,
    qualified_name TEXT NOT NULL,
    kind           TEXT NOT NULL,
    parent_id      INTEGER,
    start_line     INTEGER NOT NULL DEFAULT 0,
    end_line       INTEGER NOT NULL DEFAULT 0,
    start_col      INTEGER NOT NULL DEFAULT 0,
    end_col        INTEGER NOT NULL DEFAULT 0,
    signature      TEXT NOT NULL DEFAULT '',
    docstring      TEXT NOT NULL DEFAULT '',
    return_type    TEXT NOT NULL DEFAULT '',
    exported       INTEGER NOT NULL DEFAULT 1,
    is_test        INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS symbol_refs (
    caller_id   INTEGER NOT NULL,
    callee_id   INTEGER,               -- NULL when unresolved
    callee_name TEXT NOT NULL,         -- raw callee text as written
    line        INTEGER NOT NULL,
    col         INTEGER NOT NULL DEFAULT 0,
    kind        TEXT GENERATED ALWAYS AS (@REF_KIND@) VIRTUAL,  -- call | new | decorator | raise | implicit
    resolution  TEXT GENERATED ALWAYS AS (@RES@) VIRTUAL,
    confidence  REAL NOT NULL,
    kind_code   NOT NULL,              -- REF_KINDS index (or the text)
    res_code    NOT NULL               -- STORED_RESOLUTIONS index (or the text)
);

CREATE TABLE IF NOT EXISTS type_refs (
    symbol_id  INTEGER NOT NULL,
    type_id    INTEGER,                -- NULL when unresolved
    type_name  TEXT NOT NULL,
    kind       TEXT GENERATED ALWAYS AS (@TYPE_KIND@) VIRTUAL,  -- param | return | annotation | field | ...
    context    TEXT NOT NULL DEFAULT '',  -- parameter or attribute name
    line       INTEGER NOT NULL,
    resolution TEXT GENERATED ALWAYS AS (@RES@) VIRTUAL,
    confidence REAL NOT NULL,
    kind_code  NOT NULL,               -- TYPE_KINDS index (or the text)
    res_code   NOT NULL                -- STORED_RESOLUTIONS index (or the text)
);

CREATE TABLE IF NOT EXISTS file_imports (
    file_id        INTEGER NOT NULL,
    symbol_id      INTEGER,            -- the importing scope (module symbol usually)
    module         TEXT NOT NULL,      -- as written (relative imports keep their dots)
    name           TEXT,               -- from-import name, '*' for star imports
    alias          TEXT,
    level          INTEGER NOT NULL DEFAULT 0,
    line           INTEGER NOT NULL,
    target_file_id INTEGER,            -- resolved file, NULL for external / unresolved
    target_id      INTEGER,            -- resolved symbol (module or imported member)
    resolution     TEXT GENERATED ALWAYS AS (@RES@) VIRTUAL,
    confidence     REAL NOT NULL,
    res_code       NOT NULL            -- STORED_RESOLUTIONS index (or the text)
);

CREATE TABLE IF NOT EXISTS symbol_relationships (
    source_id   INTEGER NOT NULL,
    target_id   INTEGER,
    target_name TEXT NOT NULL,
    kind        TEXT GENERATED ALWAYS AS (@REL_KIND@) VIRTUAL,  -- contains | extends | implements | overrides | embeds
    line        INTEGER NOT NULL DEFAULT 0,
    resolution  TEXT GENERATED ALWAYS AS (@RES@) VIRTUAL,
    confidence  REAL NOT NULL,
    kind_code   NOT NULL,              -- REL_KINDS index (or the text)
    res_code    NOT NULL               -- STORED_RESOLUTIONS index (or the text)
);

-- label-propagation assignments, stamped with the generation they were computed from
CREATE TABLE IF NOT EXISTS cluster_runs (
    key        TEXT PRIMARY KEY,       -- algorithm + parameters
    generation INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    summary    BLOB NOT NULL,          -- zlib of the JSON: per-cluster size, cohesion, label
    members    BLOB NOT NULL           -- zlib of little-endian int64 (symbol id, cluster id) pairs, by symbol id
);

-- co-change counts mined from git (lore.store.history), stamped with the generation they were mapped onto
CREATE TABLE IF NOT EXISTS history_runs (
    key        TEXT PRIMARY KEY,       -- 'git'
    generation INTEGER NOT NULL,
    summary    TEXT NOT NULL,          -- JSON: head, until, commits read / used / skipped, newest commit time
    pairs      BLOB NOT NULL,          -- little-endian int64 (symbol a, symbol b, commits) triples, a < b
    touched    BLOB NOT NULL           -- little-endian int64 (symbol, commits) pairs
);

-- BM25 over symbols; rowid = symbols.id; text is pre-tokenized (camelCase / snake_case split); body: the first
-- 2,000 characters of the source, rest: the rest of the row's own text (nested definitions are their own rows).
-- Both search tables are contentless: the text of a row is kept once, compressed, in fts_text, one row per
-- file for both tables (lore.store._fts_text), read back to delete the rows and by the few readers of the text
CREATE VIRTUAL TABLE IF NOT EXISTS symbols_fts USING fts5(
    name, qualified_name, signature, docstring, path, body, rest,
    content = '', tokenize = "unicode61 remove_diacritics 2"
);
CREATE VIRTUAL TABLE IF NOT EXISTS files_fts USING fts5(
    path, exports, imports, content,
    content = '', tokenize = "unicode61 remove_diacritics 2"
);
CREATE TABLE IF NOT EXISTS fts_text (
    file_id INTEGER PRIMARY KEY,           -- files.id
    data    BLOB NOT NULL                  -- zlib(marshal((the files_fts columns or None,
                                           --               [(symbols.id, *the symbols_fts columns), ...] by id)))
);

-- code embeddings for vector / hybrid symbol search (one row per symbol or file and model)
CREATE TABLE IF NOT EXISTS code_vectors (
    owner_kind   TEXT NOT NULL,        -- symbol | file
    owner_id     INTEGER NOT NULL,
    model        TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    vector       BLOB NOT NULL,
    PRIMARY KEY (owner_kind, owner_id, model)
) WITHOUT ROWID;
"""

CORE_DDL = (CORE_DDL.replace("@RES@", _as_text("res_code", STORED_RESOLUTIONS))
            .replace("@REF_KIND@", _as_text("kind_code", REF_KINDS))
            .replace("@TYPE_KIND@", _as_text("kind_code", TYPE_KINDS))
            .replace("@REL_KIND@", _as_text("kind_code", REL_KINDS)))

# indexes are created after the bulk load of a full build (much faster than maintaining them row by row).
# Naming a symbol (lore.queries._naming, ._names) reads symbols_qname and symbols_name, which holds the
# qualified name beside the short name so that a suffix (`Session.request`) is matched inside the index
# (an index written before keeps symbols_name on the name alone: the same answers, through the rows); the nearest names
# to a typo come from symbols_name_lower (a prefix range) and symbols_name_tail (the last three
# characters); re-exports are read by the importing file's module (files_module), Go packages from the
# Go files' paths (files_language); the count of unresolved call sites beside `callers` scans refs_unresolved,
# the unresolved rows' names only. An index only speeds
# up reads, so none needs a SCHEMA_VERSION bump: `lore index` creates a missing one (ensure_indexes, IF
# NOT EXISTS) on an older index, and until then the same queries answer by scanning.
CORE_INDEXES = """
CREATE INDEX IF NOT EXISTS symbols_qname ON symbols(qualified_name);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name, qualified_name);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);
CREATE INDEX IF NOT EXISTS symbols_parent ON symbols(parent_id);
CREATE INDEX IF NOT EXISTS symbols_name_lower ON symbols(lower(name), length(name));
CREATE INDEX IF NOT EXISTS symbols_name_tail ON symbols(substr(lower(name), -3), length(name), lower(name));
CREATE INDEX IF NOT EXISTS files_module ON files(module);
CREATE INDEX IF NOT EXISTS files_language ON files(language, path);
CREATE INDEX IF NOT EXISTS refs_caller ON symbol_refs(caller_id, callee_id);
CREATE INDEX IF NOT EXISTS refs_callee ON symbol_refs(callee_id, caller_id);
CREATE INDEX IF NOT EXISTS refs_unresolved ON symbol_refs(callee_name) WHERE callee_id IS NULL;
CREATE INDEX IF NOT EXISTS type_refs_symbol ON type_refs(symbol_id, type_id);
CREATE INDEX IF NOT EXISTS type_refs_type ON type_refs(type_id, symbol_id);
CREATE INDEX IF NOT EXISTS imports_file ON file_imports(file_id);
CREATE INDEX IF NOT EXISTS imports_target ON file_imports(target_file_id);
CREATE INDEX IF NOT EXISTS imports_target_symbol ON file_imports(target_id);
CREATE INDEX IF NOT EXISTS rel_source ON symbol_relationships(source_id, target_id);
CREATE INDEX IF NOT EXISTS rel_target ON symbol_relationships(target_id, source_id);
"""

DOCS_DDL = """
CREATE TABLE IF NOT EXISTS documents (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL UNIQUE,   -- absolute or repo-relative source path
    source_type TEXT NOT NULL,          -- markdown | rst | text
    title       TEXT NOT NULL DEFAULT '',
    library     TEXT NOT NULL DEFAULT '',
    version     TEXT NOT NULL DEFAULT '',
    topic       TEXT NOT NULL DEFAULT '',
    tags        TEXT NOT NULL DEFAULT '',  -- comma-separated, normalised
    hash        TEXT NOT NULL,
    added_at    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    id           INTEGER PRIMARY KEY,
    document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    chunk_index  INTEGER NOT NULL,
    total_chunks INTEGER NOT NULL,
    breadcrumb   TEXT NOT NULL DEFAULT '',
    content      TEXT NOT NULL,
    start_char   INTEGER NOT NULL,
    end_char     INTEGER NOT NULL,
    page         INTEGER,
    content_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks(document_id, chunk_index);
CREATE TABLE IF NOT EXISTS chunk_vectors (
    chunk_id     INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    model        TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    vector       BLOB NOT NULL,
    PRIMARY KEY (chunk_id, model)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS document_links (
    source_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    source_chunk_id    INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
    target_document_id INTEGER REFERENCES documents(id) ON DELETE CASCADE,
    target_chunk_id    INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
    href               TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS doc_links_source ON document_links(source_document_id);
CREATE INDEX IF NOT EXISTS doc_links_target ON document_links(target_document_id);
-- exact identifier mentions of indexed code symbols inside chunks (qualified name kept: symbol ids change on rebuild)
CREATE TABLE IF NOT EXISTS chunk_symbol_mentions (
    chunk_id       INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    qualified_name TEXT NOT NULL,
    mention        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunk_mentions_qname ON chunk_symbol_mentions(qualified_name);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    title, breadcrumb, content,
    tokenize = "porter unicode61 remove_diacritics 2"
);
"""

PRESERVED_ON_REBUILD = ("documents", "chunks", "chunk_vectors", "document_links", "chunk_symbol_mentions")
