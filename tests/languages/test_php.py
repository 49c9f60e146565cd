"""PHP: namespaces as qualified names, use imports (aliased, grouped, functions), $this / self / parent,
typed properties and parameters, variables that never name a class, test files, a lazily loaded grammar."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from lore.index.walk import is_test_path
from lore.languages import language_for
from lore.languages.php import _parser as php

SRC = b"""<?php
namespace App\\Service;

use App\\Model\\User;
use App\\Repo\\{UserRepo, Cache as C};
use function App\\Util\\slug;

/** Registers users. */
final class Registrar extends Base implements Contract
{
    use Logs;

    private UserRepo $repo;

    public function __construct(private C $cache, int $n = 0) {}

    public function register(User $user, string $name): ?self
    {
        $u = new User($name);
        $this->repo->save($u);
        self::check($user);
        parent::boot();
        $found = C::get($name)?->first();
        slug($name);
        \\strlen($name);
        return $this;
    }
}
"""


def parsed():
    return php.parse("src/Service/Registrar.php", SRC, "src.Service.Registrar")


def test_symbols_are_named_by_namespace():
    pf = parsed()
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("src.Service.Registrar", "module"), ("App.Service.Registrar", "class"),
        ("App.Service.Registrar.__construct", "method"), ("App.Service.Registrar.register", "method")]
    reg = pf.symbols[-1]
    assert reg.params == [("$user", "User"), ("$name", "")] and reg.return_type == "Registrar"
    assert pf.symbols[1].docstring == "Registers users."


def test_calls_imports_relations_bindings():
    pf = parsed()
    assert [(c.callee, c.kind) for c in pf.calls] == [
        ("User", "new"), ("this.repo.save", "call"), ("self.check", "call"), ("super().boot", "call"),
        ("C.get().first", "call"), ("C.get", "call"), ("slug", "call"), ("strlen", "call")]
    assert [(i.module, i.name, i.alias, i.level) for i in pf.imports] == [
        ("App.Model", "User", None, 0), ("App.Repo", "UserRepo", None, 0), ("App.Repo", "Cache", "C", 0),
        ("App.Util", "slug", None, 1)]
    assert [(r.target, r.kind) for r in pf.relations] == [
        ("Base", "extends"), ("Contract", "implements"), ("Logs", "implements")]
    binds = {(b.name, b.annotation, b.value) for b in pf.bindings}
    assert {("self.repo", "UserRepo", ""), ("self.cache", "C", ""), ("$u", "", "User"),
            ("$found", "", "C.get().first")} <= binds


def test_files_and_test_code():
    assert language_for("src/A.php").name == "php"
    assert is_test_path("tests/Unit/ParserTest.php") and is_test_path("src/ParserTest.php")
    assert not is_test_path("src/Parser.php")


def test_bad_input_never_raises():
    pf = php.parse("x.php", b"<?php class { function (( }}} namespace", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def test_python_only_index_never_loads_the_php_grammar(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.php").write_text("<?php class B {}\n")
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from lore import index_repo
        index_repo(Path({str(tmp_path / 'pkg')!r}), workers=1)
        before = "tree_sitter_php" in sys.modules
        index_repo(Path({str(tmp_path)!r}), workers=1)
        print(json.dumps([before, "tree_sitter_php" in sys.modules]))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == [False, True]
