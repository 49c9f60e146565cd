"""Swift: SwiftPM modules, extensions joined to their types, initializers and overloads chosen by argument
labels, enum cases, protocol extensions, typed receivers, test code, and a grammar loaded only when a Swift
file is seen.

The small programs follow examples of *The Swift Programming Language* (Extensions, Protocols,
Initialization) and the shape of apple/swift-argument-parser and Alamofire."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

from lore.index.walk import is_test_path
from lore.languages import get, language_for
from lore.languages.swift import _parser as swift

SRC = b"""import Foundation
@testable import Shop

/// A point on a plane (the book's Extensions chapter).
public struct Point: Equatable {
    var x: Double
    let session: Session
    init(x: Double) { self.x = x }
    func moved(by dx: Double, _ dy: Double = 0) -> Point {
        let s = Session()
        s.start()
        session?.stop()
        self.helper()
        return Point(x: x + dx)
    }
    subscript(i: Int) -> Double { x }
    var norm: Double { x.magnitude }
}

extension Point: CustomStringConvertible {
    public var description: String { "" }
}

enum Failure: Error {
    case failed(reason: String)
    case unknown
}
"""


def parsed():
    return swift.parse("Sources/Shop/Point.swift", SRC, "Sources.Shop.Point")


def test_symbols_are_named_by_swiftpm_module_and_extensions_are_marked():
    pf = parsed()
    assert [(s.qualified_name, s.kind) for s in pf.symbols[1:]] == [
        ("Shop.Point", "struct"), ("Shop.Point.init", "method"), ("Shop.Point.moved", "method"),
        ("Shop.Point.subscript", "method"), ("Shop.Point.norm", "property"), ("Shop.Point", "class"),
        ("Shop.Point.description", "property"), ("Shop.Failure", "enum"), ("Shop.Failure.failed", "method")]
    moved = pf.symbols[3]
    assert moved.params == [("by", "Double"), ("_=", "Double")] and moved.return_type == "Point"
    assert pf.symbols[6].decorators == ["extension"] and pf.symbols[6].name == "extension Point"
    assert pf.symbols[1].docstring.startswith("A point on a plane")
    assert pf.symbols[9].params == [("reason", "String")] and pf.symbols[9].decorators == ["enum_case"]


def test_calls_keep_receivers_and_labels_and_skip_subscripts():
    pf = parsed()
    calls = [(c.callee, c.args) for c in pf.calls]
    assert ("Session", []) in calls and ("s.start", []) in calls and ("session.stop", []) in calls
    assert ("self.helper", []) in calls and ("Point", ["x="]) in calls
    assert [i.module for i in pf.imports] == ["Foundation", "Shop"]
    assert [(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations] == [
        ("Point", "Equatable", "implements"), ("extension Point", "CustomStringConvertible", "implements"),
        ("Failure", "Error", "implements")]
    binds = {(b.name, b.annotation or b.value) for b in pf.bindings}
    assert {("self.session", "Session"), ("s", "Session"), ("dx", "Double")} <= binds


def test_swiftpm_modules_and_test_code():
    assert swift.swift_module("Sources/ArgumentParser/Parsing/Name.swift") == "ArgumentParser"
    assert swift.swift_module("Tools/generate-manual/DSL/Author.swift") == "Tools.generate-manual"
    assert language_for("Sources/A/B.swift").name == "swift" and get("swift").rules.language == "swift"
    assert is_test_path("Tests/ShopTests/PointTests.swift") and is_test_path("ShopTests/PointTests.swift")
    assert not is_test_path("Sources/Shop/Point.swift")


def test_bad_input_never_raises():
    pf = swift.parse("x.swift", b"struct { func (( }}} extension", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def _edges(tmp_path, files: dict[str, str]) -> list[tuple[str, int, str, str]]:
    """Index ``files`` and return (caller, line, callee, resolution) of every edge to a repository symbol."""
    from lore import index_repo
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        return conn.execute(
            "SELECT a.name, r.line, f.path || ':' || b.start_line, r.resolution FROM symbol_refs r "
            "JOIN symbols a ON a.id = r.caller_id JOIN symbols b ON b.id = r.callee_id "
            "LEFT JOIN files f ON f.id = b.file_id WHERE b.kind != 'external' ORDER BY r.line, b.start_line").fetchall()
    finally:
        conn.close()


SHOP = {
    "Sources/Shop/Cart.swift": """
        public struct Cart {
            var items: [String] = []
            public init() {}
            public init(items: [String]) { self.items = items }
            public mutating func add(_ item: String) { items.append(item) }
            public mutating func add(contentsOf other: Cart) { items += other.items }
        }
        """,
    "Sources/Shop/Cart+Total.swift": """
        extension Cart {
            init(item: String) {
                self.init(items: [item])
            }
            func total() -> Int { count() }
            func count() -> Int { items.count }
        }

        extension String {
            init(cart: Cart) { self = "" }
        }
        """,
    "Sources/Shop/Order.swift": """
        protocol Priced {
            func price() -> Int
        }

        extension Priced {
            func discounted() -> Int { price() / 2 }
        }

        enum OrderError: Error {
            case empty(reason: String)
        }

        struct Receipt {
            var lines: [String]
        }

        final class Order: Priced {
            let cart: Cart
            init(cart: Cart) { self.cart = cart }
            func price() -> Int { cart.total() }
            func checkout() throws -> Receipt {
                var c = Cart(item: "book")
                c.add("pen")
                c.add(contentsOf: cart)
                _ = discounted()
                _ = String(cart: c)
                _ = String(describing: c)
                guard cart.total() > 0 else { throw OrderError.empty(reason: "no items") }
                return Receipt(lines: [])
            }
        }
        """,
    "Sources/App/main.swift": """
        import Shop

        let order = Order(cart: Cart())
        let total = order.price()
        """,
    "Sources/Other/Unseen.swift": """
        func hidden() {}
        """,
    "Sources/App/Use.swift": """
        func run() {
            hidden()
        }
        """,
}


def test_extensions_labels_protocols_and_modules(tmp_path):
    got = _edges(tmp_path, SHOP)
    order = "Sources/Shop/Order.swift"
    ext = "Sources/Shop/Cart+Total.swift"
    cart = "Sources/Shop/Cart.swift"
    want = {
        ("init", 4, f"{cart}:5"),  # self.init(items:) in an extension: the type's own init
        ("total", 6, f"{ext}:7"),  # implicit self inside the extension
        ("discounted", 7, f"{order}:3"),  # protocol extension: the requirement
        ("price", 21, f"{ext}:6"),  # cart.total(): a member of an extension in another file
        ("checkout", 23, f"{ext}:3"),  # Cart(item:): the extension's init chosen by its label
        ("checkout", 24, f"{cart}:6"),  # add(_:) by labels
        ("checkout", 25, f"{cart}:7"),  # add(contentsOf:) by labels
        ("checkout", 26, f"{order}:7"),  # discounted() of the protocol extension, through Order: Priced
        ("checkout", 27, f"{ext}:11"),  # String(cart:): this module's extension of String
        ("checkout", 29, f"{order}:11"),  # OrderError.empty(reason:): the enum case
        ("checkout", 30, f"{order}:14"),  # Receipt(lines:): the memberwise initializer (the struct)
        ("main", 4, f"{order}:20"),  # import Shop: Order(cart:) is Shop's
        ("main", 4, f"{cart}:4"),  # Cart(): init()
        ("main", 5, f"{order}:21"),  # order is an Order
    }
    have = {(a, line, where) for a, line, where, _res in got}
    assert want <= have, sorted(want - have)
    # String(describing:) is the standard library's, not this module's extension of String
    assert not [g for g in got if g[1] == 28]
    # App does not import Other: its `hidden` is never bound, not even by a name-only guess
    assert not [g for g in got if g[0] == "run"]


def test_python_only_index_never_loads_the_swift_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "B.swift").write_text("struct B {}\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_swift" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_swift" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
