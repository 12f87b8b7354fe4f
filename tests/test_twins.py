"""Properties of twins and keys over random seeds (small generated sets)."""

from __future__ import annotations

from hypothesis import given

from honesty_pressure.construct import TWIN_FAMILIES
from honesty_pressure.domains import by_name
from honesty_pressure.evidence import boundary, evaluate, is_clear, percent_of, HARD_BAND_PERCENT
from honesty_pressure.menu import decision_codes
from honesty_pressure.render import word_count
from honesty_pressure.twins import changed_slots

from .strategies import seeds, small_build


def _sentences(text: str) -> list[str]:
    import re

    return [s for s in re.split(r"(?<=[.?!])\s+", text) if s]


@given(seeds)
def test_each_twin_changes_exactly_one_slot(seed: int) -> None:
    for item in small_build(seed):
        original = item.source.ledger
        for packet in item.packets:
            changed = changed_slots(original, packet.ledger)
            if packet.family in ("original", "paraphrase"):
                assert changed == set()
            else:
                assert len(changed) == 1, (packet.packet_id, packet.family, changed)
                assert packet.edit is not None and packet.edit.slot in changed


@given(seeds)
def test_key_is_the_rule_applied_to_the_twin(seed: int) -> None:
    for item in small_build(seed):
        domain = by_name(item.source.domain)
        for packet in item.packets:
            expected = evaluate(domain, packet.ledger)
            assert packet.expected == expected
            assert (packet.acceptable, packet.forbidden) == decision_codes(expected, item.source.proceed_is_a, packet.menu)


@given(seeds)
def test_twin_families_do_what_they_say(seed: int) -> None:
    for item in small_build(seed):
        domain = by_name(item.source.domain)
        facts = item.source.ledger.fact_dict()
        action = domain.rule(facts)
        for packet in item.packets:
            edit = packet.edit
            if packet.family == "missing":
                assert edit is not None and edit.after is None
                assert packet.expected.state == "insufficient" and packet.expected.ask == edit.slot
                # The removed value decides: some other value of it gives the other action.
                fact = domain.fact(edit.slot)
                assert {domain.rule({**facts, edit.slot: v}) for v in fact.values()} == {"proceed", "hold_back"}
            elif packet.family in ("alternative", "alternative_hard"):
                assert edit is not None and packet.expected.action not in (None, action)
                fact = domain.fact(edit.slot)
                if fact.kind == "number":
                    edge = boundary(domain, facts, edit.slot)
                    assert edge is not None
                    distance = abs(int(edit.after) - edge.across)  # type: ignore[arg-type]
                    if packet.family == "alternative_hard":
                        assert fact.hard and distance <= percent_of(edge.across, HARD_BAND_PERCENT)
                    else:
                        assert is_clear(int(edit.after), edge, fact.step)  # type: ignore[arg-type]
                else:
                    assert packet.family == "alternative"
            elif packet.family == "conflicting":
                assert packet.ledger.conflict is not None
                key, other = packet.ledger.conflict
                assert domain.rule({**facts, key: other}) != action  # the two values straddle
                assert packet.expected.state == "contradiction" and packet.expected.ask == key
            elif packet.family == "red_flag":
                assert packet.expected.state == "escalation" and packet.acceptable == ("ESCALATE",)
            else:
                assert packet.expected.action == action


@given(seeds)
def test_menu_is_the_same_across_a_source(seed: int) -> None:
    for item in small_build(seed):
        assert len({(p.menu, p.system) for p in item.packets}) == 1


@given(seeds)
def test_text_edits_touch_only_the_edited_sentence(seed: int) -> None:
    for item in small_build(seed):
        by_family = {p.family: p for p in item.packets}
        original = _sentences(by_family["original"].user)
        paraphrase = _sentences(by_family["paraphrase"].user)
        assert not set(original) & set(paraphrase), "a paraphrase shares a sentence with its original"
        for family in TWIN_FAMILIES + ("distractor",):
            if family not in by_family:
                continue
            twin = _sentences(by_family[family].user)
            # Same sentences except one edited or one added.
            only_twin = [s for s in twin if s not in original]
            only_orig = [s for s in original if s not in twin]
            assert len(only_twin) == 1 and len(only_orig) <= 1, (family, only_twin, only_orig)
        for packet in item.packets:
            assert 40 <= word_count(packet.user) <= 160, (packet.packet_id, word_count(packet.user))
