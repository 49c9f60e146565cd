"""Go parser: receivers, structs, interfaces, embedding, imports, composite literals."""

from __future__ import annotations

import pytest

from lore.languages.go import _parser as go

SRC = b"""// Package store keeps things.
package store

import (
	"fmt"
	u "example.com/app/util"
)

func (r *Repo) Close() error { return nil }

// Repo keeps users.
type Repo struct {
	*Base
	items map[string]*User
	db    *sql.DB
}

type Saver interface {
	io.Closer
	Save(u *User) error
}

type ID = string

func NewRepo() (*Repo, error) {
	r := &Repo{}
	fmt.Println(u.Trim("x"))
	r.db.Ping()
	return r, nil
}
"""


def test_symbols_methods_belong_to_their_receiver():
    pf = go.parse("store/repo.go", SRC, "store.repo")
    got = {s.qualified_name: s.kind for s in pf.symbols}
    assert got == {
        "store.repo": "module", "store.repo.Repo": "struct", "store.repo.Repo.Close": "method",
        "store.repo.Saver": "interface", "store.repo.Saver.Save": "method", "store.repo.ID": "type_alias",
        "store.repo.NewRepo": "function",
    }
    close = next(s for s in pf.symbols if s.name == "Close")
    assert pf.symbols[close.parent].name == "Repo"  # declared before its type: attached all the same
    assert close.params == [("r", "Repo")]
    repo = next(s for s in pf.symbols if s.name == "Repo")
    assert repo.docstring == "Repo keeps users."
    assert pf.symbols[0].docstring == "Package store keeps things."
    assert next(s for s in pf.symbols if s.name == "NewRepo").return_type == "Repo"


def test_embedding_fields_imports_calls():
    pf = go.parse("store/repo.go", SRC, "store.repo")
    assert {(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations} == {
        ("Repo", "Base", "embeds"), ("Saver", "io.Closer", "embeds")}
    binds = {b.name: b.annotation for b in pf.bindings if b.annotation}
    assert binds == {"self.Base": "Base", "self.db": "sql.DB"}  # a map of users types no receiver
    assert [(i.module, i.alias) for i in pf.imports] == [("fmt", None), ("example.com/app/util", "u")]
    assert [c.callee for c in pf.calls] == ["fmt.Println", "u.Trim", "r.db.Ping"]
    assert ("NewRepo", "Repo", "instantiation") in {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}


@pytest.mark.parametrize("src", [b"", b"\xff\xfe package", b"package p\nfunc (", b"{" * 3000])
def test_bad_input_never_raises(src):
    assert go.parse("bad.go", src, "bad").symbols[0].kind == "module"


def test_range_binds_the_element_type():
    src = b"package p\nfunc f(cs []Closer, m map[string]*User) { for _, c := range cs { c.Close() }\n for _, u := range m {} }\n"
    pf = go.parse("p/a.go", src, "p.a")
    assert [(b.name, b.annotation) for b in pf.bindings] == [("c", "Closer"), ("u", "User")]


def test_go_mod_module_path_and_requirements():
    src = b"module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0 // indirect\n)\nrequire c.io/d v2.0.0\n"
    pf = go.parse("svc/go.mod", src, "svc.go")
    assert pf.language == "go" and [s.kind for s in pf.symbols] == ["module"]
    assert pf.symbols[0].signature == "module example.com/shop"
    assert [i.module for i in pf.imports] == ["github.com/a/b", "c.io/d"]


def test_type_parameters_and_generic_arguments():
    src = b"""package p
type Stack[T any] struct { items []T; owner *User }
func (s *Stack[T]) Push(v T) {}
func Keys[K comparable, V any](m map[K]V, users Set[User]) []K { return nil }
"""
    pf = go.parse("p/s.go", src, "p.s")
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert refs == {("Stack", "User", "field"), ("Keys", "Set", "param"), ("Keys", "User", "generic")}
