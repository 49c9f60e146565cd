"""Per-symbol arrays the ranker's place, word and role signals read, aligned with a :class:`CodeGraph`'s rows.

Built once per index state (keyed by the graph's stamp, like the graph itself) from two reads of
``lore.store._features``; everything after that is numpy:

* place: definition line, directory of the file (an id) and the directory's path components (for
  the package-tree distance), whether the parent is a class;
* words: name tokens (``get_user_by_id`` -> get, user, by, id) as an idf-normalised matrix, and a
  BM25 matrix over name + signature + docstring *summary*. Only the docstring's first paragraph is
  read: the later sections of numpydoc docstrings list related names ("See Also"), which would hand
  the ranker the very answers the See-Also benchmark grades it on;
* role: decorators, parameter names and arity parsed from the signature, and the inherits relation
  (base classes of a class, the method a method overrides), each idf-normalised;
* history: where the index holds a git history run (:mod:`lore.store.history`, mapped onto this
  generation), a symmetric matrix of the commits each pair of symbols changed in together and the
  commits that changed each symbol. Without one both are empty and the history signals are 0.

Pure digits (``85``, ``0``, ``1`` of ``f(x=0, n=1)`` or ``atan2``'s ``2``) are not words here: a shared
number says nothing about what two symbols do.

A refresh that changes no name, signature, docstring, path, decorator or graph row (a body edit, a
comment, a moved definition) changes only lines and history: :func:`load_features` then carries the
last state's arrays forward with the new lines and history instead of building again (the digest of
everything else is :attr:`SymbolFeatures.inputs`).

Identifier splitting is passed in (``split``) rather than imported: ``lore.graphs`` sits below
``lore.text`` in the layer order, and the caller (queries, bench) owns the tokenizer.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ..algorithms import _signals as sig
from ..algorithms._csr import Csr
from ..store import _features as store_features
from ..store import history as store_history
from ..store.graph_files import features_key
from . import _hybrid_cache
from ._feature_matrix import WordMatrix
from ._feature_weights import Bm25Columns, IdfRows
from ._feature_words import CLASS_KINDS, parameters, row_keys, summary, text_words
from ._feature_words import words as _words
from .build import CodeGraph

if TYPE_CHECKING:
    import scipy.sparse as sp

@dataclass
class SymbolFeatures:
    """Arrays over the graph's rows (see the module docstring)."""

    stamp: str
    line: np.ndarray
    private: np.ndarray  # name starts with one underscore (not a dunder)
    parent_is_class: np.ndarray
    directory: np.ndarray  # directory id of the file, -1 without a file
    dir_paths: np.ndarray  # directories x depth: component ids, -1 padded
    arity: np.ndarray  # parameters besides self / cls, -1 when unknown
    # the word matrices raw, weighted when read (lore.graphs._feature_weights): a refresh patches rows
    name_presence: sp.csr_matrix  # the name's words (name_tokens: idf-normalised)
    name_df: np.ndarray  # per word: rows holding it
    text_terms: sp.csr_matrix  # presence of the words of name + signature + summary (the BM25 query side)
    text_counts: sp.csc_matrix  # counts of the same words, by word (text_bm25: their BM25 weights)
    text_dl: np.ndarray  # per row: its words counted (BM25's document length)
    text_avgdl: float  # their mean
    decorator_presence: sp.csr_matrix  # (decorators: idf-normalised)
    decorator_df: np.ndarray
    param_presence: sp.csr_matrix  # parameter names (params: idf-normalised)
    param_df: np.ndarray
    base_presence: sp.csr_matrix  # inherits rows: base classes, overridden methods (bases: idf-normalised)
    base_df: np.ndarray
    vocab: list[str]  # text term column -> word (for the why)
    name_vocab: list[str]
    decorator_vocab: list[str]
    param_vocab: list[str]
    co_change: Csr | None = None  # rows x rows: commits that changed both (symmetric, no diagonal)
    changes: np.ndarray | None = None  # per row: commits that changed it
    history: dict | None = None  # the run's summary (commits read / used, until, head), None without one
    inputs: str = ""  # digest of what the arrays besides line and history were built from (inputs_digest)

    @cached_property
    def name_tokens(self) -> IdfRows:
        """The name's words, idf-normalised (:func:`lore.algorithms._signals.idf_normalize`), weighed when read."""
        return IdfRows(self.name_presence, self.name_df)

    @cached_property
    def decorators(self) -> IdfRows:
        return IdfRows(self.decorator_presence, self.decorator_df, max_df=0.2)

    @cached_property
    def params(self) -> IdfRows:
        return IdfRows(self.param_presence, self.param_df)

    @cached_property
    def bases(self) -> IdfRows:
        return IdfRows(self.base_presence, self.base_df, max_df=0.2)

    @cached_property
    def text_bm25(self) -> Bm25Columns:
        """BM25 weights of the text words (:func:`lore.algorithms._signals.bm25_weights`), weighed when read."""
        return Bm25Columns(self.text_counts, self.text_dl, self.text_avgdl)


def history_matrix(g: CodeGraph, pairs: np.ndarray, touched: np.ndarray) -> tuple[Csr, np.ndarray]:
    """(symmetric rows x rows co-change counts, per-row change counts) of a history run, ids mapped to ``g``'s rows.

    Pairs or symbols that are not rows of the graph are dropped. Built in numpy (what scipy's COO to
    CSR conversion gives: rows in order, columns ascending, int32 indices), so a process that reads
    a saved graph never imports scipy for it.

    Examples
    --------
    >>> class G:  # the two attributes read here
    ...     class nodes: ids = np.array([10, 20, 30])
    ...     n = 3
    >>> co, changes = history_matrix(G, np.array([[10, 30, 2], [20, 30, 1]]), np.array([[30, 4]]))
    >>> co.to_scipy().toarray().tolist(), changes.tolist()
    ([[0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [2.0, 1.0, 0.0]], [0, 0, 4])
    """
    ids = g.nodes.ids
    n = g.n

    def rows_of(col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        at = np.minimum(np.searchsorted(ids, col), max(len(ids) - 1, 0))
        ok = (ids[at] == col) if len(ids) else np.zeros(col.size, dtype=bool)
        return at, ok

    changes = np.zeros(n, dtype=np.int64)
    if touched.size:
        r, ok = rows_of(touched[:, 0])
        changes[r[ok]] = touched[ok, 1]
    rows = cols = np.zeros(0, dtype=np.int64)
    data = np.zeros(0, dtype=np.float64)
    if pairs.size:
        ra, oka = rows_of(pairs[:, 0])
        rb, okb = rows_of(pairs[:, 1])
        ok = oka & okb
        a, b, c = ra[ok], rb[ok], pairs[ok, 2].astype(np.float64)
        rows, cols, data = np.concatenate([a, b]), np.concatenate([b, a]), np.concatenate([c, c])
        order = np.lexsort((cols, rows))
        rows, cols, data = rows[order], cols[order], data[order]
        if rows.size:  # a pair listed twice: its counts summed, as scipy's sum_duplicates does
            first = np.ones(rows.size, dtype=bool)
            first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
            starts = np.flatnonzero(first)
            data = np.add.reduceat(data, starts)
            rows, cols = rows[starts], cols[starts]
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    co = Csr(data, cols.astype(np.int32), indptr, (n, n), canonical=True)
    return co, changes


Inputs = tuple[list[tuple], list[tuple]]  # symbol feature rows, decorated symbols (lore.store._features)


def read_inputs(conn) -> Inputs:
    """The two store reads every feature comes from (besides the graph and the history run)."""
    return store_features.symbol_feature_rows(conn), store_features.decorated_symbols(conn)


BLOCK = 16_384  # rows tokenized at a time (only one block's word lists are held)
ROWS = ".featrows"  # the per-row words of the last build, beside the index (FeatureRows)
ROWS_FORMAT = 1  # bump when the tokenizing of a row changes: saved rows of another format are never reused


@dataclass
class FeatureRows:
    """Each row's words before any weighting across rows, and the key of what they came from.

    Saved beside the index after a build (``<index>.featrows/``) so that the next build (after a
    refresh) tokenizes only the rows whose inputs changed: a row whose symbol id and key
    (:func:`~lore.graphs._feature_words.row_keys`: name, signature, docstring summary, directory, kind and decorators) are
    unchanged has the same words, so its row of each matrix is copied. The weights that depend on every
    row (idf, BM25 lengths, the dropped common columns) are recomputed over the whole matrix, which is
    numpy. Columns are the words in sorted order, in a fresh build too, so a build that reuses rows
    gives arrays equal to a fresh one.
    """

    version: str
    identity: str  # the index's random identity: generations of another index say nothing
    generation: int  # the generation it was built from: files written after it are read again
    ids: np.ndarray  # the graph's node ids, one per row (ascending)
    files: np.ndarray  # the file id of each row (-1 without one)
    keys: np.ndarray  # uint64 per row
    line: np.ndarray
    private: np.ndarray
    dir_code: np.ndarray  # index into dirs, -1 without a file
    dirs: list[str]
    nparams: np.ndarray  # parameters parsed from the signature (the arity before the kind is applied)
    names: sp.csr_matrix  # presence of the name's words
    name_vocab: list[str]
    text: sp.csr_matrix  # counts of the words of name + signature + summary
    vocab: list[str]
    decorators: sp.csr_matrix
    decorator_vocab: list[str]
    params: sp.csr_matrix
    param_vocab: list[str]


def _rows_version(split: Callable[[str], list[str]]) -> str:
    return f"{ROWS_FORMAT}:{getattr(split, '__module__', '')}.{getattr(split, '__qualname__', '')}"


@dataclass
class _Prepared:
    """The store's rows laid out on the graph's rows: what every feature is built from.

    ``names``, ``sigs``, ``docs`` and ``decos`` are filled for the rows in ``read`` only (every row
    unless the last build's rows were reused by file: :func:`_prepare`); the arrays cover every row.
    """

    names: list[str]
    sigs: list[str]
    docs: list[str]  # docstring summaries
    decos: dict[int, list[str]]  # row -> decorator names, decorated rows only
    keys: np.ndarray
    line: np.ndarray
    private: np.ndarray
    dir_code: np.ndarray  # per row: index into dirs, -1 without a file
    dirs: list[str]  # the directories, sorted
    read: np.ndarray  # the rows read from the store in this build


def _reusable_rows(conn, g: CodeGraph, reuse: FeatureRows | None, version: str) -> tuple[np.ndarray, np.ndarray]:
    """(graph rows whose store rows are unchanged since ``reuse`` was built, their rows in ``reuse``).

    A row is unchanged when it is the same symbol id in the same file, the index is the same one (its
    random identity) and no run since ``reuse``'s generation wrote that file (``files.generation``):
    a file's symbols are only written when the file is. Symbols without a file are always read."""
    none = np.zeros(0, dtype=np.int64)
    identity, _, gen = (g.stamp or "").rpartition(":")
    if (reuse is None or reuse.version != version or not identity or reuse.identity != identity
            or not gen.isdigit() or int(gen) < reuse.generation or not len(reuse.ids) or not g.n):
        return none, none
    gens = store_features.file_generations(conn)
    if not gens:
        return none, none
    fids = np.array([f for f, _ in gens], dtype=np.int64)
    fgen = np.array([x for _, x in gens], dtype=np.int64)
    ids = np.asarray(g.nodes.ids, dtype=np.int64)
    old_ids = np.asarray(reuse.ids, dtype=np.int64)
    at = np.minimum(np.searchsorted(old_ids, ids), len(old_ids) - 1)
    file_of = np.asarray(g.file, dtype=np.int64)
    fat = np.minimum(np.searchsorted(fids, file_of), len(fids) - 1)
    same = ((old_ids[at] == ids) & (np.asarray(reuse.files)[at] == file_of) & (file_of >= 0)
            & (fids[fat] == file_of) & (fgen[fat] <= reuse.generation))
    rows = np.flatnonzero(same)
    return rows, at[rows]


def _prepare(conn, g: CodeGraph, *, inputs: Inputs | None = None, reuse: FeatureRows | None = None,
             version: str = "") -> _Prepared:
    """Lay the store's rows out on ``g``'s rows: every row read (``inputs``, else read here), or, with
    ``reuse``, only the rows of files written since it was built (:func:`_reusable_rows`)."""
    n = g.n
    kept, old = (_reusable_rows(conn, g, reuse, version) if inputs is None
                 else (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)))
    read_mask = np.ones(n, dtype=bool)
    read_mask[kept] = False
    read_rows = np.flatnonzero(read_mask)
    ids = g.nodes.ids
    blocks: Iterable[list[tuple]]
    if inputs is None:
        if kept.size:
            want = ids[read_rows].tolist()
            blocks = [store_features.symbol_feature_rows_of(conn, want)]
            decorated = store_features.decorated_symbols_of(conn, want)
        else:  # every row: read a block at a time, so the docstrings are never all held at once
            blocks = store_features.symbol_feature_blocks(conn)
            decorated = store_features.decorated_symbols(conn)
    else:
        blocks, decorated = [inputs[0]], inputs[1]
    names: list[str] = [""] * n
    sigs: list[str] = [""] * n
    docs: list[str] = [""] * n
    line = np.zeros(n, dtype=np.int64)
    dir_of: dict[int, str] = {}
    seen_dirs: dict[str, str] = {}
    for table in blocks:
        if not (table and n):
            continue
        sids = np.fromiter((r[0] for r in table), dtype=np.int64, count=len(table))
        at = np.minimum(np.searchsorted(ids, sids), n - 1)
        ok = ids[at] == sids
        for i, r in zip(np.flatnonzero(ok).tolist(), at[ok].tolist(), strict=True):
            _sid, start, _end, name, signature, docstring, path = table[i]
            names[r] = name or ""
            sigs[r] = signature or ""
            docs[r] = summary(docstring)
            line[r] = start or 0
            if path:
                d = path.rpartition("/")[0]
                dir_of[r] = seen_dirs.setdefault(d, d)  # one string per directory, not per row
        del table
    decos: dict[int, list[str]] = {}
    for sid, deco, _target in decorated:
        if g.nodes.has(sid):
            decos.setdefault(g.nodes.row(sid), []).append(deco)
    kind = np.asarray(g.kind)
    keys = np.zeros(n, dtype=np.uint64)
    private = np.zeros(n, dtype=bool)
    read_list = read_rows.tolist()
    rnames = [names[r] for r in read_list]
    keys[read_rows] = row_keys(rnames, [sigs[r] for r in read_list], [docs[r] for r in read_list],
                                [dir_of.get(r) for r in read_list], [decos.get(r, ()) for r in read_list],
                                kind[read_rows])
    private[read_rows] = [nm.startswith("_") and not nm.startswith("__") for nm in rnames]
    old_dirs: list[str] = list(reuse.dirs) if reuse is not None and kept.size else []
    old_codes = np.asarray(reuse.dir_code)[old] if reuse is not None and kept.size else np.zeros(0, dtype=np.int64)
    dirs = sorted(set(dir_of.values()) | {old_dirs[c] for c in np.unique(old_codes[old_codes >= 0]).tolist()})
    col = {d: i for i, d in enumerate(dirs)}
    dir_code = np.full(n, -1, dtype=np.int64)
    if dir_of:
        dir_code[list(dir_of)] = [col[d] for d in dir_of.values()]
    if kept.size:
        assert reuse is not None
        keys[kept] = np.asarray(reuse.keys)[old]
        line[kept] = np.asarray(reuse.line)[old]
        private[kept] = np.asarray(reuse.private)[old]
        remap = np.array([col.get(d, -1) for d in old_dirs] + [-1], dtype=np.int64)  # -1 indexes the last
        dir_code[kept] = remap[old_codes]
    return _Prepared(names, sigs, docs, decos, keys, line, private, dir_code, dirs, read_rows)


def _digest(prep: _Prepared, g: CodeGraph) -> str:
    h = hashlib.sha256()
    inherits = g.presence_arrays("inherits")
    for arr in (g.nodes.ids, prep.keys, g.kind, g.parent, inherits.data, inherits.indices, inherits.indptr):
        a = np.ascontiguousarray(arr)
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


def inputs_digest(inputs: Inputs, g: CodeGraph) -> str:
    """A digest of everything :func:`build_features` reads except lines and history: names, signatures,
    docstrings, paths, decorators (each row's key), and the graph's rows, kinds, parents and inherits
    relation. Equal digests give equal arrays but for ``line`` and the history fields."""
    return _digest(_prepare(None, g, inputs=inputs), g)


def _history(conn, g: CodeGraph) -> tuple[Csr | None, np.ndarray | None, dict | None]:
    run = store_history.load_run(conn, g.generation)
    if run is None:
        return None, None, None
    co_change, changes = history_matrix(g, run[1], run[2])
    return co_change, changes, run[0]


def _directories(dir_code: np.ndarray, dirs: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(directory id per row, directories x depth path component ids): ids numbered in the order rows
    first name them, components likewise over the directories in that order.

    Examples
    --------
    >>> d, p = _directories(np.array([1, -1, 0, 1]), ["a", "a/b"])
    >>> d.tolist(), p.tolist()
    ([0, -1, 1, 0], [[0, 1], [0, -1]])
    """
    n = len(dir_code)
    directory = np.full(n, -1, dtype=np.int64)
    valid = np.flatnonzero(dir_code >= 0)
    codes = dir_code[valid]
    uniq, first = np.unique(codes, return_index=True)
    order = np.argsort(first, kind="stable")  # the codes in the order rows first name them
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq))
    directory[valid] = rank[np.searchsorted(uniq, codes)]
    named = [dirs[c] for c in uniq[order].tolist()]
    comp_ids: dict[str, int] = {}
    depth = max((len(d.split("/")) if d else 0 for d in named), default=0)
    dir_paths = np.full((len(named), max(depth, 1)), -1, dtype=np.int64)
    for i, d in enumerate(named):
        for k, part in enumerate(d.split("/") if d else []):
            dir_paths[i, k] = comp_ids.setdefault(part, len(comp_ids))
    return directory, dir_paths


def build_features(conn, g: CodeGraph, *, split: Callable[[str], list[str]],
                   inputs: Inputs | None = None, digest: str | None = None, reuse: FeatureRows | None = None,
                   rows_out: list[FeatureRows] | None = None, prepared: _Prepared | None = None) -> SymbolFeatures:
    """Read the per-symbol columns (or take ``inputs``, :func:`read_inputs`, and their ``digest``,
    :func:`inputs_digest`, when the caller has them) and build every array of :class:`SymbolFeatures`
    for ``g``'s rows.

    With ``reuse`` (the :class:`FeatureRows` of an earlier build) the rows whose symbol and key are
    unchanged are copied instead of tokenized again; the result equals a build without it. The
    :class:`FeatureRows` of this build is appended to ``rows_out`` when given (the caller saves it), and
    ``prepared`` is the layout of ``inputs`` on the rows when the caller has made it (:func:`_prepare`);
    its rows' names, signatures and summaries are emptied once tokenized (the matrices' assembly then
    runs without them: on the Linux kernel several hundred MB of strings).
    """
    version = _rows_version(split)
    prep = prepared if prepared is not None else _prepare(conn, g, inputs=inputs)
    n = g.n
    line, private = prep.line, prep.private
    names, sigs, docs = prep.names, prep.sigs, prep.docs
    class_codes = [g.kind_code(k) for k in CLASS_KINDS]
    parent = np.asarray(g.parent)
    parent_is_class = (parent >= 0) & np.isin(np.asarray(g.kind)[np.maximum(parent, 0)], class_codes)
    directory, dir_paths = _directories(prep.dir_code, prep.dirs)
    # which rows keep the words of the last build: same symbol, same key
    ids = np.asarray(g.nodes.ids, dtype=np.int64)
    kept = np.zeros((0, 2), dtype=np.int64)
    if reuse is not None and reuse.version == version and len(reuse.ids) and n:
        old_ids = np.asarray(reuse.ids, dtype=np.int64)
        at = np.minimum(np.searchsorted(old_ids, ids), len(old_ids) - 1)
        same = (old_ids[at] == ids) & (np.asarray(reuse.keys)[at] == prep.keys)
        kept = np.column_stack([np.flatnonzero(same), at[same]]).astype(np.int64)
    else:
        reuse = None
    fresh_mask = np.ones(n, dtype=bool)
    fresh_mask[kept[:, 0]] = False
    fresh = np.flatnonzero(fresh_mask)
    fn_codes = [g.kind_code("function"), g.kind_code("method")]
    is_fn = np.isin(np.asarray(g.kind), fn_codes)
    nparams = np.zeros(n, dtype=np.int64)
    if reuse is not None and kept.size:
        nparams[kept[:, 0]] = np.asarray(reuse.nparams)[kept[:, 1]]

    def matrix(name: str, vocab_name: str, *, presence: bool) -> WordMatrix:
        if reuse is None:
            return WordMatrix(presence=presence)
        return WordMatrix(presence=presence, old=getattr(reuse, name), old_vocab=getattr(reuse, vocab_name))

    names_m, text_m = matrix("names", "name_vocab", presence=True), matrix("text", "vocab", presence=False)
    decos_m, params_m = (matrix("decorators", "decorator_vocab", presence=True),
                         matrix("params", "param_vocab", presence=True))
    for k in range(0, len(kept), BLOCK):  # rows whose words are the last build's
        part = kept[k:k + BLOCK]
        for m in (names_m, text_m, decos_m, params_m):
            m.add_kept(part[:, 0], part[:, 1])
    # words of the rows to tokenize, a block at a time: only a block's word lists are ever held
    for k in range(0, len(fresh), BLOCK):
        rows = fresh[k:k + BLOCK].tolist()
        name_rows = [_words(split(names[r])) for r in rows]
        text_rows = [text_words(ws, sigs[r], docs[r], split) for ws, r in zip(name_rows, rows, strict=True)]
        param_rows = [parameters(sigs[r]) if sigs[r] else [] for r in rows]
        nparams[rows] = [len(p) for p in param_rows]
        names_m.add(rows, name_rows)
        text_m.add(rows, text_rows)
        del name_rows, text_rows
        decos_m.add(rows, [prep.decos.get(r, []) for r in rows])
        params_m.add(rows, [p if is_fn[r] else [] for r, p in zip(rows, param_rows, strict=True)])
    for strings in (names, sigs, docs):
        strings.clear()
    arity = np.where(is_fn, nparams, -1)
    name_pres, name_vocab = names_m.finish(n)
    tf, vocab = text_m.finish(n)
    deco_pres, deco_vocab = decos_m.finish(n)
    param_pres, param_vocab = params_m.finish(n)
    del names_m, text_m, decos_m, params_m
    text_terms = tf.copy()
    text_terms.data[:] = 1.0
    if rows_out is not None:
        identity, _, _gen = (g.stamp or "").rpartition(":")
        rows_out.append(FeatureRows(version=version, identity=identity, generation=int(g.generation), ids=ids,
                                    files=np.asarray(g.file, dtype=np.int64), keys=prep.keys, line=line,
                                    private=private, dir_code=prep.dir_code, dirs=prep.dirs, nparams=nparams,
                                    names=name_pres,
                                    name_vocab=name_vocab, text=tf, vocab=vocab, decorators=deco_pres,
                                    decorator_vocab=deco_vocab, params=param_pres, param_vocab=param_vocab))
    bases = _presence(g.presence("inherits"))
    co_change, changes, history = _history(conn, g)
    name_pres, deco_pres, param_pres = _presence(name_pres), _presence(deco_pres), _presence(param_pres)
    text_dl = np.bincount(np.repeat(np.arange(n, dtype=np.int32), np.diff(tf.indptr)), weights=tf.data, minlength=n)
    return SymbolFeatures(
        stamp=g.stamp, line=line, private=private, parent_is_class=parent_is_class, directory=directory,
        dir_paths=dir_paths, arity=arity.astype(np.int64),
        name_presence=name_pres, name_df=_df(name_pres), text_terms=text_terms.tocsr(), text_counts=tf.tocsc(),
        text_dl=text_dl, text_avgdl=sig.bm25_avgdl(text_dl),
        decorator_presence=deco_pres, decorator_df=_df(deco_pres), param_presence=param_pres, param_df=_df(param_pres),
        base_presence=bases, base_df=_df(bases), vocab=vocab, name_vocab=name_vocab,
        decorator_vocab=deco_vocab, param_vocab=param_vocab, co_change=co_change, changes=changes,
        history=history, inputs=digest if digest is not None else _digest(prep, g),
    )


def _presence(m) -> sp.csr_matrix:
    """``m`` as the float64 CSR presence (1.0 per stored word) the idf weighting reads
    (:func:`lore.algorithms._signals.idf_apply` takes the same steps on any input)."""
    from ..algorithms._checks import check_csr

    out = check_csr(m, name="presence").astype(np.float64)
    out.data = np.minimum(out.data, 1.0)
    return out


def _df(m: sp.csr_matrix) -> np.ndarray:
    """Each column's document frequency: the rows storing it (what :func:`lore.algorithms._signals.idf_normalize`
    counts)."""
    return np.bincount(m.indices, minlength=m.shape[1]).astype(np.int64)


_CACHE: dict[str, SymbolFeatures] = {}
_LOCK = threading.Lock()


def load_features(conn, g: CodeGraph, *, split: Callable[[str], list[str]], db_path=None,
                  save: bool = True) -> SymbolFeatures:
    """:func:`build_features`, cached in memory per index state (a refresh changes the stamp; a history
    run re-mined for a new HEAD at the same generation changes its summary, read here in one small row).
    With ``db_path`` (the index file) also on disk beside it (:mod:`lore.graphs._hybrid_cache`), written
    only when ``save``."""
    key = features_key(conn, g.stamp or str(id(g)))
    with _LOCK:
        got = _CACHE.get(key)
    if got is not None:
        return got

    built: list[FeatureRows] = []

    def build() -> SymbolFeatures:
        reuse = _saved_rows(db_path)
        prep = _prepare(conn, g, reuse=reuse, version=_rows_version(split))
        digest = _digest(prep, g)
        # carried forward only while this index has saved rows: a build saves them for the next refresh
        prev = _previous(digest, db_path) if _same_index(reuse, g) else None
        if prev is None:
            return build_features(conn, g, split=split, digest=digest, reuse=reuse, rows_out=built, prepared=prep)
        co_change, changes, history = _history(conn, g)
        return dataclasses.replace(prev, stamp=g.stamp, line=prep.line, co_change=co_change, changes=changes,
                                   history=history)

    feats = _hybrid_cache.cached(conn, g.stamp, db_path, key, build, cls=SymbolFeatures, save=save)
    if built and save and db_path is not None:
        # the words of every row, for the next build after a refresh (content-keyed per row: never stale)
        _hybrid_cache.save_state(db_path, key, built[0], suffix=ROWS, like=(_hybrid_cache.FEATURES,))
    with _LOCK:
        if len(_CACHE) > 4:
            _CACHE.clear()
        _CACHE[key] = feats
    return feats


def _same_index(rows: FeatureRows | None, g: CodeGraph) -> bool:
    return rows is not None and bool(g.stamp) and rows.identity == g.stamp.rpartition(":")[0]


def _saved_rows(db_path) -> FeatureRows | None:
    """The :class:`FeatureRows` saved beside the index by the last build (any state: each row says by its
    id and key what it came from), or None."""
    if db_path is None:
        return None
    got = _hybrid_cache.saved(db_path, FeatureRows, suffix=ROWS)
    return got[-1] if got else None


def _previous(digest: str, db_path) -> SymbolFeatures | None:
    """Features of an earlier state built from the same inputs (:func:`inputs_digest`): in this process's
    cache, else the state saved beside the index (the last one written). Their arrays hold but for
    lines and history, which the caller replaces."""
    with _LOCK:
        for feats in _CACHE.values():
            if feats.inputs == digest:
                return feats
    if db_path is None:
        return None
    for feats in _hybrid_cache.saved(db_path, SymbolFeatures):
        if feats.inputs == digest:
            return feats
    return None
