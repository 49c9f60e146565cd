"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'structure_abs': -1.0,
 'pagerank': 0.5,
 'same_class': -0.25,
 'same_file': 0.5,
 'line_near': 0.25,
 'line_rank': 0.05,
 'adjacent': 0.25,
 'same_dir': 0.25,
 'package_near': -0.1,
 'name_tokens': 0.5,
 'text_abs': 1.0,
 'decorators': 0.1,
 'params': 0.25,
 'shared_base': -0.1,
 'private_helper': -1.0,
 'direct_call': 0.1,
 'member': -0.25}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.6587,
 'queries': 2610,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}
