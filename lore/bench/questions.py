"""A user's own ground truth: a YAML list of ``{source, related: [...]}`` for their repository.

::

    - source: shop.orders.place_order        # a qualified name or a symbol id
      related: [shop.orders.cancel_order, shop.billing.charge]
    - source: 42
      related: [57]

Names are looked up in the index (``lore search`` finds them). Every name that is not in the index
is reported and skipped; the remaining pairs are scored. A file with nothing left to score is an
error (:class:`~lore.errors.EmptyGroundTruthError`), never a perfect score.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import EmptyGroundTruthError, InvalidArgumentError, UnknownSymbolError


def load_questions(path: str | Path) -> list[dict]:
    """The question list of a YAML file, checked for shape (not for names)."""
    import yaml

    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidArgumentError(f"cannot read the question file {p}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise InvalidArgumentError(f"{p} is not valid YAML: {exc}") from exc
    if data is None:
        raise EmptyGroundTruthError(f"{p} holds no questions; add entries like '- source: pkg.mod.func'")
    if isinstance(data, dict) and "questions" in data:
        data = data["questions"]
    if not isinstance(data, list):
        raise InvalidArgumentError(f"{p} must hold a list of {{source, related}} entries")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or "source" not in item:
            raise InvalidArgumentError(f"entry {i + 1} of {p} needs a 'source' key and a 'related' list")
        related = item.get("related") or []
        if isinstance(related, str | int):
            related = [related]
        if not isinstance(related, list):
            raise InvalidArgumentError(f"entry {i + 1} of {p}: 'related' must be a list of names")
        out.append({"source": item["source"], "related": related})
    return out


def resolve_questions(idx, questions: list[dict]) -> tuple[dict[int, list[int]], list[dict]]:
    """(source id -> related ids, unknown names with the entry they came from)."""
    pairs: dict[int, list[int]] = {}
    unknown: list[dict] = []

    def look(ref) -> int | None:
        try:
            return idx.resolve_ref(ref)
        except UnknownSymbolError:
            return None

    for i, q in enumerate(questions):
        src = look(q["source"])
        if src is None:
            unknown.append({"entry": i + 1, "name": str(q["source"]), "role": "source"})
            continue
        targets = pairs.setdefault(src, [])
        for r in q["related"]:
            tid = look(r)
            if tid is None:
                unknown.append({"entry": i + 1, "name": str(r), "role": "related"})
            elif tid != src and tid not in targets:
                targets.append(tid)
        if not targets:
            del pairs[src]
    return pairs, unknown


def run_questions(path: str | Path, *, db: str | Path = ".", algorithms: tuple[str, ...] | None = None,
                  seed: int = 0) -> dict:
    """Score lore's related lists against a question file for the index at ``db``."""
    from ..api import open_index
    from .structural import DEFAULT_USER_ALGORITHMS, score_pairs

    questions = load_questions(path)
    with open_index(db) as idx:
        pairs, unknown = resolve_questions(idx, questions)
        if not pairs:
            raise EmptyGroundTruthError(
                f"no question of {path} has a known source and a known related symbol "
                f"({len(unknown)} unknown names); check the names with `lore search`"
            )
        report = score_pairs(idx, pairs, info={"corpus": str(idx.db_path), "questions": len(questions)},
                             algorithms=algorithms or DEFAULT_USER_ALGORITHMS, seed=seed)
    report["suite"] = "questions"
    report["unknown"] = unknown
    return report
