"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'structure_abs': -1.0,
 'pagerank': 0.25,
 'same_class': -0.25,
 'same_file': 0.5,
 'line_near': 0.25,
 'adjacent': 0.1,
 'package_near': 0.5,
 'name_tokens': 0.5,
 'text_abs': 1.0,
 'same_kind': -0.1,
 'params': 0.25,
 'private_helper': -1.0,
 'direct_call': 0.1,
 'member': -0.1}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.6672,
 'queries': 2602,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}
