"""Hypothesis fuzzers, one per reader: whatever bytes arrive, the reader either reads them or
raises the kit's InputError (one line naming the file); never another exception. At the command
line the same promise is exit 2, one stderr line, nothing written."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from honesty_pressure.checks.verify import build_params, expected_problems
from honesty_pressure.core.construct import FORMATS
from honesty_pressure.core.errors import InputError, KitError
from honesty_pressure.files.manifest import parse as parse_manifest
from honesty_pressure.files.store import json_object, jsonl_bytes, loads
from honesty_pressure.rounds.runcheck import check_run, frozen_records
from honesty_pressure.runners.envelopes import read_envelopes, read_envelopes_bytes

from .kit import cli, make_run, small_packets, snapshot

SETTINGS = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None
)

KEYS = [
    "packet_id",
    "request_sha256",
    "reply",
    "model",
    "sample",
    "custom_id",
    "response",
    "status_code",
    "body",
    "choices",
    "message",
    "content",
    "refusal",
    "error",
    "result",
    "type",
    "text",
    "messages",
    "role",
    "id",
    "samples",
    "eval",
    "epoch",
    "input",
    "output",
    "completion",
    "attachments",
    "round",
    "layer",
    "frozen_sha256",
    "protocol",
    "seed",
    "sources_per_domain",
    "packet_set",
    "layers",
]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=6)
    ),
    max_leaves=25,
)


def _text(value: object) -> str:
    return json.dumps(value, allow_nan=True)


def _only_input_errors(call: object) -> None:
    try:
        call()  # type: ignore[operator]
    except InputError as exc:
        assert "\n" not in exc.one_line()


noise = st.binary(max_size=300) | st.lists(json_values, max_size=5).map(
    lambda vs: "\n".join(_text(v) for v in vs).encode("utf-8")
)
mutated = st.tuples(noise, st.integers(min_value=0, max_value=300), st.binary(max_size=8)).map(
    lambda t: t[0][: t[1]] + t[2] + t[0][t[1] :]
)


@SETTINGS
@given(data=st.one_of(noise, mutated))
def test_the_json_layer_reads_or_names_the_line(data: bytes) -> None:
    _only_input_errors(lambda: list(jsonl_bytes(data, "f.jsonl")))
    _only_input_errors(lambda: json_object(data, "f.json"))
    _only_input_errors(lambda: loads(data.decode("utf-8", "surrogateescape"), file="f"))


@SETTINGS
@given(data=st.one_of(noise, mutated), fmt=st.sampled_from([None, *FORMATS]))
def test_every_reply_reader_reads_or_names_the_line(data: bytes, fmt: str | None) -> None:
    _only_input_errors(lambda: read_envelopes_bytes(data, "replies.jsonl", fmt))  # type: ignore[arg-type]


@SETTINGS
@given(
    members=st.dictionaries(
        st.sampled_from(
            [
                "header.json",
                "samples/a_epoch_1.json",
                "samples/b_epoch_2.json",
                "_journal/start.json",
            ]
        ),
        st.one_of(noise, json_values.map(lambda v: _text(v).encode())),
        max_size=3,
    )
)
def test_the_eval_reader_reads_or_names_the_entry(
    members: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    path = tmp_path_factory.mktemp("eval") / "log.eval"
    path.write_bytes(buffer.getvalue())
    _only_input_errors(lambda: read_envelopes(path))


@SETTINGS
@given(
    data=st.one_of(
        noise,
        mutated,
        st.lists(json_values, max_size=4).map(
            lambda vs: "".join(_text(v) + "\n" for v in vs).encode()
        ),
    )
)
def test_the_frozen_reader_reads_or_names_the_line(data: bytes) -> None:
    _only_input_errors(lambda: frozen_records(data, "frozen.jsonl"))


@SETTINGS
@given(
    text=st.text(max_size=300)
    | st.lists(
        st.tuples(st.text("0123456789abcdef", min_size=60, max_size=66), st.text(max_size=20)),
        max_size=4,
    ).map(lambda rows: "".join(f"{h}  {p}\n" for h, p in rows))
)
def test_the_manifest_parser_reads_or_names_the_line(text: str) -> None:
    _only_input_errors(lambda: parse_manifest(text, "MANIFEST.sha256"))


@SETTINGS
@given(build=json_values, expected=json_values)
def test_verify_reads_build_and_expected_or_names_them(
    build: object, expected: object, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("root")
    (root / "packets" / "quick").mkdir(parents=True)
    (root / "controls").mkdir()
    (root / "packets" / "quick" / "build.json").write_text(_text(build), encoding="utf-8")
    (root / "controls" / "EXPECTED.json").write_text(_text(expected), encoding="utf-8")
    _only_input_errors(lambda: build_params(root / "packets", "quick"))
    assert all("\n" not in line for line in expected_problems(root, "abc"))


# ---- a run folder with one file damaged at random: check_run refuses it, or it was a no-op -----


@pytest.fixture(scope="module")
def made_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    base = tmp_path_factory.mktemp("fuzz-run")
    packets = small_packets(base)
    run, replies2 = make_run(base, packets)
    return packets, run, replies2


@settings(
    max_examples=15,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(
    name=st.sampled_from(["frozen.jsonl", "run.json", "round2.jsonl", "round2.key.jsonl"]),
    at=st.floats(min_value=0, max_value=1),
    cut=st.integers(min_value=0, max_value=3),
    insert=st.binary(max_size=6),
)
def test_a_damaged_run_is_refused_with_one_line(
    made_run: tuple[Path, Path, Path],
    name: str,
    at: float,
    cut: int,
    insert: bytes,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    packets, pristine, replies2 = made_run
    run = tmp_path_factory.mktemp("damaged") / "run"
    shutil.copytree(pristine, run)
    data = (run / name).read_bytes()
    where = int(at * len(data))
    damaged = data[:where] + insert + data[where + cut :]
    (run / name).write_bytes(damaged)
    try:
        check_run(run, packets)
    except KitError as exc:
        assert "\n" not in exc.one_line()
    else:
        assert damaged == data, f"a damaged {name} passed the check"
    before = snapshot(run)
    result = cli("score", "--run", run, "--packets", packets, "--replies", replies2)
    assert result.code in (0, 2) and result.err.count("\n") == (result.code == 2), result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    if result.code == 2:
        assert snapshot(run) == before


@settings(
    max_examples=15,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(data=st.one_of(noise, mutated))
def test_score_on_any_reply_file_is_exit_0_or_one_line_and_nothing_written(
    made_run: tuple[Path, Path, Path], data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    packets, _, _ = made_run
    folder = tmp_path_factory.mktemp("fuzz-score")
    replies = folder / "replies.jsonl"
    replies.write_bytes(data)
    result = cli(
        "score",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        replies,
        "--out",
        folder / "out",
    )
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    assert result.code in (0, 2)
    if result.code == 2:
        assert result.err.count("\n") == 1 and not (folder / "out").exists()


# ---- the public API refuses what the command line refuses (issue 41) ----------------------------


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """The small quick layer (packets folder, loaded layer)."""
    from honesty_pressure.files.layer import load_checked_layer

    packets = small_packets(tmp_path_factory.mktemp("api-packets"))
    return packets, load_checked_layer(packets, "quick")


def _never_asked(messages: list[dict[str, str]]) -> str:
    raise AssertionError("the assistant was asked before the arguments were checked")


def test_every_api_entry_names_the_argument_it_refuses(
    small: tuple[Path, object], tmp_path: Path
) -> None:
    """Each call the issue found accepted (or failing later, raw): an InputError naming the
    argument, in the words the CLI uses for the same value, before any work."""
    import honesty_pressure as hp

    packets, layer = small
    records = list(layer.round1.values())  # type: ignore[attr-defined]
    out = tmp_path / "r.jsonl"
    surrogate = "m\ud800"
    unnamable, no_name = (
        str(tmp_path / "r\ud800.jsonl"),
        "not a name a file can have (a lone surrogate)",
    )
    at_most = "at most 1000 samples per packet, got"
    calls: list[tuple[object, str]] = [
        (
            lambda: hp.advance(hp.from_layer(layer), [], protocol="bogus"),
            "protocol: expected one of default, full, sustained, got 'bogus'",
        ),
        (
            lambda: hp.answer(layer, _never_asked, out, samples=1001),
            f"samples: {at_most} 1001",
        ),
        (
            lambda: hp.export_lines(records, "chat-jsonl", "m", samples=10**6),
            f"samples: {at_most} 1000000",
        ),
        (
            lambda: hp.score_run(tmp_path / "no-run", [], packets, split="bogus"),
            "split: expected one of dev, test, got 'bogus'",
        ),
        (
            lambda: hp.default_policies(tmp_path / "no-root"),
            f"{tmp_path / 'no-root' / 'controls' / 'policies'}: holds no policy files (*.json): "
            "is the root a kit checkout?",
        ),
        (
            lambda: hp.RequestOptions(body={"custom_id": "x"}),
            "body: --body may not set custom_id: the kit names every request",
        ),
        (
            lambda: hp.answer(layer, _never_asked, out, model=surrogate),
            "model: not valid UTF-8 text",
        ),
        (lambda: hp.export_lines(records, "chat-jsonl", surrogate), "model: not valid UTF-8 text"),
        (
            lambda: hp.advance_into(hp.from_layer(layer), [], tmp_path / "run", command=surrogate),
            "command: not valid UTF-8 text",
        ),
        (lambda: hp.ScoreOptions(command=surrogate), "command: not valid UTF-8 text"),
        (
            lambda: hp.ScoreOptions(max_unscorable=5),
            "max_unscorable: expected a share from 0 to 1, got 5",
        ),
        (
            lambda: hp.read_envelopes(out, "csv"),  # type: ignore[arg-type]
            "fmt: expected one of native, openai-batch, anthropic-batch, inspect, chat-jsonl, "
            "got 'csv'",
        ),
        (lambda: hp.verify_tree(tmp_path, jobs=0), "jobs: expected a positive whole number, got 0"),
        (
            lambda: hp.simulated_assistant(layer, hp.DEMO_TRAITS, -1),
            "seed: expected a whole number, got -1",
        ),
        # A name no file can have (a lone surrogate that is no undecodable byte), wherever a path
        # goes in; a single path where a list of reply files goes.
        (lambda: hp.answer(layer, _never_asked, unnamable), f"out: {no_name}"),
        (lambda: hp.read_envelopes(unnamable), f"path: {no_name}"),
        (lambda: hp.score_round(layer, [unnamable]), f"replies: {no_name}"),
        (lambda: hp.advance(hp.from_layer(layer), [unnamable]), f"replies: {no_name}"),
        (lambda: hp.advance_into(hp.from_layer(layer), [], unnamable), f"run: {no_name}"),
        (lambda: hp.load_checked_layer(unnamable, "quick"), f"packets: {no_name}"),  # type: ignore[arg-type]
        (lambda: hp.from_run(unnamable, packets), f"run: {no_name}"),  # type: ignore[arg-type]
        (lambda: hp.score_run(unnamable, [], packets), f"run: {no_name}"),
        (lambda: hp.default_policies(unnamable), f"root: {no_name}"),  # type: ignore[arg-type]
        (
            lambda: hp.score_round(layer, str(out)),  # type: ignore[arg-type]
            "replies: expected a list of paths, got one path",
        ),
        (
            lambda: hp.export_lines(
                [{**records[0], "messages": [{"role": "user", "content": "hi \udcff"}]}],
                "chat-jsonl",
                "m",
            ),
            f"records: request {records[0]['packet_id']} message 0 is not valid UTF-8 text",
        ),
    ]
    for call, message in calls:
        with pytest.raises(InputError) as caught:
            call()  # type: ignore[operator]
        assert caught.value.one_line() == message
    assert list(tmp_path.iterdir()) == []  # nothing written, no folder made


def test_a_reply_with_a_lone_surrogate_is_an_input_error_naming_the_assistant(
    small: tuple[Path, object], tmp_path: Path
) -> None:
    import honesty_pressure as hp

    _, layer = small
    out = tmp_path / "r.jsonl"
    with pytest.raises(InputError) as caught:
        hp.answer(layer, lambda messages: "DECISION: A \udfff", out)
    line = caught.value.one_line()
    assert line.startswith(f"{out}: assistant: answered request ") and line.endswith(
        " with text that is not valid UTF-8 (a lone surrogate, which no file can hold); nothing "
        "was written"
    )
    assert not out.exists()


@SETTINGS
@given(value=st.integers(min_value=-(10**6), max_value=10**7) | st.sampled_from([0, 1, 1000, 1001]))
def test_the_api_and_the_cli_refuse_the_same_sample_counts(value: int) -> None:
    """`export --samples N` and `export_lines(samples=N)` accept exactly the same N, and both
    answers are in the same words (core/arguments.py holds them once)."""
    import argparse

    from honesty_pressure.cli.common import samples as samples_option
    from honesty_pressure.runners.export import export_lines

    record = {
        "packet_id": "p",
        "packet_set": "s" * 12,
        "request_sha256": "0" * 64,
        "messages": [{"role": "user", "content": "hi"}],
    }
    try:
        samples_option(str(value))
        cli_problem = None
    except argparse.ArgumentTypeError as exc:
        cli_problem = str(exc)
    try:
        export_lines([record], "chat-jsonl", "m", samples=value)  # at most 1000 lines: cheap
        api_problem = None
    except InputError as exc:
        api_problem = exc.problem
    # The same verdict; the same words, but for the CLI quoting the text it was given.
    assert api_problem == (cli_problem and cli_problem.replace(repr(str(value)), str(value)))


@SETTINGS
@given(
    body=st.dictionaries(
        st.sampled_from(["top_p", "seed", "custom_id", "id", "temperature", "x"]),
        json_values,
        max_size=4,
    )
)
def test_the_api_and_the_cli_refuse_the_same_bodies(body: dict[str, object]) -> None:
    """`--body TEXT` and `RequestOptions(body=...)` accept the same objects, in the same words."""
    import argparse

    from honesty_pressure.cli.common import body as body_option
    from honesty_pressure.runners.export import RequestOptions

    try:
        text = json.dumps(body, allow_nan=False)
    except ValueError:
        text = None  # NaN: no JSON text; the API refuses the value itself
    try:
        if text is None:
            raise argparse.ArgumentTypeError("--body must be JSON")
        body_option(text)
        cli_problem = None
    except argparse.ArgumentTypeError as exc:
        cli_problem = str(exc)
    try:
        RequestOptions(body=body)
        api_problem = None
    except InputError as exc:
        api_problem = exc.problem
    assert (cli_problem is None) == (api_problem is None), (cli_problem, api_problem)
    if text is not None and cli_problem is not None:
        assert api_problem == cli_problem
