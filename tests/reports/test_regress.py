"""regress: two runs item by item, with paired statistics; bad input is one line and exit 2."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from honesty_pressure.core.stats import mcnemar_exact
from honesty_pressure.files.layer import load_layer
from honesty_pressure.files.runfiles import MAX_LINE_BYTES, MAX_SUMMARY_BYTES
from honesty_pressure.reports.regress import compare_runs

# In this process: the same exit status, stdout and stderr; tests/cli runs the program as its own.
from tests.hostile.kit import run_in_process as run
from tests.htmlcheck import parse, problems

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure"
BUILD = json.loads((ROOT / "packets" / "quick" / "build.json").read_text())


def scored_copy(folder: Path, copy: Path) -> None:
    """The files regress reads (summary, records, replies): a cheap copy of a scored folder."""
    copy.mkdir()
    for name in ("summary.json", "records.jsonl", "replies.jsonl"):
        shutil.copyfile(folder / name, copy / name)


def test_regress_pairs_packets_and_forks(runner_runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = runner_runs
    out = tmp_path / "reg"
    result = run("regress", str(a), str(b), "--out", str(out))
    assert result.returncode == 0, result.stderr
    flags, packets = BUILD["counts"]["by_family"]["red_flag"], BUILD["counts"]["packets"]
    # Always A is acceptable on a red flag only where A holds back and that flag's guidance is
    # to stop (RedFlag.stop_ok); every other red flag went from ESCALATE (acceptable) to worse.
    keys = load_layer(ROOT / "packets", "quick").key
    stop = sum(1 for k in keys.values() if k["family"] == "red_flag" and "A" in k["acceptable"])  # type: ignore[operator]
    assert sum(1 for k in keys.values() if k["family"] == "red_flag") == flags and stop < flags
    assert (
        f"| red_flag | {flags} | 100.0% | {100 * stop / flags:.1f}% | {flags - stop} | 0 | <0.0001 "
        "| <0.0001 |" in result.stdout
    )
    assert f"| pressure | {packets} | " in result.stdout, "one pressure fork per round-1 packet"
    data = json.loads((out / "regress.json").read_text())
    assert data["worse_total"] == sum(g["worse"] for g in data["groups"].values())
    assert len(data["worse_items"]) == 20
    # Per axis, the exact McNemar p of its discordant items; Holm over the axes never lowers one.
    for axis in data["axes"].values():
        assert axis["p"] == pytest.approx(mcnemar_exact(axis["worse"], axis["better"]), rel=1e-5)
        assert axis["p_holm"] >= axis["p"]
    # The index each run's records give is the index its summary reports.
    for side, folder in (("a", a), ("b", b)):
        assert data["index"][side] == pytest.approx(
            json.loads((folder / "summary.json").read_text())["honesty_index"], abs=1e-6
        )
    change = data["index"]["change"]
    assert change["low"] <= change["value"] <= change["high"]
    # Every number on the page is regress.json's; each listed item shows both runs' replies.
    page = parse((out / "regress.html").read_text())
    assert problems(page, data) == []
    first = data["worse_items"][0]["item"]
    assert "i-" + first.replace("#", "-s") in page.ids
    html = (out / "regress.html").read_text()
    assert html.count("DECISION: ESCALATE") >= 20 and html.count("DECISION: A") >= 20


def test_fail_on_worse_fires_only_on_significant_worsening(runner_runs: tuple[Path, Path]) -> None:
    a, b = runner_runs
    # ESCALATE -> A: red flags get worse (40 items) but every axis gets better or stays: no
    # significant worsening.
    better = run("regress", str(a), str(b), "--fail-on-worse")
    assert better.returncode == 0, better.stdout
    assert "Significant worsening: no" in better.stdout
    worse = run("regress", str(b), str(a), "--fail-on-worse")
    assert worse.returncode == 1
    assert "Significant worsening: yes" in worse.stdout
    same = run("regress", str(a), str(a), "--fail-on-worse")
    assert same.returncode == 0 and "0 went from acceptable to not, 0 the other way" in same.stdout


def test_a_small_worsening_is_not_significant(
    runner_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, _ = runner_runs
    copy = tmp_path / "copy"
    scored_copy(a, copy)
    lines = (copy / "records.jsonl").read_text().splitlines()
    flipped = 0
    for i, line in enumerate(lines):
        record = json.loads(line)
        if record["verdict"] == "acceptable" and record.get("fork") == "pressure" and flipped < 3:
            record["verdict"] = "forbidden"
            lines[i] = json.dumps(record)
            flipped += 1
    (copy / "records.jsonl").write_text("\n".join(lines) + "\n")
    result = run("regress", str(a), str(copy), "--fail-on-worse")
    assert flipped == 3 and "3 went from acceptable to not" in result.stdout
    assert result.returncode == 0, "three items worse is noise, not a significant worsening"
    data = compare_runs(a, copy, seed=1)
    assert data["axes"]["pressure_resistance"]["worse"] == 3  # type: ignore[index]


Edit = Callable[[Path], object]


def _records(edit: Callable[[list[str]], list[str]]) -> Edit:
    def apply(folder: Path) -> None:
        path = folder / "records.jsonl"
        path.write_text("\n".join(edit(path.read_text().splitlines())) + "\n")

    return apply


def _first(change: Callable[[dict[str, object]], object]) -> Edit:
    def edit(lines: list[str]) -> list[str]:
        record = json.loads(lines[0])
        change(record)
        return [json.dumps(record), *lines[1:]]

    return _records(edit)


def _summary_folder(folder: Path) -> None:
    (folder / "summary.json").unlink()
    (folder / "summary.json").mkdir()


def _write(name: str, text: str) -> Edit:
    return lambda folder: (folder / name).write_text(text)


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        (
            _first(lambda r: r.pop("verdict")),
            "records.jsonl:1",
            "'verdict' must be one of acceptable, forbidden, other, refused, unscorable",
        ),
        (
            _first(lambda r: r.pop("packet_id")),
            "records.jsonl:1",
            "missing string field 'packet_id'",
        ),
        (
            _first(lambda r: r.update(sample="x")),
            "records.jsonl:1",
            "'sample' must be a whole number, got \"x\"",
        ),
        (
            _first(lambda r: r.update(sample=True)),
            "records.jsonl:1",
            "'sample' must be a whole number, got true",
        ),
        (_summary_folder, "summary.json", "is a folder, not a file"),
        (
            _write("summary.json", "[" * 100_000 + "]" * 100_000),
            "summary.json",
            "JSON nested too deeply",
        ),
        (
            _write("summary.json", '{"a": ' + "9" * 5000 + "}"),
            "summary.json",
            "an integer of 5000 digits (at most 4300)",
        ),  # the strict reader every file goes through
        (
            _write("summary.json", '{"a": "' + "x" * (MAX_SUMMARY_BYTES + 1) + '"}'),
            "summary.json",
            "larger than 16 MiB: not a summary the kit wrote",
        ),
        (
            _records(
                lambda lines: [
                    '{"packet_id": "x", "sample": 0, "verdict": "acceptable", "pad": "'
                    + "x" * MAX_LINE_BYTES
                    + '"}',
                    *lines,
                ]
            ),
            "records.jsonl:1",
            "line longer than 1024 KiB",
        ),
        (
            _records(lambda lines: ["[" * 100_000 + "]" * 100_000, *lines]),
            "records.jsonl:1",
            "JSON nested too deeply",
        ),
        (
            _records(lambda lines: ["not json", *lines]),
            "records.jsonl:1",
            "not valid JSON (Expecting value)",
        ),
        (lambda folder: (folder / "records.jsonl").unlink(), "records.jsonl", "file not found"),
    ],
)
def test_bad_input_is_one_line_naming_the_file(
    runner_runs: tuple[Path, Path], tmp_path: Path, edit: Edit, where: str, message: str
) -> None:
    a, _ = runner_runs
    copy = tmp_path / "copy"
    scored_copy(a, copy)
    edit(copy)
    result = run("regress", str(a), str(copy))
    assert result.returncode == 2, result.stdout[-500:] + result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{PROG} regress: {copy / where}: "), result.stderr
    assert message in result.stderr


def test_a_conflicting_duplicate_slot_names_both_lines(
    runner_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, _ = runner_runs
    copy = tmp_path / "copy"
    scored_copy(a, copy)
    lines = (copy / "records.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["verdict"] = "other" if record["verdict"] != "other" else "forbidden"
    (copy / "records.jsonl").write_text("\n".join([*lines, json.dumps(record)]) + "\n")
    result = run("regress", str(a), str(copy))
    assert result.returncode == 2
    assert result.stderr == (
        f"{PROG} regress: {copy / 'records.jsonl'}:{len(lines) + 1}: a different record for "
        f"{record['packet_id']} sample 0 is already on line 1\n"
    )
    # an identical duplicate (the same line twice) is harmless
    (copy / "records.jsonl").write_text("\n".join([*lines, lines[0]]) + "\n")
    assert run("regress", str(a), str(copy)).returncode == 0


def test_runs_of_different_packet_sets_or_items_are_refused(
    runner_runs: tuple[Path, Path], round1_scored: Path, tmp_path: Path
) -> None:
    a, _ = runner_runs
    copy = tmp_path / "copy"
    scored_copy(a, copy)
    summary = json.loads((copy / "summary.json").read_text())
    summary["provenance"]["packet_set"] = "000000000000"
    (copy / "summary.json").write_text(json.dumps(summary))
    result = run("regress", str(a), str(copy))
    assert result.returncode == 2
    assert result.stderr == (
        f"{PROG} regress: {copy / 'summary.json'}: the runs score different packet sets "
        f"({BUILD['packet_set']} quick in {a}, 000000000000 quick here)\n"
    )
    mixed = run("regress", str(a), str(round1_scored))
    assert mixed.returncode == 2 and "the runs hold different items" in mixed.stderr


def test_runs_with_different_samples_are_paired_on_the_items_both_hold(
    quick_demo: Path, round1_scored: Path, tmp_path: Path
) -> None:
    """Issue 41: regress of a 1-sample and a 3-sample run refused them as holding "different
    items". The demo's round-1 replies, given twice more as samples 1 and 2 (every third sample
    answering A instead), score as a 3-sample set; regress pairs it with the 1-sample score on
    sample 0, the items both hold, and says what it left out."""
    lines = (quick_demo / "round1.replies.jsonl").read_text().splitlines()
    more = []
    for k in (1, 2):
        for line in lines:
            reply = json.loads(line)
            reply["custom_id"] += f"_s{k}"
            if k == 2:
                reply["response"]["body"]["choices"][0]["message"]["content"] = "DECISION: A"
            more.append(json.dumps(reply))
    replies = tmp_path / "three.jsonl"
    replies.write_text("\n".join([*lines, *more]) + "\n")
    three = tmp_path / "three"
    scored = run("score", "--layer", "quick", "--replies", str(replies), "--out", str(three))
    assert scored.returncode == 0, scored.stderr
    out = tmp_path / "reg"
    result = run("regress", str(round1_scored), str(three), "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "regress.json").read_text())
    packets = BUILD["counts"]["packets"]
    assert data["shared"] == {
        "samples_a": 1,
        "samples_b": 3,
        "items": packets,
        "by_round": {"round1": packets},
        "left_out_a": 0,
        "left_out_b": 2 * packets,
    }
    # sample 0 is the same replies in both: nothing changed on the shared items
    assert (data["items"], data["worse_total"], data["better_total"]) == (packets, 0, 0)
    assert (
        f"A has 1 sample(s) per packet and B 3: compared on the {packets} items both runs hold "
        f"(round 1: {packets}); left out: 0 of A's items and {2 * packets:,} of B's (the other "
        "samples, and the forks dealt another pressure type for another number of samples). "
        "Every number below is over the shared items only." in result.stdout
    )
    assert problems(parse((out / "regress.html").read_text()), data) == []
    from tests.jsonschema_subset import Validator

    assert Validator(ROOT / "docs" / "schema").check(data, "regress.schema.json") == []
    # the other way round: the same items
    back = compare_runs(three, round1_scored, seed=1)["shared"]
    assert isinstance(back, dict)
    assert (back["samples_a"], back["samples_b"], back["left_out_a"]) == (3, 1, 2 * packets)
    # equal samples but other items is still refused, and runs with nothing in common say why
    copy = tmp_path / "copy"
    scored_copy(three, copy)
    records = [json.loads(line) for line in (copy / "records.jsonl").read_text().splitlines()]
    for record in records:
        record["packet_id"] = "x" + record["packet_id"]
    (copy / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    apart = run("regress", str(round1_scored), str(copy))
    assert (apart.returncode, apart.stderr) == (
        2,
        f"{PROG} regress: {copy / 'records.jsonl'}: the runs hold different items ({packets} "
        f"only in {round1_scored}, {3 * packets} only here); 1 and 3 samples per packet, and no "
        "item in common\n",
    )


def test_regress_charts_each_axis_change_with_its_interval_and_names_runs_as_compare_does(
    runner_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = runner_runs
    out = tmp_path / "reg"
    result = run("regress", str(a), str(b), "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "regress.json").read_text())
    board = json.loads(
        (
            run("compare", str(a), str(b), "--out", str(tmp_path / "board")),
            (tmp_path / "board" / "compare.json").read_text(),
        )[1]
    )
    assert {data["a"]["label"], data["b"]["label"]} == {r["label"] for r in board["runs"]}
    sa, sb = (json.loads((f / "summary.json").read_text()) for f in (a, b))
    for name, table in data["axes"].items():
        change = table[
            "change"
        ]  # of the axis as the summary defines it (the mean of its groups' rates)
        assert change["value"] == pytest.approx(
            sb["axes"][name]["value"] - sa["axes"][name]["value"], abs=2e-6
        ), name
        assert change["low"] <= change["value"] <= change["high"], name
    text = (out / "regress.html").read_text()
    assert (
        "Change B − A per axis, with paired interval" in text
        and text.count('<figure class="fig">') == 1
    )
    assert problems(parse(text), data) == []
