"""Auditor checks: manifest hashes and a byte-identical rebuild of every layer from its seed."""

from __future__ import annotations

from pathlib import Path

from ..core import arguments
from ..core.arguments import choice, count
from ..core.construct import LAYERS, SURFACES, Layer, Surface
from ..core.domainfiles import check_recorded
from ..core.errors import InputError
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SOURCES_PER_DOMAIN
from ..files.layer import load_layer
from ..files.manifest import check as check_manifest
from ..files.store import is_dir, is_file, read_bounded, read_json
from ..generate.generate import packet_tree
from ..generate.pairs import check_layer
from .controls import compare_expected, default_policies, run_checks


def parse_seed(text: str, *, origin: str = "--seed") -> int:
    """A seed is a non-negative whole number in decimal, at most 256 bits (private seeds are
    big)."""
    if not text.isascii() or not text.isdigit() or len(text) > 78 or int(text) >= 1 << 256:
        raise InputError(f"{origin}: expected a whole number from 0 to 2**256-1, got {text!r}")
    return int(text)


def layers_present(packets: Path) -> list[Layer]:
    return [layer for layer in LAYERS if is_file(packets / layer / "build.json")]


def _bytes(path: Path) -> bytes | None:
    """A packet file's bytes, or None when it is missing or unreadable (reported elsewhere)."""
    try:
        return read_bounded(path, MAX_PACKET_FILE_BYTES) if is_file(path) else None
    except InputError:
        return None


def rebuild_differences(
    packets: Path,
    layers: list[Layer],
    seed: int,
    sources_per_domain: int,
    surface: Surface = "public",
) -> list[str]:
    """Rebuild in memory and compare byte for byte; one problem per file."""
    tree = packet_tree(seed, layers, sources_per_domain, surface)
    problems = []
    for rel in sorted(tree):
        ours = _bytes(packets / rel)
        if ours is None:
            problems.append(f"packets/{rel}: missing (the seed's rebuild has it)")
        elif ours != tree[rel]:
            problems.append(f"packets/{rel}: differs from the rebuild from seed {seed}")
    for layer in layers:
        for path in sorted((packets / layer).iterdir()) if is_dir(packets / layer) else []:
            rel = f"{layer}/{path.name}"
            if not path.name.startswith(".") and rel not in tree:
                problems.append(f"packets/{rel}: not produced by the rebuild")
    return problems


def layer_subset_problems(packets: Path) -> list[str]:
    """quick must come from the same build as full, every line of it a line of full."""
    problems = []
    if build_params(packets, "quick") != build_params(packets, "full"):
        problems.append(
            "packets/quick/build.json: quick was built from another seed or size than full"
        )
    for name in ("ledgers.jsonl", "round1.jsonl", "key.jsonl"):
        full, quick = _bytes(packets / "full" / name), _bytes(packets / "quick" / name)
        if full is None or quick is None:
            continue  # the rebuild names the missing file
        if not set(quick.splitlines()) <= set(full.splitlines()):
            problems.append(f"packets/quick/{name}: has lines that are not in packets/full/{name}")
    return problems


def build_params(packets: Path, layer: Layer) -> tuple[int, int, Surface]:
    info = read_json(packets / layer / "build.json")
    where = str(packets / layer / "build.json")
    seed_text, spd, surface = info.get("seed"), info.get("sources_per_domain"), info.get("surface")
    if (
        not isinstance(seed_text, str)
        or not isinstance(spd, int)
        or isinstance(spd, bool)
        or not 1 <= spd <= MAX_SOURCES_PER_DOMAIN
    ):
        raise InputError(
            f"needs a string 'seed' and a 'sources_per_domain' from 1 to {MAX_SOURCES_PER_DOMAIN}",
            file=where,
        )
    check_recorded(info, where)  # before a rebuild that could only say "differs"
    chosen = next((s for s in SURFACES if s == surface), None)
    if chosen is None:
        raise InputError(f"'surface' must be one of {', '.join(SURFACES)}", file=where)
    return parse_seed(seed_text, origin=f"{where}: seed"), spd, chosen


def expected_problems(root: Path, packet_set: str) -> list[str]:
    """controls/EXPECTED.json must be a JSON object recording this packet set, with its layers."""
    path = root / "controls" / "EXPECTED.json"
    if not is_file(path):
        return ["controls/EXPECTED.json: missing"]
    try:
        recorded = read_json(path)
    except InputError as exc:
        return [f"controls/EXPECTED.json: {exc.problem}"]
    if recorded.get("packet_set") != packet_set:
        return [
            f"controls/EXPECTED.json: records packet set {recorded.get('packet_set')!r}, the "
            f"packets are set {packet_set}"
        ]
    layers = recorded.get("layers")
    if not isinstance(layers, dict) or not all(isinstance(v, dict) for v in layers.values()):
        return ["controls/EXPECTED.json: 'layers' must be an object of layer objects"]
    return []


def verify_tree(
    root: Path, selfcheck_layers: tuple[Layer, ...] = ("quick",), jobs: int = 2
) -> tuple[list[str], list[str]]:
    """(passed checks, problems) for a checkout: manifest, a rebuild of each layer, and selfcheck
    reproducing controls/EXPECTED.json on `selfcheck_layers`."""
    for layer in selfcheck_layers:  # as `verify --selfcheck` and `--jobs` hold them
        choice(layer, "selfcheck_layers", LAYERS)
    count(jobs, "jobs")
    root = arguments.path(root, "root")
    passed, problems = [], []
    manifest_problems = check_manifest(root)
    if manifest_problems:
        problems += manifest_problems
    else:
        passed.append("every file under packets/ and controls/ matches MANIFEST.sha256")
    packets = root / "packets"
    layers = layers_present(packets)
    if not layers:
        problems.append("packets/: no layer with a build.json to rebuild")
    groups: dict[tuple[int, int, Surface], list[Layer]] = {}
    for layer in layers:
        try:
            groups.setdefault(build_params(packets, layer), []).append(layer)
        except InputError as exc:
            problems.append(f"packets/{layer}/build.json: {exc.problem}")
    parsed = [layer for group in groups.values() for layer in group]
    if all(layer in parsed for layer in LAYERS):
        problems += layer_subset_problems(packets)
    for (seed, spd, surface), group in sorted(groups.items()):
        diff = rebuild_differences(packets, group, seed, spd, surface)
        problems += diff
        if not diff:
            passed.append(f"rebuild of {', '.join(group)} from seed {seed} is byte-identical")
            for layer in group:
                folder = load_layer(packets, layer)
                premise = check_layer(folder.round1, folder.key, where=f"packets/{layer}")
                problems += list(premise.problems)
                if not premise.problems:
                    passed.append(f"minimal pairs of {layer}: {premise.line()}")
    if not problems:
        packet_set = read_json(packets / layers[0] / "build.json").get("packet_set")
        problems += expected_problems(root, str(packet_set))
    if problems:
        # Selfcheck on packets that are not the committed ones would only restate the problem.
        problems.append("controls/EXPECTED.json: selfcheck not run; fix the problems above first")
        return passed, problems
    for layer in selfcheck_layers:
        if layer not in layers:
            continue
        folder = load_layer(packets, layer)
        train = (
            folder if layer == "full" else None
        )  # the learned audit runs with full, and trains on it
        check = run_checks(
            folder,
            default_policies(root),
            seed=int(str(folder.build["seed"])),
            jobs=jobs,
            train=train,
        )
        differ = compare_expected(root, layer, check) + [
            f"selfcheck {layer}: {p}" for p in check.problems
        ]
        problems += differ
        if not differ:
            passed.append(
                f"selfcheck on {layer} reproduces controls/EXPECTED.json ({len(check.policies)} "
                f"policies, {len(check.shortcuts)} shortcuts)"
            )
    return passed, problems
