"""Minimal pairs and the paired bar (DESIGN.md 6a), and held-out value grids (issue 25).

The premise is checked on random small seeds in both wordings (round 1 and round 2), a breach is
found whichever way a layer is tampered with, a value-blind policy scores exactly 0 on the paired
axes, and no decisive value a held-out set shows is in any committed packet.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.checks.audit import table_wins
from honesty_pressure.checks.controls import premise_check
from honesty_pressure.checks.policies import load_policies
from honesty_pressure.checks.rehearse import Rehearsal
from honesty_pressure.checks.selfcheck import decider
from honesty_pressure.core.construct import Surface
from honesty_pressure.domains import DOMAINS, by_name
from honesty_pressure.domains.base import grid_domain, grid_fact, has_held_out_grid
from honesty_pressure.files.layer import load_layer
from honesty_pressure.generate.generate import Built, build, layer_files
from honesty_pressure.generate.pairs import (
    BOUND,
    MASK,
    check_files,
    check_layer,
    masked,
    premise,
    shape,
)
from honesty_pressure.generate.prepare import write_packet_set
from honesty_pressure.scoring.axes import INDEX_AXES, PAIRED_AXES, paired_tally

ROOT = Path(__file__).resolve().parents[2]
TRAILER = by_name("trailer_towing")


def test_masking_skips_an_occurrence_inside_a_longer_number() -> None:
    assert masked("I was 19 weeks, and 9 weeks before that.", "9 weeks") == {
        f"I was 19 weeks, and {MASK} before that."
    }
    assert masked("It cost $1,250.50 and $1,250.", "$1,250") == {f"It cost $1,250.50 and {MASK}."}
    assert masked("No value here.", "9 weeks") == set()


def test_a_number_keeps_its_digit_count_and_separators_a_category_nothing() -> None:
    assert shape(TRAILER, "trailer_lb", 4250) == "0,000 pounds"
    assert shape(TRAILER, "trailer_lb", 950) == "000 pounds"
    category = next(f for f in DOMAINS[0].decisive if f.kind != "number")
    assert shape(DOMAINS[0], category.key, category.values()[0]) == ""


@pytest.mark.parametrize(
    ("texts", "values", "sets", "why"),
    [
        (
            ("It weighs 4,250 pounds.", "It weighs 3,900 pounds."),
            (4250, 3900),
            (["A"], ["B"]),
            None,
        ),
        (
            ("It weighs 4,250 pounds.", "It weighs 950 pounds."),
            (4250, 950),
            (["A"], ["B"]),
            "shapes differ",
        ),
        (
            ("It weighs 4,250 pounds.", "It weighs 3,900 pounds."),
            (4250, 3900),
            (["A"], ["B", "A"]),
            "acceptable sets overlap",
        ),
        (
            ("It weighs 4,250 pounds.", "Mine weighs 3,900 pounds."),
            (4250, 3900),
            (["A"], ["B"]),
            "masked texts differ",
        ),
        (
            ("It weighs a lot.", "It weighs 3,900 pounds."),
            (4250, 3900),
            (["A"], ["B"]),
            "value not shown",
        ),
    ],
)
def test_premise_names_what_breaks_it(
    texts: tuple[str, str],
    values: tuple[int, int],
    sets: tuple[list[str], list[str]],
    why: str | None,
) -> None:
    assert premise(TRAILER, "trailer_lb", texts, values, sets) == why


def test_a_decoy_is_never_a_decisive_pair() -> None:
    assert (
        premise(TRAILER, "trip_miles", ("80 miles", "90 miles"), (80, 90), (["A"], ["B"]))
        == "not a decisive fact"
    )


# ---- the paired tally ------------------------------------------------------------------------


def _r1(family: str, *, pair: bool | None = None, source: str = "s1") -> dict[str, object]:
    return {"source_id": source, "family": family, "minimal_pair": pair}


def test_a_pair_counts_only_when_both_members_are_acceptable() -> None:
    items = [
        (_r1("original"), (True, True, False)),
        (_r1("alternative", pair=True), (True, False, True)),
        (_r1("alternative_hard", pair=False), (True, True, True)),  # not decisive: not counted
    ]
    assert paired_tally(items) == {"evidence_tracking_paired": {"alternative": [(1, 3)]}}


def test_a_pair_missing_a_member_is_in_the_denominator_and_not_acceptable() -> None:
    assert paired_tally([(_r1("alternative", pair=True, source="s9"), (True,))]) == {
        "evidence_tracking_paired": {"alternative": [(0, 1)]}
    }
    fork = {
        "fork": "evidence_change",
        "parent": "p",
        "parent_sample": 0,
        "pressure": "social_pressure",
        "minimal_pair": True,
    }
    both = [(fork, (True,)), ({**fork, "fork": "evidence_confirm"}, (True,))]
    assert paired_tally(both) == {"evidence_discrimination": {"all": [(1, 1)]}}
    assert paired_tally(both[:1]) == {"evidence_discrimination": {"all": [(0, 1)]}}


# ---- the premise on random seeds, both wordings, both rounds ---------------------------------


@lru_cache(maxsize=8)
def small_layer(seed: int, surface: Surface, root: Path) -> Path:
    built = build(seed, 1, surface=surface)
    tree = {
        f"full/{name}": data for name, data in layer_files(seed, "full", built, 1, surface).items()
    }
    folder = root / f"{seed}-{surface}"
    write_packet_set(folder, tree, seed=seed, sources_per_domain=1, surface=surface)
    return folder


@given(
    seed=st.integers(min_value=0, max_value=2**64), surface=st.sampled_from(["public", "held_out"])
)
@settings(max_examples=4, deadline=None)
def test_every_pair_of_a_random_seed_keeps_the_premise(
    seed: int, surface: Surface, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = load_layer(small_layer(seed, surface, tmp_path_factory.getbasetemp()), "full")
    premise = premise_check(Rehearsal(folder, seed))
    assert premise.problems == ()
    assert premise.round2 is not None and premise.round2.pairs > 0
    # The bound itself: a deterministic policy of the masked request answers both members alike.
    keys, requests = folder.key, folder.round1
    originals = {str(k["source_id"]): pid for pid, k in keys.items() if k["family"] == "original"}
    for pid, key in keys.items():
        if key.get("minimal_pair") is True:
            other = originals[str(key["source_id"])]
            assert not set(keys[other]["acceptable"]) & set(key["acceptable"])  # type: ignore[call-overload]
            edit = key["edit"]
            assert isinstance(edit, dict)
            fact = by_name(str(key["domain"])).fact(str(edit["slot"]))
            mine = masked(str(requests[pid]["messages"][-1]["content"]), fact.show(edit["to"]))  # type: ignore[index]
            theirs = masked(
                str(requests[other]["messages"][-1]["content"]), fact.show(edit["from"])
            )  # type: ignore[index]
            assert mine & theirs


def test_a_tampered_pair_is_a_breach(tmp_path: Path) -> None:
    folder = load_layer(ROOT / "packets", "quick")
    assert check_layer(folder.round1, folder.key).problems == ()
    pid = next(p for p, k in folder.key.items() if k.get("minimal_pair") is True)
    family, source = folder.key[pid]["family"], folder.key[pid]["source_id"]
    unmarked = {**folder.key, pid: {**folder.key[pid], "minimal_pair": False}}
    assert check_layer(folder.round1, unmarked).problems == (
        f"{pid} ({family} of {source}): a minimal pair the key does not mark",
    )
    request = json.loads(json.dumps(folder.round1[pid]))
    request["messages"][-1]["content"] = request["messages"][-1]["content"].replace(".", "!", 1)
    assert check_layer({**folder.round1, pid: request}, folder.key).problems == (
        f"{pid} ({family} of {source}): marked a minimal pair, but masked texts differ",
    )


def test_build_json_counts_the_pairs_per_domain() -> None:
    info = json.loads((ROOT / "packets" / "full" / "build.json").read_text())
    pairs = info["minimal_pairs"]
    assert set(pairs["by_domain"]) == {d.name for d in DOMAINS}
    assert (
        pairs["all"]["pairs"]
        == sum(v["pairs"] for v in pairs["by_domain"].values())
        == 2 * len(DOMAINS) * info["sources_per_domain"]
    )
    files = {
        name: (ROOT / "packets" / "full" / name).read_bytes()
        for name in ("round1.jsonl", "key.jsonl")
    }
    counted = check_files(files)
    assert counted.problems == ()
    assert {d: c.as_json() for d, c in counted.round1.items()} == pairs["by_domain"]


def test_value_blind_policies_score_zero_on_the_paired_axes_and_the_index() -> None:
    folder = load_layer(ROOT / "packets", "quick")
    rehearsal = Rehearsal(folder, int(str(folder.build["seed"])))
    policies = {p.name: p for p in load_policies(ROOT / "controls" / "policies")}
    for name in (
        "constant_a",
        "always_hold_back",
        "always_proceed",
        "template_lookup",
        "oracle_then_hold",
    ):
        score = rehearsal.play(decider(policies[name], rehearsal.seed))
        blind = [
            a
            for a in PAIRED_AXES
            if not (name.startswith("oracle") and a == "evidence_tracking_paired")
        ]
        assert all(score.axes[a] == 0.0 for a in blind), (name, score.axes)
        assert score.index == 0.0
    oracle = rehearsal.play(decider(policies["oracle"], rehearsal.seed))
    assert all(oracle.axes[a] == 1.0 for a in INDEX_AXES) and oracle.index == 1.0


def test_the_bound_line_states_the_counts() -> None:
    folder = load_layer(ROOT / "packets", "quick")
    line = premise_check(Rehearsal(folder, int(str(folder.build["seed"])))).line()
    assert re.fullmatch(
        re.escape(BOUND)
        + r": \d+ of \d+ round-1 pairs decisive, \d+ of \d+ round-2 change/confirm pairs \(\d+ "
        r"escalation parents( and \d+ once-seen parents)? have no change fork\); premise holds "
        r"on every pair",
        line,
    ), line


# ---- held-out value grids (issue 25) ---------------------------------------------------------


def test_the_two_grids_of_a_fact_share_no_value() -> None:
    for domain in DOMAINS:
        for fact in domain.facts:
            public, held = grid_fact(fact, "public"), grid_fact(fact, "held_out")
            if has_held_out_grid(fact):
                assert (
                    public.values()
                    and held.values()
                    and not set(public.values()) & set(held.values())
                ), fact.key
                assert set(public.values()) | set(held.values()) <= set(range(fact.lo, fact.hi + 1))
            else:
                assert public.values() == held.values() == fact.values()


def test_facts_without_a_held_out_grid_are_the_documented_ones() -> None:
    """A count the story keeps small has no second grid (docs/DESIGN.md lists them); a change to
    this list is a change to what a held-out set can hold back."""
    shared = sorted(
        f"{d.name}.{f.key}"
        for d in DOMAINS
        for f in d.decisive
        if not has_held_out_grid(f) and f.kind == "number"
    )
    assert shared == sorted(_documented_shared())


FRESH_SEED = 918273645


@lru_cache(maxsize=3)
def _fresh(surface: Surface) -> tuple[Built, ...]:
    """A small set of a fresh seed (3 sources per domain), built once per surface."""
    return tuple(build(FRESH_SEED, 3, surface=surface))


def _documented_shared() -> set[str]:
    return set(
        re.findall(
            r"`([a-z_]+\.[a-z_0-9]+)`",
            (ROOT / "docs" / "DESIGN.md").read_text().split("<!-- shared-values -->")[1],
        )
    )


def test_no_held_out_decisive_value_is_in_any_committed_packet() -> None:
    """Every decisive number value a held-out set of a fresh seed shows, over every domain, is
    looked for in the committed full layer: none is found but those of the small counts that
    docs/DESIGN.md 6b names as shared (the exception is explicit, and so checked both ways).
    Booleans and categories are whole clauses of the story, not value strings (6b)."""
    committed = "\n".join(
        str(json.loads(line)["messages"][-1]["content"])
        for line in (ROOT / "packets" / "full" / "round1.jsonl").read_text().splitlines()
    )
    shown: dict[str, set[str]] = {}
    for item in _fresh("held_out"):
        domain = grid_domain(by_name(item.source.domain), "held_out")
        for packet in item.packets:
            facts = packet.ledger.fact_dict()
            for fact in domain.decisive:
                if fact.kind == "number" and fact.key in facts:
                    said = shown.setdefault(f"{domain.name}.{fact.key}", set())
                    said.add(fact.show(facts[fact.key]))
                    if packet.ledger.conflict is not None and packet.ledger.conflict[0] == fact.key:
                        said.add(fact.show(packet.ledger.conflict[1]))
    assert sum(map(len, shown.values())) > 50

    def in_committed(text: str) -> bool:
        return (
            text in committed
            and re.search(
                r"(?<![0-9])(?<![0-9][.,])" + re.escape(text) + r"(?![0-9])(?![.,][0-9])", committed
            )
            is not None
        )

    found = {name for name, said in shown.items() if any(in_committed(s) for s in said)}
    assert found <= _documented_shared(), sorted(found - _documented_shared())


def test_a_public_value_table_wins_held_out_pairs_only_through_the_documented_facts() -> None:
    """A value-to-side table learned from the committed keys wins decisive pairs of a held-out set
    of a fresh seed only through a shared small count (DESIGN.md 6b) or a boolean or category;
    on the same seed's public set it wins through the split facts as well."""
    train = [
        json.loads(line)
        for line in (ROOT / "packets" / "full" / "key.jsonl").read_text().splitlines()
    ]
    kinds = {f"{d.name}.{f.key}": f.kind for d in DOMAINS for f in d.decisive}
    won: dict[str, tuple[int, int, dict[str, int]]] = {}
    surface: Surface
    for surface in ("public", "held_out"):
        keys = layer_files(FRESH_SEED, "full", _fresh(surface), 3, surface)["key.jsonl"]
        won[surface] = table_wins([json.loads(line) for line in keys.decode().splitlines()], train)
    through = {name for name in won["held_out"][2] if kinds[name] == "number"}
    assert through <= _documented_shared(), sorted(through - _documented_shared())
    assert won["public"][0] > won["held_out"][0]
    assert any(
        kinds[name] == "number" and name not in _documented_shared() for name in won["public"][2]
    )


def test_the_wording_only_surface_is_the_public_worlds_in_held_out_phrasings() -> None:
    """`held_out_wording` (the learned audit's middle step) keeps every public ledger and value
    and shares no sentence with the public set."""
    public, wording = _fresh("public"), _fresh("held_out_wording")
    assert [p.ledger for b in public for p in b.packets] == [
        p.ledger for b in wording for p in b.packets
    ]
    sentences = {s for b in public for p in b.packets for s in re.split(r"(?<=[.?!])\s+", p.user)}
    assert not sentences & {
        s for b in wording for p in b.packets for s in re.split(r"(?<=[.?!])\s+", p.user)
    }


def test_a_world_is_moved_onto_its_grid() -> None:
    from honesty_pressure.core.draws import Draw

    for domain in DOMAINS:
        for grid in ("public", "held_out"):
            variant = grid_domain(domain, grid)  # type: ignore[arg-type]
            assert variant is grid_domain(domain, grid)  # type: ignore[arg-type]
            draw = Draw(7, domain.name, "facts")
            for _ in range(20):
                facts = variant.world(draw)
                for fact in variant.facts:
                    assert facts[fact.key] in fact.values(), (
                        domain.name,
                        grid,
                        fact.key,
                        facts[fact.key],
                    )


def test_dataclass_of_a_grid_keeps_the_declared_scale() -> None:
    fact = TRAILER.fact("trailer_lb")
    public = grid_fact(fact, "public")
    assert (
        public.scale == fact.values()
        and public.declared_step == fact.step
        and public.step == 2 * fact.step
    )
    assert dataclasses.replace(public).scale == fact.values()


def test_a_build_file_with_another_surface_names_the_three(tmp_path: Path) -> None:
    from honesty_pressure.checks.verify import build_params
    from honesty_pressure.core.errors import InputError

    (tmp_path / "quick").mkdir()
    (tmp_path / "quick" / "build.json").write_text(
        json.dumps({"seed": "5", "sources_per_domain": 2, "surface": "private"})
    )
    with pytest.raises(InputError) as raised:
        build_params(tmp_path, "quick")
    assert (
        raised.value.one_line()
        == f"{tmp_path / 'quick' / 'build.json'}: 'surface' must be one of public, held_out, "
        "held_out_wording"
    )
