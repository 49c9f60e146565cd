"""Go parser: receivers, structs, interfaces, embedding, imports, composite literals."""

from __future__ import annotations

import pytest

from lore.parsers import go

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
