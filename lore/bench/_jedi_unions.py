"""Jedi with its dynamic parameter search unbounded: the judge of a target lore binds beyond Jedi's one.

Where lore binds a call site to several targets (a union: the values every caller passes to a parameter,
or that flow into an attribute) and Jedi names one of them, the question is what runs at run time.
Jedi finds a parameter's values by searching the calls of its function (``jedi/inference/
dynamic_params.py``), and that search is cut short for speed: it stops after the first module in which
it found a call, after 20 candidate calls, after 6 parsed files, and never leaves the module for a
function name of one or two characters. A value another module passes is then unknown to Jedi, though
the program passes it. Jedi's one target is therefore not evidence that lore's other targets are
wrong, and lore's union is not evidence that they are right.

The rule (issue 34's fourth round, decided before any number of that round was seen): **a target of
lore beyond Jedi's definition counts as right when Jedi itself, its dynamic parameter search freed of
those four cut-offs (every module of the project, every call), also names it at that site**; otherwise
it stays wrong. Only Jedi decides: a target lore's flow gives and Jedi cannot reach from any call in the
project is still wrong. Recall is unchanged (lore must still have Jedi's definition): the unbounded
search is asked only where lore binds a target Jedi's answer does not accept, so a target it would add
that lore lacks is not counted against lore; the benchmark prints that limit beside its counts. The
counting without the rule is printed beside the main one ("strict unions").

The cut-offs are lifted by replacing ``dynamic_params._search_function_arguments`` for the duration of
one question (:func:`unbounded_search`); Jedi's recursion limits, which guard against endless inference
rather than save time on a finite search, stay. A question that runs longer than ``SECONDS`` is
abandoned and confirms nothing.
"""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

from ._jedi_project import cached_answers, jedi_project

# Bumped when the unbounded question is asked differently (cached answers of an older method are dropped).
UNBOUNDED_VERSION = "1"
SECONDS = 30  # one site's unbounded question; past it the site confirms nothing
BIG = 10**9


class _Abandoned(Exception):
    pass


@contextlib.contextmanager
def unbounded_search() -> Iterator[None]:
    """Jedi's dynamic parameter search without its speed cut-offs, inside the ``with`` block."""
    from jedi.inference import dynamic_params as dp  # type: ignore[import-untyped]
    from jedi.inference import references as refs  # type: ignore[import-untyped]
    from jedi.inference.cache import inference_state_method_cache  # type: ignore[import-untyped]
    from jedi.inference.utils import to_list  # type: ignore[import-untyped]
    from jedi.parser_utils import get_parent_scope  # type: ignore[import-untyped]

    @inference_state_method_cache(default=None)
    @to_list
    def every_call(module_context, funcdef, string_name):
        compare_node = funcdef
        if string_name == "__init__":  # a constructor's calls are the class's
            cls = get_parent_scope(funcdef)
            if cls.type == "classdef":
                string_name, compare_node = cls.name.value, cls
        state = module_context.inference_state
        seen = set()
        others = refs.search_in_file_ios(state, refs._find_project_modules(state, [module_context]), string_name)
        for ctx in (module_context, *others):
            path = ctx.py__file__()
            if path in seen:
                continue
            seen.add(path)
            for name, trailer in dp._get_potential_nodes(ctx, string_name):
                yield from dp._check_name_for_execution(state, ctx.create_context(name), compare_node, name, trailer)

    saved = (dp.MAX_PARAM_SEARCHES, dp._search_function_arguments, refs._PARSED_FILE_LIMIT, refs._OPENED_FILE_LIMIT)
    dp.MAX_PARAM_SEARCHES, dp._search_function_arguments = BIG, every_call
    refs._PARSED_FILE_LIMIT = refs._OPENED_FILE_LIMIT = BIG
    try:
        yield
    finally:
        dp.MAX_PARAM_SEARCHES, dp._search_function_arguments, refs._PARSED_FILE_LIMIT, refs._OPENED_FILE_LIMIT = saved


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def stop(signum, frame):  # noqa: ARG001 (the signal handler's signature)
        raise _Abandoned()

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def unbounded_answers(project, root: Path, sites: list, ask: Callable, *, cache_file: Path | None = None) -> dict:
    """``site.key -> {"found": [...]}``: every definition Jedi names at each site with its search unbounded.

    ``ask(script, site, root)`` is the benchmark's own question (goto, then infer); a fresh Jedi project
    per call of this function, so no answer found with the cut-offs is reused from Jedi's caches.
    """
    import jedi  # type: ignore[import-untyped]

    root = Path(root).resolve()
    cached = cached_answers(jedi, cache_file)
    todo = [s for s in sites if s.key not in cached]
    if todo:
        proj = jedi_project(jedi, project, root)
        with unbounded_search():
            for s in todo:
                script = jedi.Script((root / s.path).read_text(encoding="utf-8"), path=root / s.path, project=proj)
                try:
                    with _deadline(SECONDS):
                        answer = ask(script, s, root, keep=64)
                except _Abandoned:
                    answer = {"status": "abandoned", "found": []}
                cached[s.key] = {"status": answer["status"], "found": answer.get("found", [])}
        if cache_file is not None:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(json.dumps({"jedi": jedi.__version__, "project": project.name,
                                              "answers": cached}, sort_keys=True))
    return {s.key: cached[s.key] for s in sites}


def confirmed(found: list[dict], symbol_for: Callable[[dict], int | None],
              accepted: Callable[[int], frozenset[int]]) -> frozenset[int]:
    """The lore symbols Jedi's unbounded answer names (each with what :meth:`LoreView.accepted` adds).

    >>> confirmed([{"type": "function", "in_project": True, "path": "m.py", "line": 3, "name": "f"},
    ...            {"type": "function", "in_project": False, "path": "/x.py", "line": 1, "name": "g"}],
    ...           lambda d: 7, lambda s: frozenset({s}))
    frozenset({7})
    """
    out: set[int] = set()
    for d in found:
        if d.get("type") in ("function", "class") and d.get("in_project"):
            sid = symbol_for(d)
            if sid is not None:
                out |= accepted(sid)
    return frozenset(out)
