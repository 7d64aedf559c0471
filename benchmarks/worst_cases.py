"""The worst inputs of the code that must stay bounded, each beside the code it replaced in one
run (docs/reference.md "Hostile input"):

    python benchmarks/worst_cases.py diff [--kb 280 140 70 | --reordered 2000 1000 500]
    python benchmarks/worst_cases.py loader
    python benchmarks/worst_cases.py neutralise

`diff`: the change diff over a tiny vocabulary and over reordered sections (`lib.worst_diff`);
`loader`: the Markdown loader's worst HTML shapes (`lib.worst_loader`); `neutralise`: the
neutraliser's backtracking shapes (`lib.worst_neutralise`). Each prints its table and writes
its JSON under benchmarks/results.
"""

from __future__ import annotations

import sys

from lib import worst_diff, worst_loader, worst_neutralise

CASES = {"diff": worst_diff.main, "loader": worst_loader.main, "neutralise": worst_neutralise.main}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in CASES:
        sys.exit(f"usage: worst_cases.py {{{','.join(CASES)}}} [options]; got {sys.argv[1:]}")
    name = sys.argv.pop(1)
    sys.argv[0] = f"worst_cases.py {name}"
    CASES[name]()


if __name__ == "__main__":
    main()
