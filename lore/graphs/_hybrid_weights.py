"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'structure_abs': -0.5,
 'pagerank': 0.5,
 'same_class': -0.1,
 'same_file': 0.25,
 'line_near': 0.25,
 'line_rank': 0.1,
 'adjacent': 0.1,
 'package_near': -0.1,
 'name_tokens': 1.0,
 'text': 0.1,
 'text_abs': 1.0,
 'same_kind': 0.1,
 'decorators': 0.05,
 'params': 0.5,
 'shared_base': -0.1,
 'private_helper': -2.0,
 'direct_call': 0.5,
 'member': 0.1,
 'history': 8.0,
 'history_count': 0.05}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.6924,
 'queries': 2602,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}

CHANGES_WEIGHTS = dict(DEFAULT_WEIGHTS)

CHANGES_PROVENANCE = dict(PROVENANCE)
