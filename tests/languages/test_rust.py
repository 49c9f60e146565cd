"""Rust parser: impl blocks, trait impls, use trees, mod declarations, Self."""

from __future__ import annotations

import pytest

from lore.languages.rust import _parser as rust

SRC = b"""use crate::shapes::{Circle, area as ar};
use std::collections::HashMap;
use super::util::*;
mod shapes;

impl Store for Repo {
    fn save(&self, x: &User) -> Result<(), Error> { Ok(()) }
}

/// A repo.
#[derive(Debug)]
pub struct Repo { items: Vec<User>, log: Box<Logger> }

pub trait Store: Base { fn save(&self, x: &User) -> Result<(), Error>; }

impl Repo {
    pub fn new() -> Self { Repo { items: Vec::new(), log: Box::new(Logger::default()) } }
    fn go(&mut self, u: &dyn Named) { self.log.write(u); Self::new(); crate::util::f(); let r = Repo::new(); r.go(u); }
}

mod inner { pub fn g() {} }
"""


def test_symbols_impl_methods_belong_to_the_type():
    pf = rust.parse("src/repo.rs", SRC, "src.repo")
    got = {s.qualified_name: s.kind for s in pf.symbols}
    assert got == {
        "src.repo": "module", "src.repo.Repo": "struct", "src.repo.Repo.save": "method",
        "src.repo.Store": "trait", "src.repo.Store.save": "method", "src.repo.Repo.new": "method",
        "src.repo.Repo.go": "method", "src.repo.inner": "namespace", "src.repo.inner.g": "function",
    }
    save = next(s for s in pf.symbols if s.qualified_name == "src.repo.Repo.save")
    assert pf.symbols[save.parent].name == "Repo"  # impl before the struct: attached at the end
    repo = next(s for s in pf.symbols if s.name == "Repo")
    assert repo.docstring == "A repo."  # through #[derive]
    new = next(s for s in pf.symbols if s.name == "new")
    assert new.return_type == "Repo"  # Self
    go_ = next(s for s in pf.symbols if s.name == "go")
    assert go_.params == [("u", "Named")]


def test_relations_imports_calls_bindings():
    pf = rust.parse("src/repo.rs", SRC, "src.repo")
    assert {(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations} == {
        ("Store", "Base", "extends"), ("Repo", "Store", "implements")}
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [
        ("crate.shapes", "Circle", None), ("crate.shapes", "area", "ar"), ("std.collections", "HashMap", None),
        ("super.util", "*", None), ("self.shapes", None, "shapes")]
    calls = [c.callee for c in pf.calls if pf.symbols[c.caller].name == "go"]
    assert calls == ["self.log.write", "Self.new", "crate.util.f", "Repo.new", "r.go"]
    binds = {b.name: b.annotation or b.value for b in pf.bindings}
    assert binds["self.log"] == "Logger" and binds["r"] == "Repo.new"


@pytest.mark.parametrize("src", [b"", b"\xff\xfe fn", b"impl X for { fn (", b"[" * 3000])
def test_bad_input_never_raises(src):
    assert rust.parse("bad.rs", src, "bad").symbols[0].kind == "module"


def test_calls_inside_macro_arguments():
    src = b'fn f() { format!("{}", self.area(), crate::x::y(1), a.b.c(vec![g(2)]), other!(h())); }'
    pf = rust.parse("a.rs", src, "a")
    assert sorted(c.callee for c in pf.calls) == ["a.b.c", "crate.x.y", "g", "h", "self.area"]


def test_impl_of_a_type_of_another_file_has_a_placeholder():
    src = b"""use crate::model::User;
impl std::fmt::Display for User {
    fn fmt(&self, f: &mut Formatter) -> Result { self.name() }
}
impl User { fn extra(&self) {} }
impl<T: Clone> Wrapper<T> { fn get(&self) -> T { self.0.clone() } }
struct Wrapper<T>(T);
#[path = "../gen_helper.rs"]
mod helper;
"""
    pf = rust.parse("src/show.rs", src, "src.show")
    got = [(s.qualified_name, s.kind, s.is_declaration, s.start_line) for s in pf.symbols]
    assert ("src.show.User", "struct", True, 0) in got  # line 0: it has no source of its own
    user = next(i for i, s in enumerate(pf.symbols) if s.qualified_name == "src.show.User")
    assert pf.symbols[user].signature == "impl User"
    assert {pf.symbols[i].name for i, s in enumerate(pf.symbols) if s.parent == user} == {"fmt", "extra"}
    assert all(s.parent is None or s.parent < i for i, s in enumerate(pf.symbols))  # parents first
    rels = [(pf.symbols[r.source].qualified_name, r.target, r.kind) for r in pf.relations]
    assert rels == [("src.show.User", "std.fmt.Display", "implements")]
    assert not [t for t in pf.type_refs if t.type_name == "T"]  # impl<T>: a parameter
    assert [(i.module, i.alias) for i in pf.imports][-1] == ("path:../gen_helper.rs", "helper")
