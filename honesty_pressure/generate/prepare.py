"""`prepare`: write a packet set into a folder as one set, with the manifest that lets every
later command check it (or refresh the committed packets/ and the checkout's MANIFEST.sha256).

A private set (`--out DIR`) gets DIR/MANIFEST.sha256 over all its layers. The committed packets/
of a checkout only ever receives the committed seed at the committed size, and the checkout's own
MANIFEST.sha256 is refreshed after it. Layers already in the folder are kept, but only if they
come from the same seed and size: one folder never mixes two packet sets.
"""

from __future__ import annotations

from pathlib import Path

from ..core.canonical import write_atomic
from ..core.construct import LAYERS, Surface
from ..core.errors import InputError, UsageError
from ..core.limits import MAX_PACKET_FILE_BYTES
from ..files.folders import is_committed_packets, may_write, open_writer, target_path
from ..files.manifest import MANIFEST_NAME, render_bytes
from ..files.manifest import build as build_manifest
from ..files.store import LAYER_FILES, is_dir, json_object, read_bounded
from .generate import DEFAULT_SEED, SOURCES_PER_DOMAIN


def check_packet_target(
    out: Path, *, seed: int, sources_per_domain: int, surface: Surface = "public"
) -> bool:
    """May a packet set of this seed, size and surface be written into `out`? The checks that need
    no packets, made before a build of seconds so an unwritable or refused folder is said at once
    (write_packet_set makes them again, under its lock). Returns whether `out` is the committed
    packets/ of a checkout; a refusal is a UsageError or an OutputError, and nothing is touched."""
    committed = is_committed_packets(target_path(out))
    if committed and (seed, sources_per_domain, surface) != (
        DEFAULT_SEED,
        SOURCES_PER_DOMAIN,
        "public",
    ):
        raise UsageError(
            f"{out} is the committed packets/ of a checkout, which holds only seed {DEFAULT_SEED} "
            f"at {SOURCES_PER_DOMAIN} sources per domain on the public phrasings; give --out DIR "
            "for any other set"
        )
    may_write(out, ("packets",), replace=False, committed_packets_ok=committed)
    return committed


def write_packet_set(
    out: Path,
    tree: dict[str, bytes],
    *,
    seed: int,
    sources_per_domain: int,
    surface: Surface = "public",
) -> str:
    """Write the layers in `tree` ("<layer>/<file>" keys) into `out`; returns what was done."""
    committed = check_packet_target(
        out, seed=seed, sources_per_domain=sources_per_domain, surface=surface
    )
    new_layers = {rel.split("/", 1)[0] for rel in tree}
    with open_writer(out, ("packets",), replace=False, committed_packets_ok=committed) as writer:
        kept: dict[str, bytes] = {}
        if writer.existing.state == "kit":
            for layer in LAYERS:
                if layer in new_layers or not is_dir(out / layer):
                    continue
                files = {
                    name: read_bounded(out / layer / name, MAX_PACKET_FILE_BYTES)
                    for name in LAYER_FILES
                }
                build = json_object(files["build.json"], str(out / layer / "build.json"))
                if (build.get("seed"), build.get("sources_per_domain"), build.get("surface")) != (
                    str(seed),
                    sources_per_domain,
                    surface,
                ):
                    raise InputError(
                        f"holds the {layer} layer of another packet set (seed "
                        f"{build.get('seed')}); write all layers (--layer all) or choose another "
                        "--out",
                        file=str(out),
                    )
                kept.update({f"{layer}/{name}": data for name, data in files.items()})
        files = dict(tree)
        if not committed:
            files[MANIFEST_NAME] = render_bytes({**kept, **tree})
        writer.commit(files, None, keep=True)
    if committed:
        root = target_path(out).parent
        write_atomic(root / MANIFEST_NAME, build_manifest(root))
        return f" and refreshed {MANIFEST_NAME}"
    return f" (with {MANIFEST_NAME})"
