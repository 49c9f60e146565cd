"""Java parser: classes, constructors as <init>, fields as typed bindings, imports, this/super calls."""

from __future__ import annotations

import pytest

from lore.languages.java import _parser as java

SRC = b"""package com.shop;

import com.shop.model.User;
import com.shop.repo.*;
import static com.shop.util.Strings.trim;

/** Registers users. */
@Service
public class UserService extends BaseService implements Registrar<User> {
    private final UserRepo repo;

    public UserService(UserRepo repo) {
        super(repo);
        this.repo = repo;
    }

    public User register(String name) {
        User u = new User(trim(name));
        repo.save(u);
        this.repo.flush();
        super.audit(u);
        var f = Factory.make();
        return u;
    }

    static class Inner {}
}

interface Registrar<T> { T register(String name); }
enum Color { RED; void paint() {} }
"""


def test_symbols():
    pf = java.parse("src/UserService.java", SRC, "src.UserService")
    got = {s.qualified_name: s.kind for s in pf.symbols}
    assert got == {
        "src.UserService": "module", "src.UserService.UserService": "class",
        "src.UserService.UserService.<init>": "method", "src.UserService.UserService.register": "method",
        "src.UserService.UserService.Inner": "class", "src.UserService.Registrar": "interface",
        "src.UserService.Registrar.register": "method", "src.UserService.Color": "enum",
        "src.UserService.Color.paint": "method",
    }
    cls = pf.symbols[1]
    assert cls.docstring == "Registers users." and cls.decorators == ["Service"] and cls.exported
    reg = next(s for s in pf.symbols if s.name == "register")
    assert reg.params == [("name", "String")] and reg.return_type == "User"  # java.lang's String: typed


def test_calls_relations_imports_bindings():
    pf = java.parse("src/UserService.java", SRC, "src.UserService")
    assert [(c.callee, c.kind) for c in pf.calls] == [
        ("super().<init>", "call"), ("User", "new"), ("trim", "call"), ("repo.save", "call"),
        ("this.repo.flush", "call"), ("super().audit", "call"), ("Factory.make", "call")]
    assert {(r.target, r.kind) for r in pf.relations} == {("BaseService", "extends"), ("Registrar", "implements")}
    assert [(i.module, i.name) for i in pf.imports] == [
        ("com.shop.model", "User"), ("com.shop.repo", "*"), ("com.shop.util.Strings", "trim")]
    binds = {(b.name, b.annotation or b.value) for b in pf.bindings}
    assert {("self.repo", "UserRepo"), ("repo", "UserRepo"), ("u", "User"), ("f", "Factory.make")} <= binds


@pytest.mark.parametrize("src", [b"", b"\xff\xfeclass", b"class A { void f( { }", b"(" * 3000])
def test_bad_input_never_raises(src):
    assert java.parse("Bad.java", src, "Bad").symbols[0].kind == "module"


def test_type_parameters_generic_arguments_and_new_receivers():
    src = b"""class Page<T> {
    private List<T> items;
    private Map<String, User> byName;
    Optional<User> first() { return null; }
    <K> K key(K k) { new Builder().size(2).build(); return k; }
}"""
    pf = java.parse("Page.java", src, "Page")
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert refs == {("Page", "List", "field"), ("Page", "Map", "field"), ("Page", "User", "generic"),
                    ("first", "Optional", "return"), ("first", "User", "return")}  # Optional<User> returns a User
    assert sorted(c.callee for c in pf.calls) == ["Builder", "Builder().size", "Builder().size().build"]


def test_call_arguments_as_overload_resolution_reads_them():
    src = b"""class C {
    String name; Node[] nodes;
    void m(int k, String... rest) {
        long q = 1;
        var n = new Node();
        f(1, 2L, 1.5f, "s", 'c', null, true, x -> x, new Foo<X>(), (Bar) y, a + "s", k + q, a == b, this,
          k, rest, q, n, nodes[0], this.name, zz, a.b(), -k);
        g();
    }
}"""
    pf = java.parse("C.java", src, "C")
    f = next(c for c in pf.calls if c.callee == "f")
    assert f.args == ["#int", "#long", "#float", "#String", "#char", "#null", "#boolean", "#lambda:1", "#T:Foo",
                      "#T:Bar", "#String", "#long", "#boolean", "this", "#int", "#T:String[]", "#long", "#T:Node",
                      "#T:Node", "#String", "zz", "a.b()", "#int"]
    assert next(c for c in pf.calls if c.callee == "g").args == []


def test_enum_constants_for_each_and_catch_variables():
    src = b"""import java.util.Map;
enum Method { GET(false), POST; Method() {} Method(boolean body) {} }
enum Plain { A, B }
class U { void run(Map<String, String> m) {
    for (Map.Entry<String, String> e : m.entrySet()) { e.getKey(); }
    try { } catch (IOException | RuntimeException ex) { log(ex); }
} }"""
    pf = java.parse("U.java", src, "U")
    news = [(c.callee, c.line, c.args) for c in pf.calls if c.kind == "new"]
    assert news == [("Method", 2, ["#boolean"]), ("Method", 2, [])]  # Plain declares no constructor
    binds = {(b.name, b.annotation) for b in pf.bindings}
    assert {("e", "Map.Entry"), ("ex", "IOException")} <= binds
    assert next(c for c in pf.calls if c.callee == "log").args == ["#T:IOException"]
