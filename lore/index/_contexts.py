"""Which file contexts the resolver drops first once its memory bound is reached.

:meth:`lore.index._world.WorldCore.ctx` keeps the contexts it built in a plain dict (the hot path reads
it directly); once their records hold more items than the bound (:mod:`lore.index._memory`),
:class:`Segments` orders them and names the ones to drop. It is a segmented LRU: a context read once
since it was built waits in a probationary segment and is dropped first, oldest first; a context read
again moves to the protected segment (at most :data:`PROTECTED_SHARE` of the bound), whose least
recently read one moves back to probation when it is full. A pass that reads every file once (the C
rules' project-wide tables read every file's ``#define``s and ``#include``s) then flows through
probation without pushing out the headers that every source file reads.

Examples
--------
>>> s = Segments(10, [(1, 4), (2, 4)])
>>> s.touch(1)  # read again: protected
>>> s.add(3, 4)
>>> s.over(), s.victim(), s.over()
(True, 2, False)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

PROTECTED_SHARE = 0.8  # of the bound, for contexts read more than once since they were built


class Segments:
    """File ids of the contexts held and their weights (record items), probationary and protected."""

    def __init__(self, cap: int, held: Iterable[tuple[int, int]]) -> None:
        self.cap = cap
        self.probation: OrderedDict[int, int] = OrderedDict(held)  # read once since built, oldest first
        self.protected: OrderedDict[int, int] = OrderedDict()  # read again since, least recently read first
        self.probation_items = sum(self.probation.values())
        self.protected_items = 0

    def add(self, file_id: int, items: int) -> None:
        """A context just built."""
        self.probation[file_id] = items
        self.probation_items += items

    def touch(self, file_id: int) -> None:
        """A context read again."""
        protected = self.protected
        if file_id in protected:
            protected.move_to_end(file_id)
            return
        items = self.probation.pop(file_id, None)
        if items is None:  # a file without records: nothing held, never dropped
            return
        self.probation_items -= items
        protected[file_id] = items
        self.protected_items += items
        limit = self.cap * PROTECTED_SHARE
        while self.protected_items > limit and len(protected) > 1:
            fid, weight = protected.popitem(last=False)
            self.protected_items -= weight
            self.probation[fid] = weight
            self.probation_items += weight

    def over(self) -> bool:
        """Whether the contexts held weigh more than the bound."""
        return self.probation_items + self.protected_items > self.cap

    def victim(self) -> int | None:
        """The file whose context goes next (forgotten here), or ``None`` if only one is left."""
        if len(self.probation) + len(self.protected) < 2:
            return None
        if len(self.probation) > 1 or not self.protected:  # never the one just built while others are held
            fid, weight = self.probation.popitem(last=False)
            self.probation_items -= weight
        else:
            fid, weight = self.protected.popitem(last=False)
            self.protected_items -= weight
        return fid
