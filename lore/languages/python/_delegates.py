"""Methods that give back an object of their receiver's own class, and so chain on the subclass.

Python runs ``qs.filter(...).exclude(...)`` on whatever class ``qs`` is: when ``filter`` is declared on
a base class but gives back ``self``, a copy of ``self`` or a new instance of ``self``'s class, the
result is an instance of the *receiver's* class, not of the class that declares ``filter``. A method
gives back its receiver's class when every ``return`` of it gives back one of:

- ``self`` (its first parameter), never rebound; or the method is annotated ``-> Self`` (``typing.Self``);
- ``copy.copy(self)`` / ``copy.deepcopy(self)`` (the standard library's, found by import);
- ``self.__class__(...)``: a new instance of the receiver's own class;
- ``self.m(...)`` where ``m``, looked up on the method's own class, itself gives back its receiver's
  class (``return self._chain()``, ``_chain`` returning ``self._clone()``, ``_clone`` returning
  ``self.__class__(...)``: Django's ``QuerySet``, SQLAlchemy's and peewee's generative queries);
- a local name every assignment of which is one of the above, or ``x.m(...)`` of such a local ``x``
  (``clone = self._chain(); clone = clone.annotate(...); return clone``).

Anything else (a return of another value, a parameter other than ``self``, a local assigned from
something unknown, a ``@staticmethod`` / ``@classmethod``, a call of ``type(...)`` with three arguments
whose class body is not known) keeps the method's own return value. The resolver asks through
:meth:`lore.languages._rules.LanguageRules.returns_receiver`, and only for a call on an instance.
"""

from __future__ import annotations

from ...parsers.records import Binding
from .._rules import world_cache

RETURN = "<return>"
# a class built from a call that copies another class's methods onto it (``Base.from_queryset(QS)``): the
# class attribute the parser binds to the copied class; each copy calls the method on an instance of it
DELEGATE_ATTR = "__delegate__"
_COPIES = frozenset({"copy.copy", "copy.deepcopy"})
_SELF_TYPES = frozenset({"typing.Self", "typing_extensions.Self"})
_NOT_ON_INSTANCE = ("staticmethod", "classmethod")


def gives_receiver(world, method_id: int, receiver=None) -> bool:
    """Whether every ``return`` of method ``method_id`` gives back an object of its receiver's class.

    A method's ``self.m()`` is looked up on the class that declares it. A decorator's wrapper (a function
    nested in the decorator whose first parameter is ``self``: ``def inner(self, *a): clone =
    self.clone(); ...; return clone``) runs as the method of whatever class it decorates: its
    ``self.m()`` is looked up on the receiver's class, so it is judged only once the receiver is known
    (asked without one, it may). Memoized per world and class; a method met again while its own answer
    is being worked out (recursion through ``self.m()``) counts as not giving its receiver back, so a
    cycle never proves anything.
    """
    srow = world.syms.get(method_id)
    if srow is None or srow.parent_id is None:
        return False
    if srow.kind == "method":
        owner = srow.parent_id
    elif srow.kind == "function" and world.syms[srow.parent_id].kind in ("function", "method"):
        if receiver is None:
            return _wrapper_shape(world, method_id)
        if receiver[0] not in ("inst", "gin"):
            return False
        owner = receiver[1] if receiver[0] == "inst" else receiver[1][0]
    else:
        return False
    memo = world_cache(world, "python-gives-receiver", dict)
    key = (method_id, owner)
    got = memo.get(key)
    if got is not None:
        return got
    busy = world_cache(world, "python-gives-receiver-busy", set)
    if key in busy:  # met again while its own answer is being worked out: a cycle proves nothing
        return False
    busy.add(key)
    try:  # remembered only once values are solved and no lookup on the way met a cycle of the engine's
        return world.settled(memo, key, lambda: _gives_receiver(world, method_id, owner))
    finally:
        busy.discard(key)


def receiver_value(world, method_id: int, receiver):
    """What calling method ``method_id`` on ``receiver`` (an instance value) gives, when the receiver
    decides it: the receiver when the method gives its receiver back (judged on the receiver's class for a
    decorator's wrapper); ``None`` for what the method itself returns.

    A method the receiver's class only has as a copy taken from the class it delegates to (its
    ``__delegate__``: ``Manager(BaseManager.from_queryset(BookQuerySet))`` copies each public method of
    ``BookQuerySet`` as ``getattr(self.get_queryset(), name)(*args, **kwargs)``) runs on an instance of
    that class: it gives that instance when the method gives its receiver back (``objects.filter()`` is a
    ``BookQuerySet``), else what the method returns (never the manager).
    """
    typed = self_typed(world, method_id) if receiver[0] in ("inst", "sym") else None
    if typed is not None:  # def from_dict(cls: type[T], ...) -> T: an instance of the receiver's class
        return ("sym" if typed == "class" else "inst", receiver[1])
    if receiver[0] == "sym" or not gives_receiver(world, method_id):  # memoized; for a wrapper, only its shape
        return None
    to = _delegate_of(world, method_id, receiver)
    if to is not None:
        return ("inst", to) if gives_receiver(world, method_id, ("inst", to)) else None
    return receiver if gives_receiver(world, method_id, receiver) else None


def _delegate_of(world, method_id: int, receiver) -> int | None:
    """The class ``receiver`` delegates method ``method_id`` to, if it only has the method as such a copy."""
    if receiver[0] != "inst":
        return None
    to = world.class_member(receiver[1], DELEGATE_ATTR)
    if to is None or to[0][0] != "sym":
        return None
    owner = world.syms[method_id].parent_id
    return to[0][1] if ("sym", owner) in world.mro(to[0][1]) else None


def _record(world, func_id: int):
    srow = world.syms[func_id]
    c = world.ctx(srow.file_id)
    local = c.local_of.get(func_id) if c is not None else None
    return (c, local, c.pf.symbols[local]) if local is not None else (None, None, None)


def _wrapper_shape(world, func_id: int) -> bool:
    """A nested function that may stand for a method: its first parameter is ``self`` and it returns."""
    c, local, sym = _record(world, func_id)
    return sym is not None and bool(sym.params) and sym.params[0][0] == "self" \
        and bool(c.bindings_of(local).get(RETURN))


def _gives_receiver(world, method_id: int, owner: int) -> bool:
    c, local, sym = _record(world, method_id)
    if sym is None:
        return False
    if world.syms[method_id].kind == "function" and not _wrapper_shape(world, method_id):
        return False
    if not sym.params or any(d.rsplit(".", 1)[-1] in _NOT_ON_INSTANCE for d in sym.decorators):
        return False
    if sym.return_type and _is_self_type(world, c, local, sym.return_type):
        return True  # ``def filter(self) -> Self``: PEP 673's spelling of the same promise
    receiver = sym.params[0][0]
    binds = c.bindings_of(local)
    rets = binds.get(RETURN, ())
    if not rets or receiver in binds:  # no return, or ``self`` rebound: nothing to prove
        return False
    check = _Check(world, c, local, owner, receiver, binds)
    return all(check.gives(b, set()) for b in rets)


class _Check:
    """The return expressions of one method, judged against its receiver ``receiver``."""

    def __init__(self, world, c, local: int, owner: int, receiver: str, binds: dict[str, list[Binding]]) -> None:
        self.world, self.c, self.local, self.owner = world, c, local, owner
        self.receiver, self.binds = receiver, binds

    def gives(self, b: Binding, seen: set[str]) -> bool:
        """Whether binding ``b`` (a ``return`` or an assignment of a local) holds the receiver's class."""
        if b.annotation:
            return False
        if b.alias_of and not b.value:
            return b.alias_of == self.receiver or self._local(b.alias_of, seen)
        if not b.value:
            return False
        head, dot, attr = b.value.rpartition(".")
        if b.arg == self.receiver and self._is_copy(b):
            return True
        if head == self.receiver and attr == "__class__":  # self.__class__(...)
            return True
        if b.value == f"{self.receiver}.__class__.__new__" and b.arg == f"{self.receiver}.__class__":
            return True  # self.__class__.__new__(self.__class__): an instance of it, not initialised
        if head == "super()" or head.startswith("super(") and head.endswith(f", {self.receiver})"):
            m = self.world.class_member(self.owner, attr, skip_self=True)  # the next class's, same receiver
            return m is not None and m[0][0] == "sym" and gives_receiver(self.world, m[0][1], ("inst", self.owner))
        if not dot or "(" in head or "[" in head:
            return False
        if head != self.receiver and not self._local(head, seen):  # x.m() of a local holding the receiver
            return False
        m = self.world.class_member(self.owner, attr)
        return m is not None and m[0][0] == "sym" and gives_receiver(self.world, m[0][1], ("inst", self.owner))

    def _local(self, name: str, seen: set[str]) -> bool:
        """A plain local name every assignment of which holds the receiver's class."""
        if name in seen:  # ``clone = clone.annotate()``: read after another assignment proved it
            return True
        if "." in name or name == RETURN:
            return False
        assigned = self.binds.get(name)
        if not assigned or self._is_param(name):
            return False
        if all(_reads(a, name) for a in assigned):  # no assignment where its value starts
            return False
        seen = seen | {name}
        return all(self.gives(a, seen) for a in assigned)

    def _is_param(self, name: str) -> bool:
        return any(p == name for p, _a in self.c.pf.symbols[self.local].params)

    def _is_copy(self, b: Binding) -> bool:
        """``copy.copy`` / ``copy.deepcopy`` of the standard library, however it was imported."""
        if b.value.rsplit(".", 1)[-1] not in ("copy", "deepcopy"):
            return False
        got = self.world.resolve_path(self.c, self.local, b.value, b.line, 0)
        return got is not None and got[0][0] == "ext" and got[0][1] in _COPIES


def _is_self_type(world, c, local: int, annotation: str) -> bool:
    """Whether a return annotation is ``typing.Self`` (or typing_extensions'), however it was imported."""
    name = annotation.strip("'\"")
    if name.rsplit(".", 1)[-1] != "Self":
        return False
    got = world.resolve_path(c, local, name, c.pf.symbols[local].start_line, 0)
    return got is not None and got[0][0] == "ext" and got[0][1] in _SELF_TYPES


def _reads(b: Binding, name: str) -> bool:
    """Whether assignment ``b`` reads ``name`` itself (``x = x.m()``)."""
    return (b.alias_of or b.value).split(".", 1)[0] == name


def self_typed(world, method_id: int) -> str | None:
    """PEP 484's self-type idiom: a method whose receiver parameter is annotated with a type variable
    (``self: T``, ``cls: type[T]`` / ``Type[T]``) and whose return annotation is that variable gives an
    instance of the receiver's class (``"instance"``), or the class itself for ``-> type[T]``
    (``"class"``); ``None`` otherwise. The variable must be ``typing.TypeVar``'s, however imported."""
    memo = world_cache(world, "python-self-typed", dict)
    if method_id in memo:
        return memo[method_id]
    memo[method_id] = None
    srow = world.syms.get(method_id)
    got = None
    if srow is not None and srow.kind == "method" and srow.file_id is not None:
        c, local, sym = _record(world, method_id)
        if sym is not None and sym.params and sym.return_type:
            ann = _bare(sym.params[0][1])
            var = _type_of(ann) or ann
            ret = _bare(sym.return_type)
            if var and var.isidentifier() and ret in (var, f"type[{var}]", f"Type[{var}]"):
                tv = world.resolve_path(c, local, var, sym.start_line, 0)
                if tv is not None and tv[0] in _TYPEVARS:
                    got = "instance" if ret == var else "class"
    memo[method_id] = got
    return got


_TYPEVARS = frozenset({("extinst", "typing.TypeVar"), ("extinst", "typing_extensions.TypeVar")})


def _bare(annotation: str) -> str:
    return annotation.strip().strip("'\"").replace(" ", "")


def _type_of(annotation: str) -> str:
    """``type[T]`` / ``Type[T]`` / ``typing.Type[T]`` -> ``T``; anything else -> ``''``."""
    for head in ("type[", "Type[", "typing.Type["):
        if annotation.startswith(head) and annotation.endswith("]"):
            return annotation[len(head):-1]
    return ""
