"""Rust call resolution on small crates: generic bounds, privacy of guesses, paths through std, impls of
types that are no path, associated types, method calls inside macros."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lore.index.pipeline import run_index
from lore.languages.rust import _parser as rust
from lore.store import callsites


def _edges(tmp_path: Path, files: dict[str, str]) -> dict[str, list[str]]:
    """Index a crate made of ``files`` and return callee text -> the qualified names it was bound to."""
    root = tmp_path / "crate"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / "Cargo.toml").write_text('[package]\nname = "demo"\n', encoding="utf-8")
    db = tmp_path / "index.db"
    run_index(root, steps=(), db=db, rebuild=True)
    conn = sqlite3.connect(db)
    try:
        out: dict[str, list[str]] = {}
        for e in callsites.call_site_edges(conn, ("rust",), tests=True):
            out.setdefault(e.callee_name, [])
            if e.callee_qname and e.resolution not in ("external", "builtin"):
                out[e.callee_name].append(e.callee_qname)
        return out
    finally:
        conn.close()


LIB = """mod log;
mod other;
mod net;
"""
LOG = """pub trait Log { fn enabled(&self) -> bool; }
pub struct Global;
impl Log for Global { fn enabled(&self) -> bool { true } }
pub fn check<L: Log>(logger: L) -> bool { logger.enabled() }
pub fn check_where<L>(logger: &L) -> bool where L: Log + Send { logger.enabled() }
"""
OTHER = """pub struct Flag;
impl Flag { pub fn enabled(&self) -> bool { false } }
pub struct Hidden;
impl Hidden { fn secret(&self) {} }
pub struct Counter;
impl Counter { pub fn new() -> Counter { Counter } }
"""
NET = """pub fn addr() { let a = std::net::Ipv4Addr::new(1, 2, 3, 4); let v = BTreeMap::new(); }
pub fn poke<T>(x: T) { x.secret(); }
"""


def test_a_generic_bound_answers_the_traits_method(tmp_path):
    got = _edges(tmp_path, {"src/lib.rs": LIB, "src/log.rs": LOG, "src/other.rs": OTHER, "src/net.rs": NET})
    assert got["logger.enabled"] == ["src.log.Log.enabled", "src.log.Log.enabled"]  # <L: Log>, where L: Log


def test_no_guess_through_a_std_path_or_into_a_private_item(tmp_path):
    got = _edges(tmp_path, {"src/lib.rs": LIB, "src/log.rs": LOG, "src/other.rs": OTHER, "src/net.rs": NET})
    assert got["std.net.Ipv4Addr.new"] == []  # never Counter::new by its name
    assert got["BTreeMap.new"] == []
    assert got["x.secret"] == []  # Hidden::secret is private to src/other.rs


def test_a_private_method_is_still_guessed_inside_its_module(tmp_path):
    other = OTHER + "pub fn poke<T>(x: T) { x.secret(); }\n"
    got = _edges(tmp_path, {"src/lib.rs": "mod other;\n", "src/other.rs": other})
    assert got["x.secret"] == ["src.other.Hidden.secret"]


def test_an_associated_type_is_no_callable_name(tmp_path):
    src = """pub struct E;
pub struct V;
impl std::str::FromStr for V { type Err = E; fn from_str(s: &str) -> Result<V, E> { Err(E) } }
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    assert got["Err"] == []


def test_an_impl_for_a_type_that_is_no_path_holds_methods():
    src = b"pub trait ToV { fn to_v(&self); }\nimpl ToV for str { fn to_v(&self) {} }\nimpl ToV for () { fn to_v(&self) {} }\n"
    pf = rust.parse("src/v.rs", src, "src.v")
    kinds = sorted((s.qualified_name, s.kind) for s in pf.symbols if s.name == "to_v")
    assert kinds == [("src.v.().to_v", "method"), ("src.v.ToV.to_v", "method"), ("src.v.str.to_v", "method")]


def test_a_std_typed_receiver_is_never_guessed_to_a_trait_impl(tmp_path):
    src = """pub trait ToV { fn to_v(&self); }
impl ToV for str { fn to_v(&self) {} }
impl<T> ToV for Option<T> { fn to_v(&self) {} }
pub fn f() { let n = 1u8; assert!(n.to_v() == ()); }
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    assert got["n.to_v"] == []  # n may be a str, an Option: not the trait's declaration by name


def test_a_method_call_on_an_expression_inside_a_macro():
    pf = rust.parse("src/a.rs", b"fn f() { assert_eq!(42i64.to_value(), g()); }\n", "src.a")
    assert sorted(c.callee for c in pf.calls) == ["<expr>.to_value", "g"]


def test_a_slice_or_primitive_receiver_is_never_guessed(tmp_path):
    src = """pub struct Bytes;
impl Bytes { pub fn as_ptr(&self) -> *const u8 { 0 as *const u8 } pub fn peek(&self) {} }
pub fn f(buf: &[u8], n: u32) { buf.as_ptr(); n.peek(); }
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    assert got["buf.as_ptr"] == [] and got["n.peek"] == []


def test_an_enum_tuple_variant_call_builds_the_enum(tmp_path):
    src = """pub enum Status { Complete(usize), Partial }
pub fn f() -> Status { Status::Complete(1) }
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    assert got["Status.Complete"] == ["src.lib.Status"]


def _from_lines(tmp_path: Path, src: str) -> dict[int, list[int]]:
    """Index one ``lib.rs``; call line -> the definition lines of what each ``Lit::from`` call binds."""
    root = tmp_path / "crate"
    (root / "src").mkdir(parents=True)
    (root / "src" / "lib.rs").write_text(src, encoding="utf-8")
    db = tmp_path / "index.db"
    run_index(root, steps=(), db=db, rebuild=True)
    conn = sqlite3.connect(db)
    try:
        out: dict[int, list[int]] = {}
        for line, target in conn.execute(
                """SELECT r.line, t.start_line FROM symbol_refs r LEFT JOIN symbols t ON t.id = r.callee_id
                   AND t.file_id IS NOT NULL WHERE r.callee_name = 'Lit.from' ORDER BY 1, 2"""):
            out.setdefault(line, [])
            if target is not None:
                out[line].append(target)
        return out
    finally:
        conn.close()


def test_from_is_chosen_by_the_arguments_type_and_never_guessed(tmp_path):
    # T::from(x) among impl From<X> for T: x's type picks one (was: every from, 1/k each); a type lore
    # can't read, or one no impl it has takes (a macro wrote that impl), binds nothing
    src = """pub struct Lit;
impl From<u8> for Lit { fn from(b: u8) -> Lit { Lit } }
impl<'a> From<&'a str> for Lit { fn from(s: &'a str) -> Lit { Lit } }
impl From<char> for Lit { fn from(c: char) -> Lit { Lit } }
pub fn f(x: u32) -> Vec<Lit> {
    let a = Lit::from('a');
    let b = Lit::from(8u8);
    let s = Lit::from("s");
    let unknown = Lit::from(x);
    let other = Lit::from(-1i64);
    vec![Lit::from("in a macro"), Lit::from(x)]
}
"""
    got = _from_lines(tmp_path, src)
    assert got[6] == [4] and got[7] == [2] and got[8] == [3]
    assert got[9] == [] and got[10] == []
    assert got[11] == [3]  # inside vec![...]: the one &str call; the other is untyped


def test_a_name_guess_with_several_candidates_binds_nothing(tmp_path):
    src = """mod a { pub struct A; impl A { pub fn span(&self) {} } }
mod b { pub struct B; impl B { pub fn span(&self) {} } }
pub struct C; impl C { pub fn only(&self) {} }
pub fn f<T>(x: T, y: T) { x.span(); y.only(); }
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    assert got["x.span"] == []  # was A::span and B::span, 1/2 each
    assert got["y.only"] == ["src.lib.C.only"]  # one method of the name: still the guess it was


def test_a_deref_of_self_in_an_impl_for_a_pointer_is_the_bound_trait(tmp_path):
    src = """pub trait Visit {
    fn visit_error(&mut self, e: u8) -> u8;
}
pub trait Other { fn visit_error(&mut self, e: u8) -> u8; }
impl<T: Visit + ?Sized> Visit for &mut T {
    fn visit_error(&mut self, e: u8) -> u8 { (**self).visit_error(e) }
}
"""
    got = _edges(tmp_path, {"src/lib.rs": src})
    # (**self) is a T, T: Visit: the trait's declaration (was: both visit_error guessed, or none)
    assert got["*self.visit_error"] == ["src.lib.Visit.visit_error"]
