"""Check or regenerate the golden transcripts: ``PYTHONPATH=. python -m tests.golden --update``.

Without ``--update`` every transcript is replayed and compared with its file (exit status 1 and
the diffs if any differ); with it the files are rewritten. ``--only NAME`` (repeatable) limits
either to some transcripts.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from tests.golden import GOLDEN, REGENERATE, diff, path_of, render

    ap = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    ap.add_argument("--update", action="store_true", help="rewrite the stored transcripts")
    ap.add_argument("--only", action="append", choices=sorted(GOLDEN), help="just this one")
    args = ap.parse_args(argv)
    failed = []
    for name in args.only or GOLDEN:
        t0 = time.process_time()
        text = render(name)
        cpu = time.process_time() - t0
        changed = diff(name, text)
        if args.update:
            if changed or not path_of(name).exists():
                path_of(name).write_text(text, encoding="utf-8")
            state = "rewritten" if changed else "unchanged"
        else:
            state = "DIFFERS" if changed else "ok"
            if changed:
                failed.append(name)
                print(changed)
        print(f"{name}: {state} ({len(text.encode()) / 1024:.0f} KB, {cpu:.1f} s CPU)")
    if failed:
        print(
            f"{len(failed)} transcript(s) differ: {', '.join(failed)}; if that is meant, run: "
            f"{REGENERATE}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
