"""Small Python programs with the call graph a careful reader expects, by category.

Each case: files (module path -> source), the expected call edges "caller -> callee" between
qualified names and, optionally, the subset of them lore is known to miss (a limitation written
down, so that recall is honest and the test still fails when anything changes). ``builtins.len``
names a builtin, other dotted names outside the case are external symbols named by import path.
Exactly the expected edges minus the known misses may be produced, besides edges whose resolution
says they are name heuristics (those are counted apart). ``python -m tests.index.test_resolution``
prints precision and recall per category.

Known limitations the misses stand for: element types of generic containers are not followed
(``items: list[A]``), and a generator's yielded values are not
followed into the loop that consumes them.
"""

Case = tuple[dict[str, str], set[str]] | tuple[dict[str, str], set[str], set[str]]

CASES: dict[str, list[Case]] = {
    "arguments": [
        ({"m.py": """
def callee(): pass
def caller(f): f()
def main(): caller(callee)
"""}, {"m.main -> m.caller", "m.caller -> m.callee"}),
        ({"m.py": """
def g(x): return x
def f(): return g(g(1))
"""}, {"m.f -> m.g"}),
        ({"m.py": """
class Engine:
    def start(self): pass
def run(e: Engine, *args, **kwargs):
    e.start()
"""}, {"m.run -> m.Engine.start"}),
    ],
    "assignments": [
        ({"m.py": """
def target(): pass
def main():
    alias = target
    alias()
"""}, {"m.main -> m.target"}),
        ({"m.py": """
class A:
    def run(self): pass
def main():
    a = A()
    b = a
    b.run()
"""}, {"m.main -> m.A", "m.main -> m.A.run"}),
        ({"m.py": """
def f(): pass
def g(): pass
def h(): pass
def main():
    a = b = f
    b()
    x, (y, z) = f, (g, h)
    z()
    y = h
    y()
"""}, {"m.main -> m.f", "m.main -> m.h"}),
        ({"m.py": """
def f(): pass
def g(): pass
def main():
    first, *rest = f, g
    first()
    rest[0]()
"""}, {"m.main -> m.f", "m.main -> m.g"}),
    ],
    "builtins": [
        ({"m.py": """
def main(xs):
    return len(xs) + max(xs)
"""}, {"m.main -> builtins.len", "m.main -> builtins.max"}),
        ({"m.py": """
def main(xs):
    print(sorted(xs, key=len))
    return "-".join(xs)
"""}, {"m.main -> builtins.print", "m.main -> builtins.sorted", "m.main -> builtins.str.join"}),
    ],
    "classes": [
        ({"m.py": """
class A:
    def __init__(self): self.helper()
    def helper(self): pass
    @classmethod
    def make(cls): return cls()
    @staticmethod
    def util(): pass
def main():
    a = A.make()
    A.util()
"""}, {"m.A.__init__ -> m.A.helper", "m.A.make -> m.A.__init__", "m.main -> m.A.make", "m.main -> m.A.util",
       "m.A -> builtins.classmethod", "m.A -> builtins.staticmethod"}),
        ({"m.py": """
class Engine:
    def start(self): pass
class Car:
    def __init__(self):
        self.engine = Engine()
    def go(self):
        self.engine.start()
"""}, {"m.Car.__init__ -> m.Engine", "m.Car.go -> m.Engine.start"}),
        ({"m.py": """
class Button:
    def handle(self): pass
    def handler(self):
        return self.handle
def main():
    b = Button()
    cb = b.handler()
    cb()
"""}, {"m.main -> m.Button", "m.main -> m.Button.handler", "m.main -> m.Button.handle"}),
    ],
    "decorators": [
        ({"m.py": """
import functools
def deco(f):
    @functools.wraps(f)
    def inner(*a): return f(*a)
    return inner
@deco
def target(): pass
def main(): target()
"""}, {"m -> m.deco", "m.deco -> functools.wraps", "m.main -> m.deco.inner", "m.deco.inner -> m.target"}),
        ({"m.py": """
REGISTRY = {}
def register(name):
    def add(cls):
        REGISTRY[name] = cls
        return cls
    return add
@register("a")
class Plugin:
    pass
"""}, {"m -> m.register", "m -> m.register.add"}),
    ],
    "dicts": [
        ({"m.py": """
def a(): pass
def main():
    table = {"a": a}
    table.get("a")
"""}, {"m.main -> builtins.dict.get"}),
        ({"m.py": """
def a(): pass
def b(): pass
def c(): pass
def main():
    table = {"a": a, "nested": {"b": b}}
    table["a"]()
    table["nested"]["b"]()
    table["k"] = c
    table["k"]()
    table.update({"a": c})
    table["a"]()
"""}, {"m.main -> m.a", "m.main -> m.b", "m.main -> m.c", "m.main -> builtins.dict.update"}),
    ],
    "direct_calls": [
        ({"m.py": """
def a(): b()
def b(): pass
a()
"""}, {"m.a -> m.b", "m -> m.a"}),
        ({"m.py": """
def work(): pass
def factory():
    return work
factory()()
"""}, {"m -> m.factory", "m -> m.work"}),
    ],
    "exceptions": [
        ({"m.py": """
class Boom(Exception):
    pass
def f():
    try:
        raise Boom()
    except Boom as e:
        handle(e)
def handle(e): pass
"""}, {"m.f -> m.Boom", "m.f -> m.handle"}),
        ({"m.py": """
class Boom(Exception):
    def __init__(self):
        super().__init__("boom")
def f():
    raise Boom
def g(err):
    raise err
"""}, {"m.f -> m.Boom.__init__", "m.Boom.__init__ -> builtins.super", "m.Boom.__init__ -> builtins.Exception.__init__"}),
    ],
    "external": [
        ({"m.py": """
import os.path
import json as j
from collections import OrderedDict
def main(p):
    os.path.join(p, "x")
    j.dumps({})
    OrderedDict()
"""}, {"m.main -> os.path.join", "m.main -> json.dumps", "m.main -> collections.OrderedDict"}),
        ({"m.py": """
import requests
from requests.adapters import HTTPAdapter as Adapter
class Client:
    def __init__(self):
        self.session = requests.Session()
    def get(self, url):
        return self.session.get(url)
def main():
    Adapter().send()
"""}, {"m.Client.__init__ -> requests.Session", "m.Client.get -> requests.Session.get",
       "m.main -> requests.adapters.HTTPAdapter", "m.main -> requests.adapters.HTTPAdapter.send"}),
    ],
    "functions": [
        ({"m.py": """
def outer():
    def inner(): pass
    inner()
def inner(): pass
"""}, {"m.outer -> m.outer.inner"}),
        ({"m.py": """
def outer():
    def inner(): pass
    return inner
def main():
    outer()()
"""}, {"m.main -> m.outer", "m.main -> m.outer.inner"}),
    ],
    "generators": [
        ({"m.py": """
def gen():
    yield make()
def make(): return 1
def main():
    for x in gen(): pass
"""}, {"m.gen -> m.make", "m.main -> m.gen"}),
        ({"m.py": """
class Countdown:
    def __init__(self, n): self.n = n
    def __iter__(self): return self
    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n
def main():
    for _ in Countdown(3):
        pass
"""}, {"m.main -> m.Countdown.__init__", "m.main -> m.Countdown.__iter__", "m.main -> m.Countdown.__next__"}),
        ({"m.py": """
def task(): pass
def tasks():
    yield task
def main():
    for t in tasks():
        t()
"""}, {"m.main -> m.tasks", "m.main -> m.task"}, {"m.main -> m.task"}),
    ],
    "imports": [
        ({"pkg/__init__.py": "from .impl import work\n", "pkg/impl.py": "def work(): pass\n",
          "main.py": """
import pkg
from pkg import work as w
from pkg.impl import work
def main():
    pkg.work()
    w()
    work()
"""}, {"main.main -> pkg.impl.work"}),
        ({"pkg/__init__.py": "", "pkg/a.py": "from . import b\ndef f(): b.g()\n", "pkg/b.py": "def g(): pass\n"},
         {"pkg.a.f -> pkg.b.g"}),
        ({"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/c.py": "from ..util import h\ndef f(): h()\n",
          "pkg/util.py": "def h(): pass\n"}, {"pkg.sub.c.f -> pkg.util.h"}),
        ({"a.py": "from b import *\ndef f(): g()\n", "b.py": "def g(): pass\n"}, {"a.f -> b.g"}),
    ],
    "kwargs": [
        ({"m.py": """
def f(a, b=None): pass
def main():
    f(a=1, b=2)
"""}, {"m.main -> m.f"}),
        ({"m.py": """
def handler(): pass
def run(callback=None):
    callback()
def main():
    run(callback=handler)
"""}, {"m.main -> m.run", "m.run -> m.handler"}),
    ],
    "lambdas": [
        ({"m.py": """
def a(): pass
def main():
    fn = lambda: a()
    fn()
"""}, {"m.main -> m.main.<lambda>", "m.main.<lambda> -> m.a"}),
        ({"m.py": """
def a(): pass
def apply(fn): return fn()
def main():
    return apply(lambda: a())
"""}, {"m.main.<lambda> -> m.a", "m.main -> m.apply", "m.apply -> m.main.<lambda>"}),
    ],
    "lists": [
        ({"m.py": """
class A:
    def run(self): pass
def main(items: list[A]):
    for it in items:
        it.run()
"""}, {"m.main -> m.A.run"}),
        ({"m.py": """
def f(): pass
def g(): pass
def main():
    fs = [f, g]
    fs[1]()
    pair = (g, [f])
    pair[1][0]()
"""}, {"m.main -> m.g", "m.main -> m.f"}),
    ],
    "mro": [
        ({"m.py": """
class A:
    def f(self): pass
class B(A):
    pass
class C(B):
    def g(self):
        self.f()
        super().f()
"""}, {"m.C.g -> m.A.f", "m.C.g -> builtins.super"}),
        ({"m.py": """
class A:
    def __init__(self): pass
class B(A):
    pass
def main(): B()
"""}, {"m.main -> m.A.__init__"}),
        ({"base.py": "class Base:\n    def hook(self): pass\n", "child.py": """
from base import Base
class Child(Base):
    def run(self):
        self.hook()
"""}, {"child.Child.run -> base.Base.hook"}),
    ],
    "returns": [
        ({"m.py": """
class Conn:
    def send(self): pass
def connect() -> Conn:
    return Conn()
def main():
    c = connect()
    c.send()
"""}, {"m.connect -> m.Conn", "m.main -> m.connect", "m.main -> m.Conn.send"}),
        ({"m.py": """
class Conn:
    def send(self): pass
def connect(retry=False):
    if retry:
        return None
    return Conn()
def main():
    connect().send()
"""}, {"m.connect -> m.Conn", "m.main -> m.connect", "m.main -> m.Conn.send"}),
        ({"m.py": """
class A:
    def send(self): pass
class B:
    def send(self): pass
def pick(x):
    if x:
        return A()
    return B()
def main():
    pick(1).send()
"""}, {"m.pick -> m.A", "m.pick -> m.B", "m.main -> m.pick", "m.main -> m.A.send", "m.main -> m.B.send"}),
    ],
    "annotations": [
        ({"m.py": """
from typing import Optional
class Session:
    def get(self): pass
class Client:
    session: Session
    def fetch(self, s: Optional["Session"] = None):
        self.session.get()
        s.get()
"""}, {"m.Client.fetch -> m.Session.get"}),
    ],
    "context_managers": [
        ({"m.py": """
class Res:
    def __enter__(self): return self
    def __exit__(self, *a): pass
    def use(self): pass
def main():
    with Res() as r:
        r.use()
"""}, {"m.main -> m.Res", "m.main -> m.Res.use", "m.main -> m.Res.__enter__", "m.main -> m.Res.__exit__"}),
        ({"m.py": """
def main(p):
    with open(p) as fh, Lock():
        return fh.read()
class Lock:
    def __enter__(self): return self
    def __exit__(self, *exc): pass
"""}, {"m.main -> builtins.open", "m.main -> m.Lock", "m.main -> m.Lock.__enter__", "m.main -> m.Lock.__exit__"}),
    ],
    "control_flow": [
        ({"m.py": """
def a(): pass
def b(): pass
def main(x):
    if x:
        a()
    else:
        b()
    while x:
        a()
"""}, {"m.main -> m.a", "m.main -> m.b"}),
        ({"m.py": """
def a(): pass
def b(): pass
def c(): pass
def main(xs):
    try:
        ys = [a() for _ in xs]
    except ValueError:
        b()
    finally:
        c()
    return ys
"""}, {"m.main -> m.a", "m.main -> m.b", "m.main -> m.c"}),
    ],
}
