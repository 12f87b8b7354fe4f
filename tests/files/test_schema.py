"""docs/schema/: every file format the kit writes has a JSON Schema, and real outputs validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from honesty_pressure.reports.compare import compare
from honesty_pressure.reports.regress import regress
from tests.hostile.kit import run_in_process
from tests.jsonschema_subset import Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schema"
V = Validator(SCHEMAS)


def lines(path: Path) -> list[object]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def assert_valid(values: list[object], schema: str, where: Path) -> None:
    assert values, f"{where}: nothing to validate"
    for number, value in enumerate(values, start=1):
        errors = V.check(value, schema)
        assert errors == [], f"{where}:{number}: {errors[:3]}"


def test_every_schema_uses_only_the_supported_subset() -> None:
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert len(names) >= 20
    for name in names:
        schema = V.schema(name)
        assert schema.get("$id") == name and "title" in schema, name
        V.check({}, name)  # raises on a keyword outside the subset


@pytest.mark.parametrize(
    ("schema", "value", "problem"),
    [
        ({"type": "integer"}, True, "expected integer"),
        ({"type": "number"}, "1", "expected number"),
        ({"enum": ["a"]}, "b", "is not one of"),
        ({"const": 1}, 2, "is not 1"),
        ({"type": "string", "pattern": "^x"}, "y", "does not match"),
        ({"type": "string", "minLength": 2}, "y", "shorter than 2"),
        ({"minimum": 0}, -1, "< 0"),
        ({"maximum": 1}, 2, "> 1"),
        ({"type": "array", "minItems": 1}, [], "fewer than 1"),
        ({"type": "array", "maxItems": 1}, [1, 2], "more than 1"),
        ({"type": "array", "items": {"type": "string"}}, [1], "/0: expected string"),
        ({"type": "object", "required": ["a"]}, {}, "missing 'a'"),
        (
            {"type": "object", "properties": {}, "additionalProperties": False},
            {"a": 1},
            "unexpected property 'a'",
        ),
        (
            {"type": "object", "additionalProperties": {"type": "string"}},
            {"a": 1},
            "/a: expected string",
        ),
        (
            {
                "type": "object",
                "patternProperties": {"^[0-9]+$": {"type": "string"}},
                "additionalProperties": False,
            },
            {"1": 1, "x": "y"},
            "/1: expected string",
        ),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, 1, "matches 0 of the anyOf options"),
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, "matches 2 of the oneOf options"),
        ({"allOf": [{"type": "integer"}, {"minimum": 3}]}, 2, "< 3"),
        ({"$ref": "common.schema.json#/$defs/sha256"}, "abc", "does not match"),
    ],
)
def test_the_validator_rejects(schema: dict[str, object], value: object, problem: str) -> None:
    errors = V.errors(value, schema, "common.schema.json")
    assert any(problem in e for e in errors), errors


def test_the_validator_refuses_an_unknown_keyword() -> None:
    with pytest.raises(ValueError, match="outside the supported subset"):
        V.errors(1, {"multipleOf": 2}, "x")


@pytest.mark.parametrize("layer", ["quick", "full"])
def test_committed_packets_and_controls(layer: str) -> None:
    folder = ROOT / "packets" / layer
    assert_valid(
        [json.loads((folder / "build.json").read_text())],
        "build.schema.json",
        folder / "build.json",
    )
    if layer == "quick":
        assert_valid(lines(folder / "round1.jsonl"), "round1.schema.json", folder / "round1.jsonl")
        assert_valid(lines(folder / "key.jsonl"), "key.schema.json", folder / "key.jsonl")
        assert_valid(
            lines(folder / "ledgers.jsonl"), "ledgers.schema.json", folder / "ledgers.jsonl"
        )
    expected = ROOT / "controls" / "EXPECTED.json"
    assert_valid([json.loads(expected.read_text())], "expected.schema.json", expected)


RUN_FILES = {
    "frozen.jsonl": "frozen.schema.json",
    "round2.jsonl": "round-requests.schema.json",
    "round2.key.jsonl": "round-key.schema.json",
    "records.jsonl": "records.schema.json",
    "replies.jsonl": "replies.schema.json",
    "commands.jsonl": "commands.schema.json",
    ".honesty_pressure": "marker.schema.json",
    "round1.requests.jsonl": "export-openai-batch.schema.json",
    "round2.requests.jsonl": "export-anthropic-batch.schema.json",
    "round1.replies.jsonl": "demo-openai-batch-output.schema.json",
    "round2.replies.jsonl": "demo-anthropic-results.schema.json",
}


def test_a_demo_run_folder(quick_demo: Path) -> None:
    assert_valid(
        [json.loads((quick_demo / "run.json").read_text())],
        "run.schema.json",
        quick_demo / "run.json",
    )
    assert_valid(
        [json.loads((quick_demo / "summary.json").read_text())],
        "summary.schema.json",
        quick_demo / "summary.json",
    )
    assert_valid(
        [json.loads((quick_demo / "result.json").read_text())],
        "result.schema.json",
        quick_demo / "result.json",
    )
    for name, schema in RUN_FILES.items():
        assert_valid(lines(quick_demo / name), schema, quick_demo / name)
    written = {p.name for p in quick_demo.iterdir()} - {
        "REPORT.md",
        "report.html",
        "run.json",
        "summary.json",
        "result.json",
    }
    assert written == set(RUN_FILES), "every file the run folder holds has a schema"


def test_summaries_of_round1_the_full_layer_and_a_runner_run(
    round1_scored: Path, full_demo: Path, runner_runs: tuple[Path, Path]
) -> None:
    for folder in (round1_scored, full_demo, *runner_runs):
        assert_valid(
            [json.loads((folder / "summary.json").read_text())],
            "summary.schema.json",
            folder / "summary.json",
        )
        assert_valid(
            [json.loads((folder / "result.json").read_text())],
            "result.schema.json",
            folder / "result.json",
        )
    assert_valid(
        lines(round1_scored / "records.jsonl"),
        "records.schema.json",
        round1_scored / "records.jsonl",
    )
    assert_valid(
        lines(round1_scored / "replies.jsonl"),
        "replies.schema.json",
        round1_scored / "replies.jsonl",
    )


def test_a_broken_summary_fails(quick_demo: Path) -> None:
    summary = json.loads((quick_demo / "summary.json").read_text())
    assert V.check(summary, "summary.schema.json") == []
    del summary["axes"]["evidence_tracking"]["forbidden"]
    summary["forks"]["pressure_directions"]["toward_risk"]["n"] = -1
    errors = V.check(summary, "summary.schema.json")
    assert any("missing 'forbidden'" in e for e in errors) and any("-1 < 0" in e for e in errors), (
        errors
    )


@pytest.mark.parametrize("fmt", ["inspect", "chat-jsonl", "openai-batch", "anthropic-batch"])
def test_every_export_format(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / "requests.jsonl"
    done = run_in_process(
        "export",
        "--layer",
        "quick",
        "--format",
        fmt,
        "--model",
        "m",
        "--samples",
        "2",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert_valid(lines(out), f"export-{fmt}.schema.json", out)


def test_regress_and_compare_outputs(
    runner_runs: tuple[Path, Path], quick_demo: Path, tmp_path: Path
) -> None:
    a, b = runner_runs
    data, files = regress(a, b, seed=1, out=tmp_path)
    assert_valid(
        [json.loads(files["regress.json"])], "regress.schema.json", tmp_path / "regress.json"
    )
    board = compare([a, b, quick_demo])
    assert_valid(
        [json.loads(board["compare.json"])], "compare.schema.json", tmp_path / "compare.json"
    )
