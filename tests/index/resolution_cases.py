"""Small Python programs with the call graph a careful reader expects, by category.

Each case: files (module path -> source) and the expected call edges "caller -> callee" between
qualified names. ``builtins.len`` names a builtin, other dotted names outside the case are
external symbols named by import path. Only the listed edges may be produced, besides edges whose
resolution says they are name heuristics (those are scored separately).
"""

CASES: dict[str, list[tuple[dict[str, str], set[str]]]] = {
    "arguments": [
        ({"m.py": """
def callee(): pass
def caller(f): f()
def main(): caller(callee)
"""}, {"m.main -> m.caller"}),
        ({"m.py": """
def g(x): return x
def f(): return g(g(1))
"""}, {"m.f -> m.g"}),
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
    ],
    "builtins": [
        ({"m.py": """
def main(xs):
    return len(xs) + max(xs)
"""}, {"m.main -> builtins.len", "m.main -> builtins.max"}),
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
"""}, {"m -> m.deco", "m.deco -> functools.wraps", "m.main -> m.target"}),
    ],
    "dicts": [
        ({"m.py": """
def a(): pass
def main():
    table = {"a": a}
    table.get("a")
"""}, set()),
    ],
    "direct_calls": [
        ({"m.py": """
def a(): b()
def b(): pass
a()
"""}, {"m.a -> m.b", "m -> m.a"}),
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
    ],
    "functions": [
        ({"m.py": """
def outer():
    def inner(): pass
    inner()
def inner(): pass
"""}, {"m.outer -> m.outer.inner"}),
    ],
    "generators": [
        ({"m.py": """
def gen():
    yield make()
def make(): return 1
def main():
    for x in gen(): pass
"""}, {"m.gen -> m.make", "m.main -> m.gen"}),
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
    ],
    "lambdas": [
        ({"m.py": """
def a(): pass
def main():
    fn = lambda: a()
    fn()
"""}, {"m.main -> m.a"}),
    ],
    "lists": [
        ({"m.py": """
class A:
    def run(self): pass
def main(items: list[A]):
    for it in items:
        it.run()
"""}, set()),
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
"""}, {"m.main -> m.Res", "m.main -> m.Res.use"}),
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
    ],
}
