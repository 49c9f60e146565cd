"""Values pytest injects: a test's parameter named after a fixture receives what the fixture gives.

pytest calls test functions itself, so no call site in the indexed code passes their arguments: a
parameter ``app`` of ``def test_x(app)`` is filled with what the fixture named ``app`` returns (or,
for a generator fixture, yields). The fixture is looked up as pytest does: in the test's class, then in
its module (defined or imported there), then in ``conftest.py`` of the test's directory and of each
directory above it, nearest first. A fixture that requests a fixture of its own name (the usual
override: ``def app(app)``) receives the next one out. Edges bound that way say ``fixture_flow``.

After the conftest.py files, the modules that the test's module and those conftest.py files name in
``pytest_plugins`` (when they are in the repository: aiohttp's tests get ``aiohttp_client`` from
``aiohttp.pytest_plugin`` that way).

Left out, and so unresolved as before: fixtures renamed with ``@pytest.fixture(name="...")``, those of
installed plugins (entry points), pytest's own (``tmp_path``, ``monkeypatch``) and parametrized values
(``request.param``).
"""

from __future__ import annotations

import posixpath

from ._world import FileCtx, Value, WorldCore, weaker

# the binding a module's ``pytest_plugins`` makes per module name (lore.languages.python._plugins.PLUGINS)
PLUGINS = "<pytest_plugins>"
_FIXTURE_DECORATORS = frozenset({"pytest.fixture", "fixture", "pytest_asyncio.fixture"})


def is_fixture(decorators: list[str]) -> bool:
    """Whether a definition's decorators make it a pytest fixture (``@pytest.fixture``, with or
    without arguments).

    Examples
    --------
    >>> is_fixture(["pytest.fixture(scope='session')"]), is_fixture(["property"])
    (True, False)
    """
    return any(d.split("(", 1)[0] in _FIXTURE_DECORATORS for d in decorators)


class FixtureMixin(WorldCore):
    """What pytest passes into the parameters of tests and fixtures (see the module doc)."""

    def fixture_value(self, c: FileCtx, scope: int, pname: str) -> tuple[Value, str] | None:
        """The value pytest passes as parameter ``pname`` of the function ``scope`` of ``c``: what the
        fixture of that name gives, or ``None`` when the function is no test or fixture, or no fixture
        of that name is found."""
        sym = c.pf.symbols[scope]
        fixture = is_fixture(sym.decorators)
        if not fixture and not (sym.name.startswith("test") and self.is_test_file(c.frow.id)):
            return None
        fid = self._find_fixture(c, scope, pname, skip=c.ids[scope] if fixture else None)
        if fid is None:
            return None
        got = self.fixture_result(fid)
        return (got[0], weaker(got[1], "fixture_flow")) if got is not None else None

    def fixture_result(self, fid: int) -> tuple[Value, str] | None:
        """What the fixture ``fid`` gives a test: what it yields (a generator fixture), else what it returns."""
        def compute() -> tuple[Value, str] | None:
            c = self.ctx(self.syms[fid].file_id)
            local = c.local_of.get(fid) if c is not None else None
            if c is None or local is None:
                return None
            if c.bindings_of(local).get("<yield>"):
                return self._returned_value(c, local, "<yield>")  # type: ignore[attr-defined]
            return self.returns(fid)  # type: ignore[attr-defined]

        return self._step("fix", self._fixture_results, fid, compute)

    def _find_fixture(self, c: FileCtx, scope: int, pname: str, skip: int | None) -> int | None:
        """The fixture named ``pname`` that the function ``scope`` of ``c`` receives (never ``skip``, the
        fixture asking): its class, its module, then conftest.py files from its directory upwards."""
        syms = c.pf.symbols
        parent = syms[scope].parent
        if parent is not None and syms[parent].kind == "class":
            for kid in reversed(self.children.get(c.ids[parent], {}).get(pname, ())):
                if kid != skip and is_fixture(self.decorators_of(kid)):  # type: ignore[attr-defined]
                    return kid
        got = self._module_fixture(c.frow.module_id, pname, skip)
        if got is not None:
            return got
        directory = posixpath.dirname(c.frow.path)
        chain = [c.frow.module_id]
        while True:
            mid = self._conftest_modules().get(directory)
            if mid is not None and mid != c.frow.module_id:
                got = self._module_fixture(mid, pname, skip)
                if got is not None:
                    return got
                chain.append(mid)
            if not directory:
                break
            directory = posixpath.dirname(directory)
        for mid in chain:  # the plugins these modules name (pytest_plugins), after every conftest.py
            for name in self._plugins_of(mid):
                pm = self.modules.get(name)
                got = self._module_fixture(pm, pname, skip) if pm is not None and pm not in chain else None
                if got is not None:
                    return got
        return None

    def _plugins_of(self, mod_id: int) -> list[str]:
        """The module names a module's ``pytest_plugins`` lists (:mod:`lore.languages.python._plugins`)."""
        srow = self.syms.get(mod_id)
        c = self.ctx(srow.file_id) if srow is not None and srow.file_id is not None else None
        local = c.local_of.get(mod_id) if c is not None else None
        binds = c.bindings_of(local).get(PLUGINS, ()) if c is not None and local is not None else ()
        return [b.alias_of for b in binds]

    def _module_fixture(self, mod_id: int, pname: str, skip: int | None) -> int | None:
        """A fixture named ``pname`` defined in, or imported into, the module ``mod_id``."""
        got = self.module_member(mod_id, pname)  # type: ignore[attr-defined]
        fid = got[0][1] if got is not None and got[0][0] == "sym" else None
        if not isinstance(fid, int) or fid == skip:
            return None
        srow = self.syms.get(fid)
        if srow is None or srow.kind not in ("function", "method"):
            return None
        return fid if is_fixture(self.decorators_of(fid)) else None  # type: ignore[attr-defined]

    def _conftest_modules(self) -> dict[str, int]:
        """Directory (``""`` for the root) -> the module id of the ``conftest.py`` in it."""
        if self._conftests is None:
            self._conftests = {posixpath.dirname(f.path): f.module_id for f in sorted(self.files.values(), key=lambda f: f.id)
                               if posixpath.basename(f.path) == "conftest.py"}
        return self._conftests
