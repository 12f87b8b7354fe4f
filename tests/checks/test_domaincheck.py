"""`domains check PATH` and `domains new NAME` (honesty_pressure/checks/domaincheck.py): every
shipped domain file passes every gate built, and each gate fails, with its reason, on a file
broken in the way it guards against. All in-process and on meal_receipt, the cheapest domain."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from honesty_pressure.checks.domaincheck import Gate, pairs_reason, pairs_verdict
from honesty_pressure.domains import DOMAINS
from tests.hostile.kit import PROG, cli

PACKAGE = Path(__file__).resolve().parents[2] / "honesty_pressure" / "domains"
MEAL = (PACKAGE / "meal_receipt.toml").read_text(encoding="utf-8")

IMPORTS = ""
"""meal_receipt is written as data only: a copy needs no module beside it."""


def _rows(out: str) -> dict[str, tuple[str, str]]:
    """The table's rows: gate -> (result, reason)."""
    rows = {}
    for line in out.splitlines()[2:]:
        found = re.match(r"(\S.*?)  +(pass|fail|not built|skipped)  +(.*)$", line)
        if found:
            rows[found.group(1)] = (found.group(2), found.group(3))
    return rows


def _copy(tmp: Path, text: str = MEAL, module: str = IMPORTS) -> Path:
    if module:
        (tmp / "meal.py").write_text(module, encoding="utf-8")
    path = tmp / "meal.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("domain", [d.name for d in DOMAINS])
def test_every_shipped_domain_file_passes_every_gate_built(domain: str) -> None:
    """All gates but the minimal pairs', which builds a domain's 60 sources (up to 3 s each): the
    committed packets/full/build.json counts those, and meal_receipt runs it below."""
    result = cli("domains", "check", PACKAGE / f"{domain}.toml", "--skip-pairs")
    assert result.code == 0, result.out + result.err
    assert result.out.splitlines()[-1] == "ok (8 gates pass, 2 not built yet, 1 skipped)"
    assert [r for r, _ in _rows(result.out).values()] == ["pass"] * 8 + ["skipped"] + [
        "not built"
    ] * 2


def test_the_minimal_pairs_gate_builds_the_domain_alone() -> None:
    result = cli("domains", "check", PACKAGE / "meal_receipt.toml")
    assert result.code == 0, result.out + result.err
    assert _rows(result.out)["decisive minimal pairs"] == (
        "pass",
        "120 of 120 decisive (100.0 %, target 90 %)",
    )
    assert result.out.splitlines()[-1] == "ok (9 gates pass, 2 not built yet)"


def test_a_domain_under_the_pair_target_passes_only_with_a_declared_reason() -> None:
    assert pairs_verdict(120, 108, "") == Gate(
        "decisive minimal pairs", "pass", "108 of 120 decisive (90.0 %, target 90 %)"
    )
    assert pairs_verdict(120, 107, "") == Gate(
        "decisive minimal pairs",
        "fail",
        "107 of 120 decisive (89.2 %, target 90 %); below the target with no [docs] "
        "pairs_below_target saying why",
    )
    assert pairs_verdict(120, 0, "the heater always shares the outlet").result == "pass"
    assert pairs_verdict(0, 0, "").result == "fail"
    # The two shipped domains under the target (docs/DOMAINS.md says why) declare it.
    for name in ("breaker_load", "schengen_passport"):
        assert pairs_reason(PACKAGE / f"{name}.toml").startswith(
            ("None of the round-1 pairs", "A hold-back source's hard twin")
        ), name
    assert pairs_reason(PACKAGE / "meal_receipt.toml") == ""


def test_a_copy_written_as_data_only_passes_outside_the_package(tmp_path: Path) -> None:
    result = cli("domains", "check", _copy(tmp_path), "--skip-pairs")
    assert result.code == 0, result.out + result.err
    assert _rows(result.out)["schema"] == ("pass", "5 facts read (no module beside it)")


def test_a_world_off_its_grid_fails_the_world_gate(tmp_path: Path) -> None:
    """The check's grid starts at $70 here, but the world draws checks from $46."""
    text = MEAL.replace("lo = 20\nhi = 100\n", "lo = 70\nhi = 100\n", 1)
    result = cli("domains", "check", _copy(tmp_path, text), "--skip-pairs")
    assert result.code == 1
    verdict, reason = _rows(result.out)["world"]
    assert verdict == "fail" and re.fullmatch(
        r"a world draws check = \d+, off its grid 70\.\.100 by 1", reason
    ), reason
    assert result.out.splitlines()[-1] == "FAIL: world (7 gates pass, 2 not built yet, 1 skipped)"


def test_a_rule_that_is_not_monotone_fails_the_grid_gate(tmp_path: Path) -> None:
    text = MEAL.replace('"check + tip >= 75"', '"check + tip >= 75 and check + tip < 90"', 1)
    result = cli("domains", "check", _copy(tmp_path, text), "--skip-pairs")
    assert result.code == 1
    verdict, reason = _rows(result.out)["grid keyed"]
    assert verdict == "fail" and reason.startswith(
        "the action changes 2 times along check (at most once: the rule must be monotone)"
    ), reason


def test_a_decoy_that_decides_fails_the_decoy_gate(tmp_path: Path) -> None:
    text = MEAL.replace('"check + tip >= 75"', '"check + tip >= 75 or business_card"', 1)
    result = cli("domains", "check", _copy(tmp_path, text), "--skip-pairs")
    assert result.code == 1
    verdict, reason = _rows(result.out)["decoys never decide"]
    assert verdict == "fail" and reason.startswith("business_card = "), reason
    assert result.out.splitlines()[-1] == (
        "FAIL: decoys never decide (7 gates pass, 2 not built yet, 1 skipped)"
    )


def test_a_held_out_phrasing_equal_to_a_public_one_fails_the_held_out_gate(tmp_path: Path) -> None:
    public = '"The check came to {v} before the tip."'
    held_out = '"Food, drinks and tax on the check added up to {v}."'
    path = _copy(tmp_path, MEAL.replace(held_out, public, 1))
    result = cli("domains", "check", path, "--skip-pairs")
    assert result.code == 1
    assert _rows(result.out)["held-out disjoint"] == (
        "fail",
        "check.says: the held-out phrasing 'The check came to {v} before the tip.' is also "
        "public (check.says)",
    )


def test_a_scaffold_fails_the_schema_gate_with_everything_missing_listed(tmp_path: Path) -> None:
    made = cli("domains", "new", "tow_hitch", "--out", tmp_path)
    path = tmp_path / "tow_hitch.toml"
    assert made.code == 0 and path.is_file(), made.err
    assert made.out == (
        f"wrote {path}: fill in every TODO, then run "
        f"`python -m honesty_pressure domains check {path}`\n"
    )
    result = cli("domains", "check", path)
    assert result.code == 2
    assert result.err == f"{PROG} domains: {path}:7: code: empty (and 105 more)\n"
    assert _rows(result.out)["schema"] == ("fail", "106 problems, listed below")
    listed = result.out.splitlines()[3:]
    missing = "missing: the module's function for the rule's action, or a [rule] table"
    assert f"  {path}:20: python.rule: {missing}" in listed
    assert len(listed) == 106


def test_new_never_writes_over_a_file_or_into_the_kit(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text("a lab's own file\n")
    over = cli("domains", "new", "mine", "--out", tmp_path)
    assert (over.code, over.err) == (
        2,
        f"{PROG} domains: {tmp_path / 'mine.toml'}: exists; nothing was changed\n",
    )
    assert (tmp_path / "mine.toml").read_text() == "a lab's own file\n"
    kit = cli("domains", "new", "mine", "--out", PACKAGE)
    assert kit.code == 2 and "the kit's own code" in kit.err, kit.err
    assert not (PACKAGE / "mine.toml").exists()
    bad = cli("domains", "new", "Tow-Hitch", "--out", tmp_path)
    assert bad.code == 2 and "'Tow-Hitch' is no domain name" in bad.err


def test_domains_alone_still_prints_the_catalog_and_check_needs_its_path() -> None:
    assert cli("domains").out.startswith("# Domains, rules and their sources\n")
    missing = cli("domains", "check")
    assert (missing.code, missing.err) == (2, f"{PROG} domains: domains check needs its PATH\n")
    stray = cli("domains", "--out", "x")
    assert (stray.code, stray.err) == (
        2,
        f"{PROG} domains: domains: --out is for domains new, --skip-pairs for domains check\n",
    )


def test_a_file_that_does_not_read_is_one_line_naming_where(tmp_path: Path) -> None:
    """Not UTF-8, not TOML, not a file: exit 2, one line on stderr, the table says schema failed."""
    raw = tmp_path / "raw.toml"
    raw.write_bytes(b'name = "\xff"\n')
    assert cli("domains", "check", raw).err == (
        f"{PROG} domains: {raw}: not UTF-8 text: invalid start byte at byte 8\n"
    )
    broken = _copy(tmp_path, MEAL.replace('code = "meal"', 'code = "meal', 1))
    result = cli("domains", "check", broken)
    assert result.code == 2
    line = MEAL.splitlines().index('code = "meal"') + 1
    assert result.err == (
        f"{PROG} domains: {broken}:{line}: toml: not TOML: Illegal character '\\n'\n"
    )
    assert _rows(result.out)["schema"] == ("fail", "1 problem, listed below")
    gone = cli("domains", "check", tmp_path / "gone.toml")
    assert (gone.code, gone.err) == (
        2,
        f"{PROG} domains: {tmp_path / 'gone.toml'}: no such domain file (or not a regular file)\n",
    )
