"""A folder that mixes every document format lore reads: PDF, Markdown, reST written as .txt, plain text."""

from __future__ import annotations

import textwrap
from pathlib import Path

from .pdfgen import write_pdf

RST_AS_TXT = """\
.. _caching:

=============
Cache backends
=============

Django ships several cache backends.

Memcached
=========

Memcached is a memory-based cache server; see :doc:`/topics/http`.

.. code-block:: python

    CACHES = {"default": {"BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache"}}

Database caching
================

The database cache stores entries in a table created by ``createcachetable``.
"""

MARKDOWN_AS_TXT = """\
# Deployment checklist

Run the checks before every release.

## Static files

```sh
collectstatic --noinput
```

See [the settings](settings.md) for the storage backend.
"""

PLAIN = "Meeting notes, Tuesday.\n\nWe agreed to rotate the signing keys every ninety days.\n"

GUIDE_MD = "# Guide\n\n## Logging\n\nLog every request with its latency in milliseconds.\n"

PDF_PAGES = [
    ["Operations manual", "Start the service with the systemd unit shipped in the package."],
    ["Backups", "Snapshots of the volume are taken nightly and kept for thirty days."],
]


def write_mixed(root: Path) -> Path:
    """Write the folder under ``root / "docs"`` and return it."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "caching.txt").write_text(RST_AS_TXT)
    (docs / "deploy.txt").write_text(MARKDOWN_AS_TXT)
    (docs / "notes.txt").write_text(PLAIN)
    (docs / "guide.md").write_text(textwrap.dedent(GUIDE_MD))
    write_pdf(docs / "ops.pdf", PDF_PAGES, title="Operations Manual")
    return docs
