"""`advance_into`: `advance --run RUN` for a Python caller. The files are the CLI's, byte for
byte, written with the CLI's rules (the same writer), and the round it returns is the round
`from_run` reads back; a bad call is one line naming the file, nothing written."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from honesty_pressure.cli.main import main
from honesty_pressure.core.errors import InputError, OutputError, UsageError
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.files.store import files_digest
from honesty_pressure.rounds.advance import advance, from_layer, run_files
from honesty_pressure.rounds.runcheck import from_run, link_bytes
from honesty_pressure.runners.simulate import DEMO_TRAITS, Traits
from honesty_pressure.runs.answer import answer, simulated_assistant
from honesty_pressure.runs.outputs import advance_into
from honesty_pressure.runs.pipeline import run_log_bytes, score_run

ROOT = Path(__file__).resolve().parents[2]
PACKETS = ROOT / "packets"
QUICK = load_checked_layer(PACKETS, "quick")
PARENTS = from_layer(QUICK)


@pytest.fixture(scope="module")
def replies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quick layer answered by demo's simulated assistant (seed 7)."""
    out = tmp_path_factory.mktemp("replies") / "round1.replies.jsonl"
    return answer(QUICK, simulated_assistant(QUICK, DEMO_TRAITS, 7), out)


def cli(*args: str) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(list(args)) == 0
    return printed.getvalue()


def test_the_run_is_the_clis_and_its_round_is_what_from_run_reads(
    replies: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    forks = advance_into(PARENTS, [str(replies)], str(run))
    made = advance(PARENTS, [replies])
    assert sorted(p.name for p in run.iterdir()) == sorted([*made, ".honesty_pressure"])
    for name, data in made.items():
        assert (run / name).read_bytes() == data, name
    cli("advance", "--replies", str(replies), "--run", str(tmp_path / "by-cli"))
    for name in made:
        assert (tmp_path / "by-cli" / name).read_bytes() == (run / name).read_bytes(), name
    back, chain = from_run(run, PACKETS)
    assert forks == back
    # The next run names this one (its folder and its files' digest) instead of copying it.
    assert chain == {
        "chain.json": link_bytes(2, files_digest(made, run_files(2)), str(run)),
    }
    assert forks.round == 2
    assert len(forks.requests) == json.loads(made["run.json"])["counts"]["requests"]
    assert len(forks.keys) == json.loads(made["run.json"])["counts"]["forks"]


def test_the_same_replies_again_keep_the_run_and_others_are_refused(
    replies: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    first = advance_into(PARENTS, [replies], run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    assert advance_into(PARENTS, [replies], run) == first
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    other = answer(QUICK, simulated_assistant(QUICK, Traits(), 7), tmp_path / "other.jsonl")
    with pytest.raises(InputError) as caught:
        advance_into(PARENTS, [other], run)
    assert caught.value.one_line() == (
        f"{run / 'frozen.jsonl'}: this run already holds different frozen replies; choose "
        "another --run or pass --force to replace the whole run"
    )
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    replaced = advance_into(PARENTS, [other], run, force=True)
    assert replaced != first
    assert (run / "frozen.jsonl").read_bytes() != before["frozen.jsonl"]


def test_a_folder_the_kit_did_not_make_is_refused(replies: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(OutputError) as caught:
        advance_into(PARENTS, [replies], mine)
    assert caught.value.one_line().startswith(f"{mine}: ")
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_the_command_is_logged_as_the_cli_logs_it(replies: Path, tmp_path: Path) -> None:
    advance_into(PARENTS, [replies], tmp_path / "run", command="my-script.py")
    assert (tmp_path / "run" / "commands.jsonl").read_bytes() == run_log_bytes(
        "my-script.py", {"round1.replies.jsonl": "chat-jsonl"}, "advance"
    )
    assert not (tmp_path / "plain").exists()
    advance_into(PARENTS, [replies], tmp_path / "plain")
    assert not (tmp_path / "plain" / "commands.jsonl").exists()


def test_a_run_past_round_two_carries_its_chain(replies: Path, tmp_path: Path) -> None:
    forks = advance_into(PARENTS, [replies], tmp_path / "run2")
    round2 = answer(forks, simulated_assistant(forks, DEMO_TRAITS, 7), tmp_path / "r2.jsonl")
    parents, chain = from_run(tmp_path / "run2", PACKETS)
    with pytest.raises(UsageError) as caught:
        advance_into(parents, [round2], tmp_path / "run3")
    assert caught.value.one_line() == (
        "parents of round 2 come from a run: pass the chain files from_run gave with them "
        "(chain=), which the new run carries"
    )
    assert not (tmp_path / "run3").exists()
    with pytest.raises(UsageError) as caught:
        advance_into(PARENTS, [replies], tmp_path / "run3", chain=chain)
    assert caught.value.one_line() == (
        "a layer's packets carry no chain: chain= goes with from_run's parents"
    )
    round3 = advance_into(parents, [round2], tmp_path / "run3", chain=chain)
    assert round3.round == 3
    # Written, the parent run is named relative to the run (the pair moves together).
    assert json.loads((tmp_path / "run3" / "chain.json").read_text())["parent"]["path"] == "../run2"
    assert from_run(tmp_path / "run3", PACKETS)[0] == round3
    round3_replies = answer(
        round3, simulated_assistant(round3, DEMO_TRAITS, 7), tmp_path / "r3.jsonl"
    )
    scored = score_run(str(tmp_path / "run3"), [str(round3_replies)], str(PACKETS))
    assert json.loads(scored["summary.json"])["round"] == 3
