"""Plain records that parsers produce: no SQL, no ids from the store, only text and positions.

A parser turns one file into one :class:`ParsedFile`. Symbols inside it are referred to by their
position in ``ParsedFile.symbols`` (``local``), so records survive pickling across worker processes
cheaply. Raw names (``callee``, ``type_name``, ``module``) are the text as written in the source; the
resolver (``lore.index.resolve``) binds them to symbols later.

Lines are 1-based, columns 0-based (tree-sitter byte columns).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Symbol kinds shared by every language. Languages use the subset that exists for them.
SYMBOL_KINDS = (
    "module",  # one per file: module-level code is its body (the caller of top-level calls)
    "class",
    "interface",
    "struct",
    "trait",
    "enum",
    "type_alias",
    "function",
    "method",
    "namespace",
    "external",  # created by the resolver for stdlib / third-party targets
)

# Kinds of type reference.
TYPE_REF_KINDS = (
    "param",
    "return",
    "annotation",  # variable / attribute annotation
    "field",  # declared type of a field or attribute
    "instantiation",  # constructor call
    "isinstance",  # isinstance / except target / type test
    "generic",  # generic argument
)

# In a binding's ``alias_of``: a parameter typed by where its function is written (``app.use#arg0#param0``,
# ``Middleware#call#param1``), resolved by ``lore.index._values`` (TypeScript's contextual typing).
CONTEXT_MARK = "#"
# After CONTEXT_MARK in a function's return type: it returns what the call signature of the type before
# gives (``const mk: Factory = () => ...`` returns ``Factory#call#return``)
RETURN_SPEC = "return"
# A class's ``self.<INDEX_MEMBER>`` binding: the type of a member of any name it does not declare
# (TypeScript's ``[key: string]: Route`` index signature)
INDEX_MEMBER = "[string]"
# A generic class's (interface's) bindings of this name list its type parameters in order: ``value`` the
# parameter's name, ``annotation`` its default (TypeScript's ``class Box<T, U = Foo>``)
TYPE_PARAM = "<tparam>"
# ... and its binding of this name, the base class it extends with type arguments (``Base[Foo]``)
TYPE_BASE = "<tbase>"
# ... and its bindings of this name, a member (``value``: ``self.x`` or a method's name) typed by one of its
# constrained parameters (``annotation``), whose annotation the parser replaced by the constraint
TYPE_PARAM_USE = "<tparam-use>"
# In a symbol's ``decorators``: its last parameter takes every later argument (JS / TS ``...rest``)
REST_MARK = "<rest>"

# Relationship kinds between symbols (``contains`` is derived from ``Symbol.parent``).
RELATIONSHIP_KINDS = ("contains", "extends", "implements", "overrides", "embeds")


@dataclass(slots=True)
class Symbol:
    """A definition: module, class, function, method, ...

    ``qualified_name`` is dot-separated in every language (``pkg.mod.Class.method``).
    ``parent`` is the local index of the enclosing symbol (``None`` only for the module symbol).
    ``params`` lists ``(name, annotation_text or "")`` for functions, so the resolver can type
    ``self``-less parameters; ``exported`` says whether other files can see it.
    """

    name: str
    qualified_name: str
    kind: str
    parent: int | None
    start_line: int
    end_line: int
    start_col: int = 0
    end_col: int = 0
    signature: str = ""
    docstring: str = ""
    params: list[tuple[str, str]] = field(default_factory=list)
    return_type: str = ""
    decorators: list[str] = field(default_factory=list)
    exported: bool = True
    is_declaration: bool = False  # a prototype / abstract declaration without a body (C headers, TS overloads)
    # C/C++ preprocessor branch: "" compiled by a default build (or unconditional), "0" in a branch it skips
    # (``#ifdef _WIN32`` on Linux), "?" in one the file alone cannot decide (``#ifdef HAVE_X``)
    condition: str = ""


@dataclass(slots=True)
class Call:
    """A call site inside symbol ``caller`` (local index).

    ``callee`` is the callee expression as written, reduced to a dotted path where possible
    (``self.session.get``, ``os.path.join``, ``super().save`` becomes ``super().save``).
    ``kind`` is ``call``, ``new`` (explicit constructor syntax), ``decorator``, ``raise`` (``raise E`` of
    a class: it is instantiated) or ``implicit`` (a protocol method the language calls: ``__iter__`` /
    ``__next__`` for a ``for`` loop, ``__enter__`` / ``__exit__`` for ``with``; kept only when it binds
    to repository code).

    ``args`` lists the arguments as paths, when at least one of them names something the resolver can
    follow (``[]`` otherwise): ``"f"``, ``"obj.m"``, ``"<lambda:L:C>"``, keywords as ``"key=path"``,
    ``"*xs"`` / ``"**kw"`` for unpacking, ``""`` for an argument that names nothing (a literal, an
    expression). Kind ``default`` records the default values of a function's parameters (``caller`` is
    the function, its args evaluated in the enclosing scope); a ``decorator`` call's only argument is
    the decorated definition (``<sym:N>``, ``N`` its local index).
    """

    caller: int
    callee: str
    line: int
    col: int = 0
    kind: str = "call"
    args: list[str] = field(default_factory=list)


@dataclass(slots=True)
class TypeRef:
    """A mention of a type by symbol ``owner`` (local index); ``kind`` is one of TYPE_REF_KINDS."""

    owner: int
    type_name: str
    kind: str
    line: int
    col: int = 0


@dataclass(slots=True)
class Import:
    """An import statement in scope ``owner`` (usually the module symbol).

    Python ``from ..pkg import a as b``: module ``pkg``, level 2, name ``a``, alias ``b``.
    Python ``import os.path as p``: module ``os.path``, name ``None``, alias ``p``.
    Star imports have name ``*``. JavaScript ``import x from './y'`` has module ``./y``.
    """

    owner: int
    module: str
    line: int
    name: str | None = None
    alias: str | None = None
    level: int = 0


@dataclass(slots=True)
class Relation:
    """A declared relationship from ``source`` (local index) to a raw type name."""

    source: int
    target: str
    kind: str  # extends | implements | embeds
    line: int


@dataclass(slots=True)
class Binding:
    """A name bound in scope ``owner`` to a value whose type the resolver may infer.

    ``name`` is ``x`` for locals/globals or ``self.x`` for attributes. Exactly one of ``annotation``
    (a declared type) or ``value`` (the callee of the call it was assigned from, e.g. ``Session`` or
    ``make_session``) or ``alias_of`` (a plain name or dotted path it was assigned from) is set.
    Attribute bindings (``self.x = ...`` in a method) belong to the class (``owner``) but their
    value is evaluated in the method (``scope``). A narrowing (``isinstance`` in an ``if``) is a binding
    with an ``annotation`` that holds from ``line`` to ``until`` only.
    """

    owner: int
    name: str
    line: int
    annotation: str = ""
    value: str = ""
    alias_of: str = ""
    scope: int | None = None  # where the value is evaluated, when not ``owner`` (``self.x = arg`` in a method)
    until: int = 0  # a narrowing (``if isinstance(x, A):``): the last line it holds on; 0 for an assignment
    branch_end: int = 0  # made in an ``if`` / ``try`` / ``except`` branch: its last line (after it, maybe not made)
    # with ``value``: the path of the call's first positional argument (``copy.copy(a)``: ``a``), or
    # ``<enter>``: the name is what entering the call's result gives (``with open_db() as db``; for a manager
    # that gives back its argument, ``closing(x)``, the resolver follows the call's first argument)
    arg: str = ""
    # made in a branch of an ``if`` statement with later branches: the lines it cannot reach, per such
    # statement (first line of the later branches, last line, the loop around it or 0, first line)
    shut: tuple[int, ...] = ()


@dataclass(slots=True)
class ParsedFile:
    """Everything one parser extracts from one file."""

    path: str  # relative to the repository root, '/'-separated
    language: str
    module: str  # qualified name of the module symbol
    symbols: list[Symbol] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    type_refs: list[TypeRef] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    syntax_errors: int = 0
    all_names: list[str] | None = None  # Python ``__all__`` when it is a literal list
    defines: list[str] = field(default_factory=list)  # C/C++: the macro names the file ``#define``s


# -- compact wire format -------------------------------------------------------------------------------
# Records cross process boundaries (worker -> indexer) and are stored per file for re-resolution.
# pickle of slotted dataclasses costs ~30 us per file object; marshal of plain tuples is ~10x faster.
# marshal keeps lists as lists and tuples as tuples, so a record's fields round-trip as they are.
_WIRE_VERSION = 4
_RECORD_TYPES = (Symbol, Call, TypeRef, Import, Relation, Binding)
_LIST_FIELDS = ("symbols", "calls", "type_refs", "imports", "relations", "bindings")


def _fields(cls: type) -> tuple[str, ...]:
    return tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]


_GETTERS = {cls: __import__("operator").attrgetter(*_fields(cls)) for cls in _RECORD_TYPES}


def encode(pf: ParsedFile) -> bytes:
    """Serialize a :class:`ParsedFile` compactly (marshal of tuples, zlib level 1).

    Examples
    --------
    >>> pf = ParsedFile("m.py", "python", "m", [Symbol("m", "m", "module", None, 1, 3, params=[("x", "int")])])
    >>> decode(encode(pf)) == pf
    True
    """
    import marshal
    import zlib

    parts: list = [_WIRE_VERSION, pf.path, pf.language, pf.module, pf.syntax_errors, pf.all_names]
    for cls, name in zip(_RECORD_TYPES, _LIST_FIELDS, strict=True):
        get = _GETTERS[cls]
        parts.append([get(r) for r in getattr(pf, name)])
    parts.append(pf.defines)
    return zlib.compress(marshal.dumps(parts), 1)


def decode(data: bytes) -> ParsedFile:
    """Inverse of :func:`encode`; raises ``ValueError`` for records written by another wire version."""
    import marshal
    import zlib

    parts = marshal.loads(zlib.decompress(data))
    if parts[0] not in (1, 2, 3, _WIRE_VERSION):
        raise ValueError(f"unknown record wire version {parts[0]}")
    pf = ParsedFile(parts[1], parts[2], parts[3], syntax_errors=parts[4], all_names=parts[5])
    pf.symbols = [Symbol(*t) for t in parts[6]]
    if parts[0] == 1:  # version 1 stored a symbol's list fields (params, decorators) as tuples
        for sym in pf.symbols:
            sym.params = list(sym.params)
            sym.decorators = list(sym.decorators)
    pf.calls = [Call(*t) for t in parts[7]]
    pf.type_refs = [TypeRef(*t) for t in parts[8]]
    pf.imports = [Import(*t) for t in parts[9]]
    pf.relations = [Relation(*t) for t in parts[10]]
    pf.bindings = [Binding(*t) for t in parts[11]]
    if len(parts) > 12:  # version 4 added the C macro names
        pf.defines = parts[12]
    return pf
# A parameter's annotation starting with this: a function type written in place (TypeScript's ``run: (g:
# App, n: number) => App``), the declared types of its parameters after it, ``;``-separated, ``''`` where
# one is not a plain type (``=>App;``): what a callback passed there takes (contextual typing)
CALLBACK_MARK = "=>"
