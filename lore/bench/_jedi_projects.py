"""The projects of the Jedi agreement benchmark: pinned sdists, their style, where their sources are.

The sets, each chosen before the rules it measures were written: the three tuned-on projects
(:data:`PROJECTS`), two held out (:data:`HELD_OUT`), and issue 34's tuning and held-out five
(:data:`SECOND_TUNING`, :data:`SECOND_HELD_OUT`). Later rounds are declared in
``benchmarks/callgraph/bench_jedi.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._sdist import Sdist


@dataclass(frozen=True)
class Project:
    """A project to judge: a pinned sdist, its style, and where its importable sources are."""

    name: str
    style: str
    sdist: Sdist
    source_dirs: tuple[str, ...] = ("",)  # relative to the sdist root: "src" for a src layout


PROJECTS: tuple[Project, ...] = (
    Project("flask", "web framework",
            Sdist("flask", "3.1.0", "flask-3.1.0.tar.gz",
                  "5f873c5184c897c8d9d1b05df1e3d01b14910ce69607a117bd3277098a5836ac"), ("src",)),
    Project("click", "CLI library",
            Sdist("click", "8.1.8", "click-8.1.8.tar.gz",
                  "ed53c9d8990d83c2a27deae68e4ee337473f6330c040a31d4225c9574d16096a"), ("src",)),
    Project("networkx", "scientific library",
            Sdist("networkx", "3.6.1", "networkx-3.6.1.tar.gz",
                  "26b7c357accc0c8cde558ad486283728b65b6a95d85ee1cd66bafab4c8168509"), ("",)),
)
# Never read while the resolver was tuned (the three above were: their misses were read and fixed), so
# agreement on these is the held-out figure. An HTTP client of the classic style and a terminal
# rendering library built on many small classes and protocols.
HELD_OUT: tuple[Project, ...] = (
    Project("requests", "HTTP client (held out)",
            Sdist("requests", "2.32.3", "requests-2.32.3.tar.gz",
                  "55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760"), ("src",)),
    Project("rich", "terminal rendering library (held out)",
            Sdist("rich", "13.9.4", "rich-13.9.4.tar.gz",
                  "439594978a49a09530cff7ebc4b5c7103ef57baf48d5ea3184f21d9a2befa098"), ("",)),
)
# Issue 34's round: the five whose misses issue 34 read (now tuning projects), and five chosen before any
# of its rules was written and never read while tuning (the held-out figure of that round).
SECOND_TUNING: tuple[Project, ...] = (
    Project("attrs", "class-building library",
            Sdist("attrs", "24.2.0", "attrs-24.2.0.tar.gz",
                  "5cfb1b9148b5b086569baec03f20d7b6bf3bcacc9a42bebf87ffaaca362f6346"), ("src",)),
    Project("werkzeug", "WSGI toolkit",
            Sdist("werkzeug", "3.1.3", "werkzeug-3.1.3.tar.gz",
                  "60723ce945c19328679790e3282cc758aa4a6040e4bb330f53d30fa546d44746"), ("src",)),
    Project("jinja2", "template engine",
            Sdist("jinja2", "3.1.4", "jinja2-3.1.4.tar.gz",
                  "4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369"), ("src",)),
    Project("marshmallow", "serialization library",
            Sdist("marshmallow", "3.23.1", "marshmallow-3.23.1.tar.gz",
                  "3a8dfda6edd8dcdbf216c0ede1d1e78d230a6dc9c5a088f58c4083b974a0d468"), ("src",)),
    Project("pluggy", "plugin system",
            Sdist("pluggy", "1.5.0", "pluggy-1.5.0.tar.gz",
                  "2cffa88e94fdc978c4c574f15f9e59b7f4201d439195c3715ca9e2486f1d0cf1"), ("src",)),
)
SECOND_HELD_OUT: tuple[Project, ...] = (
    Project("starlette", "ASGI framework (held out, round 2)",
            Sdist("starlette", "0.41.3", "starlette-0.41.3.tar.gz",
                  "0e4ab3d16522a255be6b28260b938eae2482f98ce5cc934cb08dce8dc3ba5835"), ("",)),
    Project("structlog", "structured logging (held out, round 2)",
            Sdist("structlog", "24.4.0", "structlog-24.4.0.tar.gz",
                  "b27bfecede327a6d2da5fbc96bd859f114ecc398a6389d664f62085ee7ae6fc4"), ("src",)),
    Project("tomlkit", "TOML document model (held out, round 2)",
            Sdist("tomlkit", "0.13.2", "tomlkit-0.13.2.tar.gz",
                  "fff5fe59a87295b278abd31bec92c15d9bc4a06885ab12bcea52c71119392e79"), ("",)),
    Project("cattrs", "typed (un)structuring (held out, round 2)",
            Sdist("cattrs", "24.1.2", "cattrs-24.1.2.tar.gz",
                  "8028cfe1ff5382df59dd36474a86e02d817b06eaf8af84555441bac915d2ef85"), ("src",)),
    Project("anyio", "async compatibility layer (held out, round 2)",
            Sdist("anyio", "4.6.2", "anyio-4.6.2.tar.gz",
                  "f72a7bb3dd0752b3bd8b17a844a019d7fbf6ae218c588f4f9ba1b2f600b12347"), ("src",)),
)
