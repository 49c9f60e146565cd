"""``index_repo(embed=True)``: code vectors are one step of the indexing pipeline, not the CLI's job."""

from __future__ import annotations

import lore
from lore.store import db as store_db


def test_embed_is_a_pipeline_step(tmp_path):
    (tmp_path / "m.py").write_text("def parse_config(path):\n    return open(path).read()\n")
    report = lore.index_repo(tmp_path, workers=1, embed=True)
    assert report.code_vectors is not None
    assert report.code_vectors["symbol"]["embedded"] >= 1
    assert report.to_dict()["code_vectors"] == report.code_vectors
    # a later run without embed keeps the vectors fresh (the refresh step) and reports no summary
    (tmp_path / "n.py").write_text("def other():\n    pass\n")
    again = lore.index_repo(tmp_path, workers=1)
    assert again.code_vectors is None and "code_vectors" not in again.to_dict()
    conn = store_db.connect(report.db, readonly=True)
    try:
        assert conn.execute("SELECT count(*) FROM code_vectors").fetchone()[0] >= 3
    finally:
        conn.close()
