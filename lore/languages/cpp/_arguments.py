"""The types of C++ call arguments that are no literals, for choosing among overloads.

What the extractor records per argument (``Call.args``): ``=T`` for a variable declared ``T`` in a scope of the
file (``*`` per pointer level, ``const`` kept), ``=std::string`` / ``=const char*`` for a call that makes a
standard string or takes one apart, the type a cast or a conversion names (``static_cast<int>(x)``,
``(unsigned)x``, ``int(-1)``), ``size_t`` for a ``sizeof``, ``@x`` for a name or member path the resolver types
(:func:`lore.languages.c._overloads.typed_args`), ``""`` for anything else.
"""

from __future__ import annotations

from ...parsers import _ts
from ._elements import CASTS

# a standard string made or taken apart by a call: ``std::string(1, ch)``, ``std::to_string(n)``, ``s.substr(1)`` and
# ``s.c_str()`` of a variable declared ``std::string`` (an overload taking ``const std::string&`` or ``const char*``)
_STRING_MAKERS = frozenset({"std.string", "std.to_string", "string", "std.string_view"})
_STRING_PARTS = {"substr": "=std::string", "c_str": "=const char*", "data": "=const char*"}


# the type words the grammar reads as a function's name when written as a conversion: unsigned(x), long(n)
_NUMBER_WORDS = frozenset({"unsigned", "signed", "long", "short"})


def _std_string_call(ex, owner: int, fn: _ts.Node | None) -> str:
    """``=std::string`` / ``=const char*`` for a call that makes a standard string or takes one apart, else ``""``."""
    if fn is None:
        return ""
    if fn.type in ("qualified_identifier", "identifier"):
        name = ex.dotted(fn)
        return ("=std::string_view" if name == "std.string_view" else "=std::string") if name in _STRING_MAKERS else ""
    recv = fn.child_by_field_name("argument") if fn.type == "field_expression" else None
    if recv is None or recv.type != "identifier" or ex.text(fn.child_by_field_name("operator")) != ".":
        return ""
    declared = ex._var_type(owner, ex.text(recv)) or ""
    plain = declared.replace("const ", "").replace("&", "").strip()
    return _STRING_PARTS.get(ex.text(fn.child_by_field_name("field")), "") if plain in ("std::string", "string") else ""


def arg_type(ex, owner: int, arg: _ts.Node) -> str:
    """What :meth:`~lore.languages.cpp._parser.CppExtractor.record_arity` records for an argument that is no literal: ``=T`` (a variable declared ``T``
    in a scope of this file), ``@x`` (a name the resolver types), ``""`` (anything else)."""
    stars = 0
    if arg.type == "pointer_expression" and ex.text(arg)[:1] == "&":  # &x: a pointer to x's type
        stars, arg = 1, arg.named_children[-1] if arg.named_child_count else arg
    if arg.type == "cast_expression":  # (unsigned)x: the type it names
        t = arg.child_by_field_name("type")
        return "=" + ex.text(t) if t is not None and not stars else ""
    if arg.type == "sizeof_expression":
        return "=size_t"
    if arg.type == "call_expression":  # static_cast<int>(x): an int
        fn = arg.child_by_field_name("function")
        if fn is not None and (fn.type == "primitive_type" or fn.type == "identifier" and ex.text(fn) in _NUMBER_WORDS):
            return "=" + ex.text(fn)  # int(-100), size_t(n), unsigned(x): a conversion to that number type
        if fn is not None and fn.type == "template_function" and ex.text(fn.child_by_field_name("name")) in CASTS:
            targs = fn.child_by_field_name("arguments")
            first = next((a for a in targs.named_children), None) if targs is not None else None
            return "=" + ex.text(first) if first is not None else ""
        made = _std_string_call(ex, owner, fn)
        if made:
            return made
    if arg.type == "pointer_expression" and not stars and arg.named_child_count:  # *this, *p: the pointee's type
        arg = arg.named_children[-1]
    if arg.type in ("this", "field_expression", "call_expression", "subscript_expression"):
        path = ex.dotted(arg)  # this->name_, node.value(), (*this): the resolver types them
        return "@" + path if path and "<" not in path and not stars else ""
    if arg.type not in ("identifier", "type_identifier"):  # type_identifier: T x(name) read as a declaration
        return ""
    got = ex._var_type(owner, ex.text(arg))
    if got is not None:
        return "=" + got + "*" * stars
    return "" if stars else "@" + ex.text(arg)


def const_member_receiver(ex, fn: _ts.Node | None, owner: int) -> bool:
    """Whether ``root_.size()`` (``fn``: the call's ``field_expression``) calls a member of a member object inside a
    ``const`` method: the receiver is a bare name with ``.`` that no scope of the function declares (a field of
    ``*this``, declared in the class's header), so it is ``const`` there. ``ptr_->size()`` (a pointer member: what it
    points to is not ``const``) and names the function or the file declare are not."""
    if fn is None or ex.text(fn.child_by_field_name("operator")) != ".":
        return False
    i: int | None = owner
    syms = ex.pf.symbols
    while i is not None and syms[i].kind == "function":  # a lambda held in a local: the method around it
        i = syms[i].parent
    if i is None or syms[i].kind != "method" or not syms[i].signature.replace(" ", "").endswith(")const"):
        return False
    name = ex.text(fn.child_by_field_name("argument"))
    scopes = {owner, i}
    return not any(b.name == name and b.owner in scopes for b in ex.pf.bindings)
