"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'structure_abs': 0.5,
 'pagerank': 0.5,
 'same_class': 0.1,
 'same_file': 1.0,
 'line_near': 0.5,
 'adjacent': 2.0,
 'same_dir': 0.1,
 'name_tokens': 2.0,
 'text': 0.5,
 'text_abs': 0.05,
 'same_kind': -0.1,
 'params': 0.1,
 'shared_base': 0.05,
 'private_helper': -2.0}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.6516,
 'queries': 2998,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}
