"""Errors raised by lore.

Every error a user can cause is a :class:`LoreError`; its message is one sentence that says what
happened and how to fix it. The CLI prints it on one line and exits with code 2; the MCP server
returns it as a tool error. Argument errors are also ``ValueError`` so generic callers can catch them.

::

    LoreError
    ├── IndexNotFoundError          no index at the given path (run `lore index`)
    ├── NotAnIndexError             the file is not a lore index (lore never modifies it)
    │   └── DamagedIndexError       a lore index that can no longer be read (`--rebuild` replaces it)
    ├── IndexStorageError           the disk refused a read (full, I/O error, unreadable, read-only)
    ├── ServeAddressError           `lore serve --http` cannot listen on its address
    ├── SchemaVersionError          index written by an incompatible lore version
    │   └── NewerSchemaError        written by a newer lore (upgrade, or `--rebuild`)
    ├── IndexBusyError              another process holds the write lock
    ├── IndexWriteError             the disk is full or read-only: the index was left as it was
    ├── UnknownSymbolError          id or name not in the index
    │   └── AmbiguousSymbolError    several symbols answer to a name (lists them)
    ├── NothingToIndexError         a walk found no file to index (names the rule; the last index is kept)
    ├── UnknownChunkError           chunk id not in the document store
    ├── EmptyGroundTruthError       a benchmark has nothing to score
    ├── NotAGitRepositoryError      `lore bench cochange` on a non-git path
    ├── MissingExtraError           an optional dependency is not installed
    ├── ClusterConnectionError      the Ray cluster is unreachable or runs other versions
    ├── EdgeStoreError              a Parquet edge shard is missing or damaged (SQLite rows are used)
    ├── ConvergenceError            an iterative algorithm did not converge
    └── InvalidArgumentError (ValueError)
        ├── UnknownAlgorithmError
        └── QueryError              empty or unusable search query

    KeyboardInterrupt
    └── IndexInterrupted            Ctrl-C during `lore index`, saying which generation the index holds
"""

from __future__ import annotations


class LoreError(Exception):
    """Root of every error lore raises on purpose."""


class IndexNotFoundError(LoreError):
    """No index database at ``path``."""

    def __init__(self, path: str, note: str = "") -> None:
        self.path = str(path)
        super().__init__(f"no index at {self.path}{note}; run `lore index` first")


class NotAnIndexError(LoreError):
    """The file at ``path`` exists but is not a lore index; lore neither reads nor overwrites it."""

    def __init__(self, path: str) -> None:
        self.path = str(path)
        super().__init__(
            f"{self.path} is not a lore index (not SQLite, or no lore metadata); "
            "pass another --db path, or move the file away and run `lore index`"
        )


class SchemaVersionError(LoreError):
    """The index was written with an incompatible schema version."""

    def __init__(self, path: str, found: int, expected: int) -> None:
        self.path, self.found, self.expected = str(path), found, expected
        super().__init__(
            f"index at {self.path} has schema version {found}, this lore needs {expected}; "
            "run `lore index --rebuild` to rebuild it"
        )


class IndexBusyError(LoreError):
    """Another process is writing the index."""

    def __init__(self, path: str) -> None:
        self.path = str(path)
        super().__init__(
            f"the index at {self.path} is being written by another process; wait for it to finish and retry"
        )


class IndexWriteError(LoreError):
    """Writing the index failed (disk full, read-only file system, I/O error); nothing was committed."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = str(path)
        self.reason = " ".join(str(reason).split())
        super().__init__(
            f"could not write the index at {self.path} ({self.reason}); the index is unchanged: "
            "free some disk space or make it writable, then run `lore index` again"
        )


class UnknownSymbolError(LoreError, KeyError):
    """A symbol id or qualified name that is not in the index."""

    def __init__(self, ref: object, hint: str = "") -> None:
        self.ref = ref
        extra = f"; {hint}" if hint else "; find it with `lore search` (MCP: the lore_search tool)"
        super().__init__(f"unknown symbol {ref!r}: not in the index{extra}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


class UnknownChunkError(LoreError, KeyError):
    """A document chunk id that is not in the index."""

    def __init__(self, ref: object) -> None:
        self.ref = ref
        super().__init__(f"unknown chunk {ref!r}: not in the document store; find ids with `lore docs search`")

    def __str__(self) -> str:
        return self.args[0]


class EmptyGroundTruthError(LoreError):
    """A benchmark found nothing to score."""


class NotAGitRepositoryError(LoreError):
    """A path given for history mining is not a git repository."""

    def __init__(self, path: str) -> None:
        self.path = str(path)
        super().__init__(f"{self.path} is not a git repository; pass the root of a git checkout")


class MissingExtraError(LoreError):
    """An optional dependency is missing."""

    def __init__(self, feature: str, extra: str) -> None:
        self.feature, self.extra = feature, extra
        super().__init__(f"{feature} needs the optional extra; run `pip install 'lore-graph[{extra}]'`")


class ClusterConnectionError(LoreError):
    """A Ray cluster lore was asked to use cannot be reached, or runs other versions than the driver."""

    def __init__(self, address: str, reason: str) -> None:
        self.address, self.reason = address, reason
        super().__init__(f"cannot use the Ray cluster at {address}: {reason}")


class EdgeStoreError(LoreError):
    """A shard set of the Parquet edge store is missing or damaged (readers fall back to the SQLite rows)."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = str(path), reason
        super().__init__(f"the Parquet edge store at {self.path} is unusable: {reason}; run `lore index` to rewrite "
                         "it (or `lore index --rebuild`)")


class ConvergenceError(LoreError):
    """An iterative algorithm stopped before reaching its tolerance."""

    def __init__(self, algorithm: str, iterations: int, error: float, tol: float) -> None:
        self.algorithm, self.iterations, self.error, self.tol = algorithm, iterations, error, tol
        super().__init__(
            f"{algorithm} did not converge in {iterations} iterations (error {error:.3g} > tol {tol:.3g}); "
            "raise max_iter or tol"
        )


class InvalidArgumentError(LoreError, ValueError):
    """An argument outside its allowed range or vocabulary."""


class UnknownAlgorithmError(InvalidArgumentError):
    """An algorithm or mode name that lore does not know."""

    def __init__(self, name: str, choices: list[str] | tuple[str, ...], what: str = "algorithm") -> None:
        self.name, self.choices = name, tuple(choices)
        super().__init__(f"unknown {what} {name!r}; choose one of: {', '.join(self.choices)}")


class QueryError(InvalidArgumentError):
    """A search query that cannot be run."""


class NothingToIndexError(LoreError):
    """A walk found no file to index (all excluded, or none in a language lore reads); the last index is kept.

    ``reason`` is the walk's sentence (which rule excluded the most files, and how to override it),
    ``excluded`` the files kept out by rule, ``db`` the index left as it was ("" when there was none).
    """

    def __init__(self, root: str, reason: str, excluded: dict[str, int], db: str = "") -> None:
        self.root, self.reason, self.excluded, self.db = str(root), reason, dict(excluded), str(db)
        kept = f"; the index at {self.db} is unchanged" if self.db else ""
        super().__init__(f"{reason}{kept}")


class AmbiguousSymbolError(UnknownSymbolError):
    """A name that several symbols answer to: lore never picks one of them silently.

    ``candidates`` holds each as ``{"id", "qualified_name", "kind", "at"}`` (``at`` = ``path:line``),
    ``total`` how many there are (the message lists the first :attr:`SHOWN`). It is an
    :class:`UnknownSymbolError` too: the name does not name one symbol.
    """

    SHOWN = 20

    def __init__(self, ref: object, candidates: list[dict], total: int | None = None) -> None:
        self.ref = ref
        self.candidates = list(candidates)
        self.total = len(self.candidates) if total is None else total
        lines = [f"  {c['qualified_name']}  {c['kind']}  {c['at'] or '-'}  id {c['id']}" for c in self.candidates[: self.SHOWN]]
        if self.total > len(lines):
            lines.append(f"  ... and {self.total - len(lines)} more (give more of the qualified name)")
        LoreError.__init__(
            self,
            f"ambiguous symbol {ref!r}: {self.total} symbols answer to that name; give one of them by its "
            "qualified name, path:line or id:\n" + "\n".join(lines),
        )


class IndexInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``lore index``, saying what the index holds now (decided from its committed generation).

    A ``KeyboardInterrupt`` (never caught as an error): the CLI prints its message and exits with 130.
    ``committed`` is whether the interrupted run committed a new generation before the interrupt (the
    steps after the commit, such as the clusters, were cut short); ``generation`` is the index's now.
    """

    def __init__(self, path: str, generation: int | None, committed: bool) -> None:
        self.path, self.generation, self.committed = str(path), generation, committed
        if committed:
            message = (f"interrupted after generation {generation} was committed; "
                       "derived caches will be rebuilt on the next query")
        elif generation is None:
            message = "interrupted; no index was written"
        else:
            message = f"interrupted; the index is unchanged (still generation {generation})"
        super().__init__(message)


class DamagedIndexError(NotAnIndexError):
    """The index at ``path`` is a lore index that can no longer be read: truncated, malformed pages, a
    missing table, a metadata value that does not parse, text that is not UTF-8.

    Unlike someone else's file, ``lore index --rebuild`` may replace it (a file that no longer opens as
    an index is kept beside it as ``<path>.damaged``). The index is a derived cache: rebuilding loses nothing.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = str(path), " ".join(str(reason).split())
        where = f" at {self.path}" if self.path else ""
        LoreError.__init__(self, f"the index{where} is damaged ({self.reason}); run `lore index --rebuild` to replace it")


class NewerSchemaError(SchemaVersionError):
    """The index was written by a newer lore (a higher schema version): a plain ``lore index`` never
    replaces it; ``lore index --rebuild`` may."""

    def __init__(self, path: str, found: int, expected: int) -> None:
        self.path, self.found, self.expected = str(path), found, expected
        LoreError.__init__(
            self,
            f"the index at {self.path} was written by a newer lore (schema {found}; this lore reads {expected}); "
            "upgrade lore or run `lore index --rebuild`",
        )


class IndexStorageError(LoreError):
    """The storage under the index refused a read (disk full, I/O error, file cannot be opened or is read-only)."""

    def __init__(self, path: str, reason: str, fix: str) -> None:
        self.path = str(path)
        self.reason = " ".join(str(reason).split())
        self.fix = fix
        where = f" at {self.path}" if self.path else ""
        super().__init__(f"could not use the index{where} ({self.reason}); {fix}")


class ServeAddressError(LoreError):
    """``lore serve --http`` cannot listen on the address it was given (in use, or not available here)."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        self.host, self.port, self.reason = host, port, " ".join(str(reason).split())
        shown = f"[{host}]" if ":" in host else host
        super().__init__(f"cannot serve on http://{shown}:{port} ({self.reason}); pass another port to --http, "
                         "or stop the program that listens there")
