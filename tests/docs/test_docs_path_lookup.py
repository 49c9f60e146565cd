"""The one-dictionary lookup of ``/``-rooted doc links answers what a scan of every stored path answers."""

from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from lore.docs.links import _DOC_SUFFIXES, _resolve_path, path_lookup

PART = st.sampled_from(["docs", "ref", "intro", "index", "api", "a", "b", "topics"])
EXT = st.sampled_from(["", ".md", ".rst", ".txt", ".py", ".markdown"])
PATH = st.builds(lambda parts, ext: "/".join(parts) + ext, st.lists(PART, min_size=1, max_size=4), EXT)


def _scan(rel: str, paths: dict[str, int]) -> int | None:
    """The rule as a scan: the first stored path equal to ``rel``, ending in ``/rel``, or so without its extension."""
    for p, doc_id in paths.items():
        stem, ext = posixpath.splitext(p)
        if p == rel or p.endswith("/" + rel) or (ext in _DOC_SUFFIXES and (stem == rel or stem.endswith("/" + rel))):
            return doc_id
    return None


@settings(max_examples=300, deadline=None)
@given(stored=st.lists(PATH, max_size=12, unique=True), targets=st.lists(PATH, min_size=1, max_size=8))
def test_rooted_links_resolve_like_a_scan_of_every_path(stored, targets):
    paths = {p: i + 1 for i, p in enumerate(stored)}
    lookup = path_lookup(paths)
    for t in targets:
        want = _scan(t, paths)
        assert _resolve_path("docs/x.md", "/" + t, paths, is_doc_role=True, rooted=lookup) == want
        assert _resolve_path("docs/x.md", "/" + t + "#sec", paths, is_doc_role=True) == want
