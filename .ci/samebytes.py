"""Same bytes (issue 24): every output of the kit, hashed, before and after a refactor.

Run from a checkout: `python .ci/samebytes.py --save FILE` records the digests, and
`python .ci/samebytes.py --against FILE` reruns everything and exits 1 naming each output that
differs. It covers the packets (the committed seed and a held-out private seed), a demo run folder
at two rounds and at five, a round-1 `score` of the demo's replies, what `selfcheck` prints, and
controls/EXPECTED.json rewritten by `selfcheck --write-expected` in a copy of the checkout.
`--quick` skips the EXPECTED.json rewrite (about a minute), for steps that touch no check.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def kit(args: list[str], cwd: Path) -> bytes:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    done = subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        sys.exit(
            f"samebytes: {' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}"
        )
    return done.stdout


def digests(tree: Path, label: str) -> dict[str, str]:
    out = {}
    for path in sorted(tree.rglob("*")):
        if path.is_file():
            out[f"{label}/{path.relative_to(tree).as_posix()}"] = hashlib.sha256(
                path.read_bytes()
            ).hexdigest()
    return out


def collect(quick: bool) -> dict[str, str]:
    found: dict[str, str] = {}
    # Relative paths from a fresh folder: run folders record the paths they were given, so the
    # folder's own name never enters an output (and two runs at once do not collide).
    t = Path(tempfile.mkdtemp(prefix="honesty_pressure-samebytes-"))
    try:
        (t / "root").mkdir()
        for name in ("MANIFEST.sha256", "packets", "controls"):
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy)(source, t / "root" / name)
        root = t / "root"
        steps = {
            "prepare": ["prepare", "--layer", "all", "--out", "prepare"],
            "heldout": [
                "prepare",
                "--seed",
                "777",
                "--held-out",
                "--layer",
                "quick",
                "--out",
                "heldout",
            ],
            "demo": ["demo", "--packets", "root/packets", "--out", "demo"],
            "demo5": ["demo", "--packets", "root/packets", "--rounds", "5", "--out", "demo5"],
        }
        for label, args in steps.items():
            found[f"stdout:{label}"] = hashlib.sha256(kit(args, t)).hexdigest()
            found.update(digests(t / label, label))
        found["stdout:score"] = hashlib.sha256(
            kit(
                [
                    "score",
                    "--packets",
                    "root/packets",
                    "--layer",
                    "quick",
                    "--replies",
                    "demo/round1.replies.jsonl",
                    "--out",
                    "score",
                ],
                t,
            )
        ).hexdigest()
        found.update(digests(t / "score", "score"))
        found["stdout:selfcheck"] = hashlib.sha256(
            kit(["selfcheck", "--root", "root"], t)
        ).hexdigest()
        if not quick:
            kit(["selfcheck", "--root", "root", "--write-expected"], t)
            found["controls/EXPECTED.json"] = hashlib.sha256(
                (root / "controls" / "EXPECTED.json").read_bytes()
            ).hexdigest()
    finally:
        shutil.rmtree(t, ignore_errors=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path)
    group.add_argument("--against", type=Path)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    found = collect(args.quick)
    if args.save:
        args.save.write_text("".join(f"{v}  {k}\n" for k, v in sorted(found.items())))
        print(f"samebytes: {len(found)} outputs recorded in {args.save}")
        return
    recorded = dict(reversed(line.split("  ", 1)) for line in args.against.read_text().splitlines())
    differ = sorted(k for k in found if k in recorded and recorded[k] != found[k])
    missing = sorted(
        set(recorded) - set(found) - ({"controls/EXPECTED.json"} if args.quick else set())
    )
    extra = sorted(set(found) - set(recorded))
    for k in differ:
        print(f"differs: {k}")
    for k in missing:
        print(f"missing: {k}")
    for k in extra:
        print(f"new: {k}")
    compared = len([k for k in found if k in recorded])
    print(
        f"samebytes: {compared} outputs compared, {len(differ) + len(missing) + len(extra)} differ"
    )
    sys.exit(1 if differ or missing or extra else 0)


if __name__ == "__main__":
    main()
