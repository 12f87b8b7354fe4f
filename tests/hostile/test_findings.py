"""One regression test for each finding of issue 8 that the corpus, the fault tests and the
protected-paths test do not already pin (each test names its finding)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.binding import ID_RE, bind
from honesty_pressure.core.canonical import jsonl, sha256_hex
from honesty_pressure.core.construct import PRESSURE_TYPES, Envelope
from honesty_pressure.core.errors import InputError
from honesty_pressure.core.limits import MAX_SAMPLES
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.files.manifest import MANIFEST_NAME
from honesty_pressure.files.manifest import build as build_manifest
from honesty_pressure.files.store import keyed
from honesty_pressure.rounds.advance import build, check_id_room, from_layer
from honesty_pressure.rounds.fork import fork_id, fork_origin
from tests.keys import id_parent

from .kit import (
    PROG,
    ROOT,
    Result,
    advance_force,
    cli,
    make_run,
    one_line_naming,
    reply_file,
    small_packets,
    snapshot,
)


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_packets(tmp_path_factory.mktemp("findings-packets"))


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    copy = tmp_path / "checkout"
    copy.mkdir()
    for name in ("packets", "controls"):
        shutil.copytree(ROOT / name, copy / name)
    shutil.copy(ROOT / MANIFEST_NAME, copy / MANIFEST_NAME)
    return copy


# ---- 3: a round-1 score never lands in a run ---------------------------------------------------


def test_a_round1_score_is_refused_in_a_run_folder(packets: Path, tmp_path: Path) -> None:
    run, replies2 = make_run(tmp_path, packets)
    assert cli("score", "--run", run, "--packets", packets, "--replies", replies2).code == 0
    before = snapshot(run)
    layer = load_checked_layer(packets, "quick")
    replies1 = reply_file(tmp_path / "r1b.jsonl", layer.round1, layer.key)
    result = cli(
        "score", "--layer", "quick", "--packets", packets, "--replies", replies1, "--out", run
    )
    line = one_line_naming(result, "score", str(run))
    assert "holds a run" in line
    assert snapshot(run) == before, "the round-2 summary is still the run's"


def test_a_demo_never_replaces_a_run_with_paid_replies(packets: Path, tmp_path: Path) -> None:
    run, _ = make_run(tmp_path, packets)
    before = snapshot(run)
    result = cli("demo", "--packets", packets, "--out", run)
    assert "holds a run; choose another folder" in one_line_naming(result, "demo", str(run))
    assert snapshot(run) == before


def test_force_never_deletes_a_file_the_kit_did_not_write(packets: Path, tmp_path: Path) -> None:
    run, _ = make_run(tmp_path, packets)
    (run / "notes.txt").write_text("my notes on this model\n")
    before = snapshot(run)
    result = advance_force(run, packets, tmp_path)
    assert "also holds files the kit did not write (notes.txt)" in one_line_naming(
        result, "advance", str(run)
    )
    assert snapshot(run) == before
    # Without --force, a score of the same run keeps the notes where they are.
    replies2 = tmp_path / "r2.jsonl"
    assert cli("score", "--run", run, "--packets", packets, "--replies", replies2).code == 0
    assert (run / "notes.txt").read_text() == "my notes on this model\n"


# ---- 5, 6: every round of a chain is checked, and advance --from-run checks its parent -----------


@pytest.fixture
def chain(packets: Path, tmp_path: Path) -> tuple[Path, Path]:
    run, replies2 = make_run(tmp_path, packets)
    run3 = tmp_path / "run3"
    assert (
        cli(
            "advance", "--from-run", run, "--packets", packets, "--replies", replies2, "--run", run3
        ).code
        == 0
    )
    replies3 = reply_file(
        tmp_path / "r3.jsonl", keyed(run3 / "round3.jsonl"), keyed(run3 / "round3.key.jsonl"), "A"
    )
    return run3, replies3


def test_a_round3_run_scores_and_any_edit_anywhere_in_its_chain_is_refused(
    chain: tuple[Path, Path], packets: Path, tmp_path: Path
) -> None:
    run3, replies3 = chain
    ok = cli(
        "score", "--run", run3, "--packets", packets, "--replies", replies3, "--out", tmp_path / "s"
    )
    assert ok.code == 0, ok.err
    assert json.loads((tmp_path / "s" / "summary.json").read_text())["round"] == 3
    key_edit = ('"acceptable":[', '"acceptable":["DECLINE",')
    # run3 names its parent run (../run) in chain.json: the pair is copied together.
    edits = {
        "run/round2.key.jsonl": key_edit,
        "run/round2.jsonl": ("?", "!"),
        "run/frozen.jsonl": ("DECISION", "Decision"),
        "run/run.json": ('"protocol":"default"', '"protocol":"full"'),
        "run3/round3.key.jsonl": key_edit,
        "run3/round3.jsonl": ("?", "!"),
        "run3/chain.json": ('"round":2', '"round":3'),
    }
    for rel, (old, new) in edits.items():
        copy = tmp_path / f"edited-{rel.replace('/', '-')}"
        shutil.copytree(run3.parent / "run", copy / "run")
        shutil.copytree(run3, copy / "run3")
        target = copy / rel
        text = target.read_text(encoding="utf-8")
        edited = text.replace(old, new, 1)
        assert edited != text, rel
        target.write_text(edited, encoding="utf-8")
        result = cli(
            "score",
            "--run",
            copy / "run3",
            "--packets",
            packets,
            "--replies",
            replies3,
            "--out",
            tmp_path / f"out-{rel.replace('/', '-')}",
        )
        one_line_naming(result, "score", str(copy))
        assert not (tmp_path / f"out-{rel.replace('/', '-')}").exists()


def editid_parent(run3: Path, name: str, old: str, new: str) -> None:
    """Edit a file of run3's parent run (../run) and, with it, the digest run3's chain.json
    records for that run: what someone would do to slip an edit past the digest."""
    from honesty_pressure.files.store import files_digest
    from honesty_pressure.rounds.advance import run_files

    parent = run3.parent / "run"
    target = parent / name
    target.write_text(target.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    files = {n: (parent / n).read_bytes() for n in run_files(2)}
    link = json.loads((run3 / "chain.json").read_text())
    link["parent"]["sha256"] = files_digest(files, run_files(2))
    (run3 / "chain.json").write_text(json.dumps(link), encoding="utf-8")


def test_a_round3_run_finds_its_parent_run_by_path_and_digest(
    chain: tuple[Path, Path], packets: Path, tmp_path: Path
) -> None:
    """A round-3 run copies nothing of round 2: chain.json names the round-2 run (relative to the
    run, and the SHA-256 of its four files). A moved parent, a parent changed since, and an edit
    that also rewrites the digest are each refused in one line naming the file."""
    run3, replies3 = chain
    from honesty_pressure.files.store import files_digest
    from honesty_pressure.rounds.advance import run_files

    parent = run3.parent / "run"
    assert not (run3 / "parents").exists()
    digest = files_digest({n: (parent / n).read_bytes() for n in run_files(2)}, run_files(2))
    assert json.loads((run3 / "chain.json").read_text()) == {
        "parent": {"path": "../run", "round": 2, "sha256": digest}
    }

    def score(run: Path, out: str) -> Result:
        return cli(
            "score",
            "--run",
            run,
            "--packets",
            packets,
            "--replies",
            replies3,
            "--out",
            tmp_path / out,
        )

    alone = tmp_path / "alone" / "run3"
    shutil.copytree(run3, alone)
    line = one_line_naming(score(alone, "o1"), "score", str(alone / "chain.json"))
    assert f"the round-2 run this run continues is not at {alone / '..' / 'run'} (moved?" in line

    changed = tmp_path / "changed"
    shutil.copytree(parent, changed / "run")
    shutil.copytree(run3, changed / "run3")
    (changed / "run" / "run.json").write_text(
        (changed / "run" / "run.json").read_text() + " ", encoding="utf-8"
    )
    line = one_line_naming(score(changed / "run3", "o2"), "score", str(changed / "run3"))
    assert (
        line.endswith("is not the one this run was advanced from (its files changed since)")
        and str(changed / "run3" / ".." / "run") in line
    )

    slipped = tmp_path / "slipped"
    shutil.copytree(parent, slipped / "run")
    shutil.copytree(run3, slipped / "run3")
    editid_parent(
        slipped / "run3", "round2.key.jsonl", '"acceptable":[', '"acceptable":["DECLINE",'
    )
    line = one_line_naming(
        score(slipped / "run3", "o3"), "score", str(slipped / "run3" / ".." / "run")
    )
    assert "round2.key.jsonl: differs from what advance makes from the frozen replies" in line
    assert not any((tmp_path / o).exists() for o in ("o1", "o2", "o3"))


def test_a_run_made_with_copies_of_its_chain_still_checks(
    chain: tuple[Path, Path], packets: Path, tmp_path: Path
) -> None:
    """A round-3 run an older version made carries round 2 in parents/round2/ instead of
    chain.json: it is read from there, and checked as strictly."""
    run3, replies3 = chain
    from honesty_pressure.rounds.advance import run_files

    old = tmp_path / "old"
    shutil.copytree(run3, old)
    (old / "chain.json").unlink()
    (old / "parents" / "round2").mkdir(parents=True)
    for name in run_files(2):
        shutil.copy(run3.parent / "run" / name, old / "parents" / "round2" / name)
    ok = cli(
        "score", "--run", old, "--packets", packets, "--replies", replies3, "--out", tmp_path / "s"
    )
    assert ok.code == 0, ok.err
    bad = old / "parents" / "round2" / "frozen.jsonl"
    bad.write_text(bad.read_text().replace("DECISION", "Decision", 1), encoding="utf-8")
    result = cli(
        "score", "--run", old, "--packets", packets, "--replies", replies3, "--out", tmp_path / "t"
    )
    one_line_naming(result, "score", str(bad))
    (old / "parents").rename(tmp_path / "gone")
    result = cli(
        "score", "--run", old, "--packets", packets, "--replies", replies3, "--out", tmp_path / "t"
    )
    line = one_line_naming(result, "score", str(old))
    assert "names the run it continues in chain.json, and this one has none" in line


def test_advance_from_a_run_checks_the_parent_run_first(packets: Path, tmp_path: Path) -> None:
    """Finding 6: an edited round2.key.jsonl is never carried forward."""
    run, replies2 = make_run(tmp_path, packets)
    key = run / "round2.key.jsonl"
    key.write_text(
        key.read_text(encoding="utf-8").replace('"acceptable":[', '"acceptable":["DECLINE",', 1),
        encoding="utf-8",
    )
    result = cli(
        "advance",
        "--from-run",
        run,
        "--packets",
        packets,
        "--replies",
        replies2,
        "--run",
        tmp_path / "run3",
    )
    assert "differs from what advance makes" in one_line_naming(result, "advance", str(key))
    assert not (tmp_path / "run3").exists()


# ---- 7, 15, 16: verify ---------------------------------------------------------------------------


def _verify(checkout: Path) -> tuple[int, list[str]]:
    result = cli("verify", "--root", checkout)
    assert result.err == "" and "Traceback" not in result.out, result.err
    return result.code, [line for line in result.out.splitlines() if line.startswith("FAIL: ")]


def test_verify_checks_the_packet_set_recorded_in_expected(checkout: Path) -> None:
    """Finding 7: an edited packet_set in controls/EXPECTED.json, with MANIFEST refreshed to
    match."""
    path = checkout / "controls" / "EXPECTED.json"
    path.write_text(
        path.read_text(encoding="utf-8").replace('"packet_set":"', '"packet_set":"0', 1),
        encoding="utf-8",
    )
    (checkout / MANIFEST_NAME).write_bytes(build_manifest(checkout))
    code, fails = _verify(checkout)
    assert code == 1 and any("controls/EXPECTED.json: records packet set" in f for f in fails), (
        fails
    )


@pytest.mark.parametrize(
    ("name", "damage", "expected"),
    [
        (
            "MANIFEST not UTF-8",
            lambda c: (c / MANIFEST_NAME).write_bytes(b"\xff\xfe"),
            "MANIFEST.sha256: not valid UTF-8",
        ),
        (
            "a deleted key.jsonl",
            lambda c: (c / "packets" / "quick" / "key.jsonl").unlink(),
            "packets/quick/key.jsonl: listed in MANIFEST.sha256 but missing",
        ),
        (
            "EXPECTED.json not JSON",
            lambda c: (
                (c / "controls" / "EXPECTED.json").write_text("{oops"),
                (c / MANIFEST_NAME).write_bytes(build_manifest(c)),
            ),
            "controls/EXPECTED.json: not valid JSON",
        ),
        (
            "EXPECTED.json a list",
            lambda c: (
                (c / "controls" / "EXPECTED.json").write_text("[]"),
                (c / MANIFEST_NAME).write_bytes(build_manifest(c)),
            ),
            "controls/EXPECTED.json: expected a JSON object",
        ),
        (
            "build.json asking for 60000000 sources",
            lambda c: (
                (p := c / "packets" / "quick" / "build.json").write_text(
                    p.read_text().replace(
                        '"sources_per_domain":60', '"sources_per_domain":60000000'
                    )
                ),
                (c / MANIFEST_NAME).write_bytes(build_manifest(c)),
            ),
            "packets/quick/build.json: needs a string 'seed' and a 'sources_per_domain' from 1 to "
            "1000",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_verify_names_a_damaged_checkout_without_a_traceback(
    checkout: Path, name: str, damage: object, expected: str
) -> None:
    """Findings 15 and 16: each is one FAIL line (exit 1), quickly, never a traceback or a hang."""
    damage(checkout)  # type: ignore[operator]
    code, fails = _verify(checkout)
    assert code == 1 and any(f.startswith(f"FAIL: {expected}") for f in fails), fails


# ---- 14: lone surrogates and huge integers in every command that reads replies -------------------


@pytest.mark.parametrize("command", ["score", "advance", "score --run"])
def test_a_lone_surrogate_in_a_reply_is_one_line_in_every_reader(
    command: str, packets: Path, tmp_path: Path
) -> None:
    run, replies2 = make_run(tmp_path, packets)
    layer = load_checked_layer(packets, "quick")
    source = (
        replies2
        if command == "score --run"
        else reply_file(tmp_path / "r.jsonl", layer.round1, layer.key)
    )
    lines = source.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[2])
    record["reply"] += " \ud800"
    record["model"] = "model \udfff"
    lines[2] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = str(tmp_path / "out")
    args = {
        "score": [
            "score",
            "--layer",
            "quick",
            "--packets",
            str(packets),
            "--replies",
            str(bad),
            "--out",
            out,
        ],
        "advance": [
            "advance",
            "--layer",
            "quick",
            "--packets",
            str(packets),
            "--replies",
            str(bad),
            "--run",
            out,
        ],
        "score --run": [
            "score",
            "--run",
            str(run),
            "--packets",
            str(packets),
            "--replies",
            str(bad),
            "--out",
            out,
        ],
    }[command]
    before = snapshot(tmp_path)
    assert "lone surrogate" in one_line_naming(cli(*args), args[0], f"{bad}:3:")
    assert snapshot(tmp_path) == before


def test_a_runner_writing_a_lone_surrogate_stops_with_the_file_that_holds_it(
    packets: Path, tmp_path: Path
) -> None:
    script = tmp_path / "runner.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    print(json.dumps({'id': r['id'], 'messages': r['messages'] + [{'role': 'assistant', "
        "'content': 'DECISION: A \\ud800'}]}))\n",
        encoding="utf-8",
    )
    out = tmp_path / "run"
    result = cli(
        "run", "--runner", f"{sys.executable} {script}", "--run", out, "--packets", packets
    )
    assert "lone surrogate" in one_line_naming(result, "run", f"{out / 'round1.replies.jsonl'}:1:")
    assert (out / "round1.replies.jsonl").is_file(), "the paid-for replies are kept"


def test_export_failed_checks_a_runs_replies_before_reading_them(
    packets: Path, tmp_path: Path
) -> None:
    """`export --failed --run RUN` reads the run's own replies to choose what to resend: runner
    errors edited into answers there would drop their requests from the retry (issue 41)."""
    script = tmp_path / "runner.py"
    script.write_text(  # round 1 answered, every fork a runner error (null content)
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    text = 'DECISION: A' if len(r['messages']) <= 2 else None\n"
        "    print(json.dumps({'id': r['id'], 'messages': r['messages'] + [{'role': 'assistant', "
        "'content': text}]}))\n",
        encoding="utf-8",
    )
    out = tmp_path / "run"
    runner = f"{sys.executable} {script}"  # --fail-fast 0: every fork is sent, and fails
    result = cli("run", "--runner", runner, "--run", out, "--packets", packets, "--fail-fast", "0")
    assert result.code == 1 and "incomplete" in result.err, result.err
    replies = out / "round2.replies.jsonl"
    written = replies.read_text(encoding="utf-8")
    replies.write_text(written.replace('"content": null', '"content": "DECISION: A"'), "utf-8")
    target = tmp_path / "retry.jsonl"
    argv = ["export", "--run", out, "--packets", packets, "--format", "chat-jsonl", "--model", "m"]
    refused = cli(*argv, "--failed", "--out", target)
    assert "changed since the kit recorded what the runner wrote" in one_line_naming(
        refused, "export", str(replies)
    )
    assert not target.exists()
    replies.write_text(written, encoding="utf-8")
    assert cli(*argv, "--failed", "--out", target).code == 0
    assert len(target.read_text(encoding="utf-8").splitlines()) == written.count('"content": null')


def test_a_refused_line_can_be_mended_but_what_the_kit_read_cannot_be_edited(
    packets: Path, tmp_path: Path
) -> None:
    """The kit records only the lines it reads (issue 41): a runner's unreadable third line (a
    lone surrogate) is refused naming it, and mending it as AUDIT.md says (by \\ufffd) resumes the
    run; the two lines before it, which the kit read, can no longer be edited."""
    script = tmp_path / "runner.py"
    script.write_text(
        "import json, sys\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    r = json.loads(line)\n"
        "    text = 'DECISION: A' + (' \\ud800' if n == 2 else '')\n"
        "    print(json.dumps({'id': r['id'], 'messages': r['messages'] + [{'role': 'assistant', "
        "'content': text}]}))\n",
        encoding="utf-8",
    )
    out = tmp_path / "run"
    argv = ["run", "--run", out, "--packets", packets, "--fail-fast", "0"]  # one call, no preflight
    replies = out / "round1.replies.jsonl"
    result = cli(*argv, "--runner", f"{sys.executable} {script}")
    assert "lone surrogate" in one_line_naming(result, "run", f"{replies}:3:")
    written = replies.read_text(encoding="utf-8")
    lines = written.splitlines(keepends=True)
    edited = lines[0].replace("DECISION: A", "DECISION: B") + "".join(lines[1:])
    replies.write_text(edited, encoding="utf-8")
    stub = f"{sys.executable} {ROOT / 'tests' / 'stub_runner.py'} A"
    refused = cli(*argv, "--runner", stub)
    assert "changed since the kit recorded" in one_line_naming(refused, "run", str(replies))
    mended = written.replace("\\ud800", "\\ufffd")
    assert mended != written
    replies.write_text(mended, encoding="utf-8")
    assert cli(*argv, "--runner", stub).code == 0


# ---- 15: samples are bounded before any work -----------------------------------------------------


def test_many_distinct_samples_are_refused_at_once(packets: Path, tmp_path: Path) -> None:
    layer = load_checked_layer(packets, "quick")
    pid = sorted(layer.round1)[0]
    lines = [
        {
            "packet_id": pid,
            "request_sha256": layer.round1[pid]["request_sha256"],
            "reply": "DECISION: A",
            "sample": s,
        }
        for s in range(MAX_SAMPLES + 5)
    ]
    path = tmp_path / "samples.jsonl"
    path.write_bytes(jsonl(lines))
    result = cli(
        "advance",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        path,
        "--run",
        tmp_path / "run",
    )
    assert f"past the limit: at most {MAX_SAMPLES} samples per packet" in one_line_naming(
        result, "advance", f"{path}:{MAX_SAMPLES + 1}:"
    )


# ---- 16: a pipe on /dev/stdin is read once, and its digest is of what was scored -----------------


def test_replies_from_a_pipe_are_scored_and_their_digest_recorded(
    packets: Path, tmp_path: Path
) -> None:
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / "r.jsonl", layer.round1, layer.key)
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "honesty_pressure",
            "score",
            "--layer",
            "quick",
            "--packets",
            str(packets),
            "--replies",
            "/dev/stdin",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        input=replies.read_bytes(),
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["provenance"]["replies"] == {"stdin": sha256_hex(replies.read_bytes())}
    assert summary["counts"]["missing"] == 0


# ---- 17: fork ids are unique by construction and fit after export --------------------------------

PAIRS = [
    ("neutral", None),
    *(
        (kind, pressure)
        for kind in ("pressure", "evidence_change", "evidence_confirm")
        for pressure in PRESSURE_TYPES
    ),
]


@settings(max_examples=50)
@given(
    seed=st.integers(min_value=0, max_value=2**256 - 1),
    packet_id=st.from_regex(r"\A[0-9a-f]{16}(?:[0-9a-f]{5}){0,3}\Z"),
    samples=st.lists(
        st.integers(min_value=0, max_value=MAX_SAMPLES - 1), min_size=1, max_size=8, unique=True
    ),
)
def test_fork_ids_never_collide(seed: int, packet_id: str, samples: list[int]) -> None:
    ids = [
        fork_id(seed, id_parent(packet_id, s), kind, pressure)
        for s in samples
        for kind, pressure in PAIRS
    ]  # type: ignore[arg-type]
    assert len(set(ids)) == len(ids)
    named = [(s, pair) for s in samples for pair in PAIRS]
    for ident, (sample, pair) in zip(ids, named):
        # Opaque (issue 40): 5 hex digits longer than the parent's, never its prefix, and only
        # the seed takes it back to what it names.
        assert re.fullmatch(f"[0-9a-f]{{{len(packet_id) + 5}}}", ident)
        assert not ident.startswith(packet_id[:8])
        assert fork_origin(seed, ident) == (packet_id, sample, pair)
        assert ID_RE.match(bind(ident, "0" * 12, MAX_SAMPLES - 1))


def test_every_sample_of_one_parent_gets_distinct_ids() -> None:
    """The issue's case: one parent, every pair, all 100 samples (20-bit hashes collided here)."""
    ids = {
        fork_id(20261130, id_parent("0fa5443c9d1e7b20", s), kind, pressure)
        for s in range(MAX_SAMPLES)
        for kind, pressure in PAIRS
    }  # type: ignore[arg-type]
    assert len(ids) == MAX_SAMPLES * len(PAIRS)


def test_the_full_protocol_with_several_samples_advances(packets: Path) -> None:
    """The committed full layer with --protocol full collided on every run; here every fork of
    the full protocol, three samples each, gets an id of its own."""
    layer = load_checked_layer(packets, "quick")
    envelopes = [
        Envelope(
            ref=pid,
            reply="DECISION: A",
            error=None,
            request_sha256=None,
            request_messages=None,
            model=None,
            sample=s,
            file="r",
            line=1,
        )
        for pid in layer.round1
        for s in range(3)
    ]
    files = build(from_layer(layer), envelopes, protocol="full").files
    ids = [json.loads(line)["packet_id"] for line in files["round2.key.jsonl"].splitlines()]
    assert len(ids) > 3 * 4 * len(layer.round1) and len(set(ids)) == len(ids)


def test_a_chain_whose_ids_would_not_fit_stops_before_any_work(packets: Path) -> None:
    """Each round adds 5 hex digits to the ids: the round whose exported ids would pass 64
    characters is refused with one line, instead of an export that cannot be sent."""
    parents = from_layer(load_checked_layer(packets, "quick"))
    room = 64 - len("00000") - len("_") - 12
    fits = dataclasses.replace(parents, requests={"x" * room: {}}, round=6)
    check_id_room(fits, [], "r.jsonl")
    too_long = dataclasses.replace(parents, requests={"x" * (room + 1): {}}, round=6)
    with pytest.raises(InputError) as caught:
        check_id_room(too_long, [], "r.jsonl")
    assert (
        caught.value.one_line()
        == "r.jsonl: round-7 fork ids would be 65 characters once exported, more than the 64 "
        "runners accept: this chain ends at round 6"
    )
    sampled = Envelope(
        ref="x",
        reply="",
        error=None,
        request_sha256=None,
        request_messages=None,
        model=None,
        sample=42,
        file="r",
        line=1,
    )
    with pytest.raises(InputError):
        check_id_room(fits, [sampled], "r.jsonl")


# ---- found by our own attack pass ----------------------------------------------------------------


def test_a_reply_file_whose_name_is_not_utf8_is_scored(packets: Path, tmp_path: Path) -> None:
    layer = load_checked_layer(packets, "quick")
    name = Path(os.fsdecode(bytes(tmp_path) + b"/r\xff.jsonl"))
    reply_file(name, layer.round1, layer.key)
    result = cli(
        "score",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        name,
        "--out",
        tmp_path / "out",
    )
    assert result.code == 0, result.err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["provenance"]["replies"] == {"r\\udcff.jsonl": sha256_hex(name.read_bytes())}


def test_an_older_demo_folder_is_still_a_demo(packets: Path, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert cli("demo", "--packets", packets, "--out", out).code == 0
    (out / ".honesty_pressure").unlink()  # as an older version left it
    assert cli("demo", "--packets", packets, "--out", out, "--cave", "0").code == 0
    assert (out / ".honesty_pressure").is_file()


_KIND_ONLY_DEMO = '{"kind":"demo","made_by":"honesty_pressure"}\n'
"""A marker as an older version wrote it (a kind, no entries): it says demo, and lists nothing."""


@pytest.mark.parametrize("made_by", ["run", "advance"])
def test_a_run_whose_marker_says_demo_is_known_by_its_files(
    packets: Path, tmp_path: Path, made_by: str
) -> None:
    """Issue 41: a run folder whose marker was replaced by a kind-only demo marker was replaced
    by `demo --out`, the runner's replies and request.json lost. A marker's word is borne out by
    the files: a run's replies are not the simulated assistant's, and request.json is run's."""
    if made_by == "run":
        run = tmp_path / "run"
        stub = f"{sys.executable} {ROOT / 'tests' / 'stub_runner.py'} A"
        argv = ["run", "--runner", stub, "--run", run, "--packets", packets, "--model", "m"]
        assert cli(*argv).code == 0
    else:
        run, _ = make_run(tmp_path, packets)
    (run / ".honesty_pressure").write_text(_KIND_ONLY_DEMO, encoding="utf-8")
    before = snapshot(run)
    result = cli("demo", "--packets", packets, "--out", run)
    assert one_line_naming(result, "demo", str(run)).endswith(
        ": holds a run; choose another folder"
    )
    assert snapshot(run) == before


def test_a_runner_calling_itself_the_simulated_assistant_is_still_a_run(
    packets: Path, tmp_path: Path
) -> None:
    """The model name is the runner's to choose; request.json is written by `run` alone, so a run
    whose full marker was rewritten to say demo, over replies naming the simulated assistant, is
    still no demo."""
    from honesty_pressure.files.folders import appended_entry, marker_bytes, read_marker

    run = tmp_path / "run"
    stub = f"{sys.executable} {ROOT / 'tests' / 'stub_runner.py'} A"
    argv = ["run", "--runner", stub, "--run", run, "--packets", packets, "--model", "m"]
    assert cli(*argv).code == 0
    replies = run / "round1.replies.jsonl"
    lines = [json.loads(line) for line in replies.read_text(encoding="utf-8").splitlines()]
    replies.write_text(
        "".join(
            json.dumps({**line, "model": "simulated-assistant"}, separators=(",", ":")) + "\n"
            for line in lines
        ),
        encoding="utf-8",
    )
    marker = read_marker(run)
    assert marker is not None and marker.entries is not None
    entries = {**marker.entries}
    entries["round1.replies.jsonl"] = appended_entry(replies) or entries["round1.replies.jsonl"]
    (run / ".honesty_pressure").write_bytes(marker_bytes("demo", entries))
    assert b'"model":"simulated-assistant"' in replies.read_bytes().split(b"\n")[0]
    before = snapshot(run)
    result = cli("demo", "--packets", packets, "--out", run)
    line = one_line_naming(result, "demo", str(run))
    assert "which its files contradict" in line
    assert snapshot(run) == before
    # Without request.json, under a kind-only marker: commands.jsonl still says `run` made it.
    (run / "request.json").unlink()
    (run / ".honesty_pressure").write_text(_KIND_ONLY_DEMO, encoding="utf-8")
    before = snapshot(run)
    result = cli("demo", "--packets", packets, "--out", run)
    assert one_line_naming(result, "demo", str(run)).endswith(
        ": holds a run; choose another folder"
    )
    assert snapshot(run) == before


def test_runner_errors_edited_into_answers_are_never_scored_as_the_models(
    packets: Path, tmp_path: Path
) -> None:
    """Issue 41: a round 1 of runner errors stays open; its errors edited in place into answers
    were read back by `run --retry-failed` as the model's (the marker listed the file as appended,
    but only what it held before the runner wrote). The kit records what the runner wrote after
    every call and checks it before reading it back."""
    run = tmp_path / "run"
    stub = f"{sys.executable} {ROOT / 'tests' / 'stub_runner.py'}"
    argv = ["run", "--run", run, "--packets", packets, "--model", "m", "--fail-fast", "0"]
    first = cli(*argv, "--runner", f"{stub} A --error")  # every request sent, and an error
    assert first.code == 1 and "round 1 is incomplete" in first.err, first.err
    replies = run / "round1.replies.jsonl"
    errors = replies.read_text(encoding="utf-8")
    assert '"content": null' in errors
    replies.write_text(errors.replace('"content": null', '"content": "DECISION: A"'), "utf-8")
    before = snapshot(run)
    result = cli(*argv, "--runner", f"{stub} B", "--retry-failed")
    line = one_line_naming(result, "run", str(replies))
    assert line == (
        f"{PROG} run: {replies}: its first {len(errors.encode()):,} bytes changed since the kit "
        "recorded what the runner wrote there (an edited reply is not the model's); put the "
        "runner's own lines back, or start the run over (run --force)"
    )
    assert snapshot(run) == before
    # The runner's own lines back: the retry sends every request again and round 1 closes.
    replies.write_text(errors, encoding="utf-8")
    assert cli(*argv, "--runner", f"{stub} B", "--retry-failed").code == 0


def test_a_parents_folder_of_yours_in_a_round3_run_blocks_force(
    packets: Path, tmp_path: Path
) -> None:
    run, replies2 = make_run(tmp_path, packets)
    run3 = tmp_path / "run3"
    assert (
        cli(
            "advance", "--from-run", run, "--packets", packets, "--replies", replies2, "--run", run3
        ).code
        == 0
    )
    # This version's round-3 run carries no parents/ (chain.json names its parent run): a
    # parents/ folder in it is not the kit's, and is named whole.
    (run3 / "parents" / "round2").mkdir(parents=True)
    (run3 / "parents" / "round2" / "mine.txt").write_text("mine\n")
    before = snapshot(run3)
    layer = load_checked_layer(packets, "quick")
    other = reply_file(tmp_path / "other.jsonl", layer.round1, layer.key, "B")
    result = cli(
        "advance",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        other,
        "--run",
        run3,
        "--force",
    )
    assert "also holds files the kit did not write (parents);" in one_line_naming(
        result, "advance", str(run3)
    )
    assert snapshot(run3) == before


def test_a_replies_file_turned_into_a_link_is_never_written_through(
    packets: Path, tmp_path: Path
) -> None:
    out, victim = tmp_path / "run", tmp_path / "victim.txt"
    stub = ROOT / "tests" / "stub_runner.py"
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {stub} A --fail",
            "--run",
            out,
            "--packets",
            packets,
        ).code
        == 2
    )
    victim.write_text("no newline at the end")
    (out / "round1.replies.jsonl").unlink()
    (out / "round1.replies.jsonl").symlink_to(victim)
    result = cli(
        "run", "--runner", f"{sys.executable} {stub} A", "--run", out, "--packets", packets
    )
    assert "symbolic link" in one_line_naming(result, "run", str(out / "round1.replies.jsonl"))
    assert victim.read_text() == "no newline at the end"


def test_without_a_one_step_swap_a_kill_between_the_renames_is_repaired(
    packets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where renameat2(RENAME_EXCHANGE) is missing the swap is two renames; a kill between them
    leaves the old set beside the folder, and the next writer puts it back before it starts."""
    from honesty_pressure.files import folders

    from .test_faults import kill_at_named, leftovers

    monkeypatch.setattr(folders, "_exchange", lambda a, b: False)
    layer = load_checked_layer(packets, "quick")
    old, new = (
        reply_file(tmp_path / "old.jsonl", layer.round1, layer.key, "A"),
        reply_file(tmp_path / "new.jsonl", layer.round1, layer.key, "B"),
    )
    out = tmp_path / "out"
    assert (
        cli("score", "--layer", "quick", "--packets", packets, "--replies", old, "--out", out).code
        == 0
    )
    before = snapshot(out)
    argv = [
        "score",
        "--layer",
        "quick",
        "--packets",
        str(packets),
        "--replies",
        str(new),
        "--out",
        str(out),
    ]
    assert kill_at_named(argv, 0, "between", 0) == 77
    assert not out.exists() and len(leftovers(tmp_path)) == 2, (
        "the old set sits beside, the new one too"
    )
    assert (
        cli(
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            old,
            "--out",
            tmp_path / "elsewhere",
        ).code
        == 0
    )
    result = cli(*argv)
    assert result.code == 0 and leftovers(tmp_path) == []
    assert snapshot(out) != before and (out / "summary.json").is_file()
