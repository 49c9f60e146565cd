"""Benchmarks against ground truth lore did not make (``lore bench``).

* :mod:`lore.bench.callgraph` -- call-graph precision / recall on PyCG's micro-benchmark;
* :mod:`lore.bench.langs` -- edge precision / recall per language on the fixture projects (JS ... C++);
* :mod:`lore.bench.structural` -- related-symbol rankings against networkx's See-Also sections
  (:mod:`lore.bench.seealso`), with baselines (:mod:`lore.bench.baselines`) and cluster quality
  (:mod:`lore.bench.clusters`);
* :mod:`lore.bench.cochange` -- against symbol pairs that changed together in git history;
* :mod:`lore.bench.questions` -- against a user's own YAML list of related symbols;
* :mod:`lore.bench.metrics` -- Recall@k, MRR, nDCG@10, precision / recall, NMI, ARI;
* :mod:`lore.bench.gate` -- the thresholds file that CI gates on.

Submodules are imported on use (the CLI stays fast to start).
"""

__all__ = ["baselines", "callgraph", "clusters", "cochange", "gate", "langs", "metrics", "questions", "seealso", "structural"]
