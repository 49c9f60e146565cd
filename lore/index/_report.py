"""What an index run did: :class:`IndexReport`, printed by ``lore index`` and dumped by ``--json``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class IndexReport:
    """What an index run did; ``lore index`` prints it, ``--json`` dumps it.

    ``unchanged`` counts indexed files that were not re-parsed; ``seconds`` holds wall time per
    phase and ``cpu`` (this process and its workers, user + system).
    """

    root: str
    db: str
    generation: int
    full: bool
    files_seen: int = 0
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    reresolved_files: int = 0
    # files read and hashed again because only their inode changed (same size and mtime: cp -p, tar x, or a
    # hard link made or removed elsewhere moves the ctime); they are parsed again only if their bytes changed
    rehashed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    skipped_dirs: dict[str, str] = field(default_factory=dict)  # built-in skips: {"venv": "virtualenv"}
    nothing_indexed: str = ""
    excluded: dict[str, int] = field(default_factory=dict)
    syntax_error_files: list[str] = field(default_factory=list)
    symbols: int = 0
    edges: dict[str, int] = field(default_factory=dict)
    rebuilt_reason: str = ""
    # values that travel: "solved" over every file, or "kept" from the last run (no changed file
    # changed what resolution reads: lore.index._flow_keep); "" when nothing was resolved
    flow: str = ""
    # every changed file reads the same to the resolver (its symbols and edges as before: a comment, a line
    # moved), so the graph and clusters of the last generation are this one's; a kept flow alone does not
    # say it (a new C function keeps the flow: only Python's values travel)
    same_shape: bool = False
    seconds: dict[str, float] = field(default_factory=dict)
    code_vectors: dict | None = None  # what `index_repo(embed=True)` embedded, kept and removed
    vector_upkeep: list[dict] = field(default_factory=list)  # code vectors the refresh brought up to date
    history: dict = field(default_factory=dict)  # the git-history step (lore.index.history_job.run_step)

    @property
    def changed_any(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def to_dict(self) -> dict:
        out = asdict(self)
        if out["code_vectors"] is None:  # no --embed: the report is what it always was
            del out["code_vectors"]
        return out
