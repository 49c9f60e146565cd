"""Errors raised by lore.

Every error a user can cause is a :class:`LoreError`; its message is one sentence that says what
happened and how to fix it. The CLI prints it on one line and exits with code 2; the MCP server
returns it as a tool error. Argument errors are also ``ValueError`` so generic callers can catch them.

::

    LoreError
    ├── IndexNotFoundError          no index at the given path (run `lore index`)
    ├── NotAnIndexError             the file is not a lore index (lore never modifies it)
    ├── SchemaVersionError          index written by an incompatible lore version
    ├── IndexBusyError              another process holds the write lock
    ├── IndexWriteError             the disk is full or read-only: the index was left as it was
    ├── UnknownSymbolError          id or qualified name not in the index
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


class IndexDamagedError(LoreError):
    """The index file is damaged (SQLite reports corruption, a table is missing, a metadata value is unreadable).

    The index is a derived cache of the repository: rebuilding it loses nothing.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = str(path)
        self.reason = " ".join(str(reason).split())
        where = f" at {self.path}" if self.path else ""
        super().__init__(f"the index{where} is damaged ({self.reason}); run `lore index --rebuild` to rebuild it")


class IndexStorageError(LoreError):
    """The storage under the index refused a read (disk full, I/O error, file cannot be opened or is read-only)."""

    def __init__(self, path: str, reason: str, fix: str) -> None:
        self.path = str(path)
        self.reason = " ".join(str(reason).split())
        self.fix = fix
        where = f" at {self.path}" if self.path else ""
        super().__init__(f"could not use the index{where} ({self.reason}); {fix}")


class OutputError(LoreError):
    """An answer could not be written where it was asked to go (a missing directory, a full disk, a closed pipe)."""

    def __init__(self, target: str, reason: str, fix: str = "") -> None:
        self.target, self.reason = str(target), " ".join(str(reason).split())
        tail = f"; {fix}" if fix else ""
        super().__init__(f"could not write {self.target} ({self.reason}){tail}")


class ServeAddressError(LoreError):
    """``lore serve --http`` cannot listen on the address it was given (in use, or not available here)."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        self.host, self.port, self.reason = host, port, " ".join(str(reason).split())
        shown = f"[{host}]" if ":" in host else host
        super().__init__(f"cannot serve on http://{shown}:{port} ({self.reason}); pass another port to --http, "
                         "or stop the program that listens there")
