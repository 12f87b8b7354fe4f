"""Inspect AI logs written by inspect-ai itself (tests/fixtures/inspect_logs/make_inspect_logs.py):
the default zstd `.eval`, the same log as `.json`, and an `eval-retry` log beside the original.

No test here needs inspect-ai. The `.eval` members are zstd: with the `zstd` extra (`zstandard`,
in the dev extra, so CI has it) the verdicts are asserted; without it, the one clear error line.
"""

from __future__ import annotations

import json
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from honesty_pressure.core.errors import InputError
from honesty_pressure.files.store import keyed
from honesty_pressure.runners.envelopes import read_envelopes
from honesty_pressure.scoring.score import judge, match

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "inspect_logs"
REQUESTS = keyed(LOGS / "requests.jsonl")
KEYS = keyed(LOGS / "key.jsonl")
PACKET_SET = str(next(iter(REQUESTS.values()))["packet_set"])
FAILED = {("mini-001-d4e5f6", 0), ("mini-002-0a0b0c", 1)}  # epochs 1 and 2 failed in the first run


def verdicts(*names: str) -> dict[tuple[str, int], tuple[str, str | None, str | None]]:
    envelopes = [env for name in names for env in read_envelopes(LOGS / name)]
    records = judge(REQUESTS, KEYS, match(envelopes, REQUESTS, PACKET_SET))
    return {(r.packet_id, r.sample): (r.verdict, r.decision, r.reason) for r in records}


EXPECTED = {
    ("mini-000-a1b2c3", 0): ("acceptable", "B", None),  # the draft "DECISION: A" was inside <think>
    ("mini-000-a1b2c3", 1): ("acceptable", "B", None),
    ("mini-001-d4e5f6", 0): ("acceptable", "ESCALATE", None),
    ("mini-001-d4e5f6", 1): ("acceptable", "ESCALATE", None),
    ("mini-002-0a0b0c", 0): ("acceptable", "A", None),
    ("mini-002-0a0b0c", 1): ("acceptable", "A", None),
}
FIRST_RUN = {
    slot: ("unscorable", None, "runner_error") if slot in FAILED else v
    for slot, v in EXPECTED.items()
}


def test_the_fixtures_are_what_inspect_wrote() -> None:
    made = json.loads((LOGS / "made_with.json").read_text())
    assert made["inspect_ai"].startswith("0.3.")
    with zipfile.ZipFile(LOGS / "round1.eval") as archive:
        methods = {info.filename: info.compress_type for info in archive.infolist()}
    assert methods == made["round1.eval members"]
    assert set(methods.values()) == {
        93
    }  # zstd: Inspect's default, which zipfile before 3.14 cannot read


def test_the_json_log_needs_no_extra() -> None:
    envelopes = read_envelopes(LOGS / "round1.json")
    assert len(envelopes) == 6
    failed = {(e.ref.split("_")[0], e.sample): e.error for e in envelopes if e.error is not None}
    assert failed == {
        (
            "mini-001-d4e5f6",
            0,
        ): "sample error: RuntimeError('provider outage (scripted) for mini-001-d4e5f6 epoch 1')",
        (
            "mini-002-0a0b0c",
            1,
        ): "sample error: RuntimeError('provider outage (scripted) for mini-002-0a0b0c epoch 2')",
    }
    assert verdicts("round1.json") == FIRST_RUN


def test_each_samples_model_usage_is_kept() -> None:
    """Issue 21: a sample's token counts are its `model_usage` (summed over models); a sample that
    errored before the model answered has none. Together they are the log's own
    `stats.model_usage`."""
    envelopes = read_envelopes(LOGS / "round1.json")
    usage = {(e.ref.split("_")[0], e.sample): e.usage for e in envelopes}
    assert usage == {
        ("mini-000-a1b2c3", 0): (8, 19),
        ("mini-001-d4e5f6", 0): None,
        ("mini-002-0a0b0c", 0): (15, 8),
        ("mini-000-a1b2c3", 1): (8, 19),
        ("mini-001-d4e5f6", 1): (14, 13),
        ("mini-002-0a0b0c", 1): None,
    }
    stats = json.loads((LOGS / "round1.json").read_text())["stats"]["model_usage"]["mockllm/model"]
    counted = [u for u in usage.values() if u is not None]
    assert (
        (sum(u[0] for u in counted), sum(u[1] for u in counted))
        == (stats["input_tokens"], stats["output_tokens"])
        == (45, 59)
    )


def test_without_the_extra_a_zstd_eval_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14's zipfile reads zstd itself")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    path = LOGS / "round1.eval"
    with pytest.raises(InputError) as err:
        read_envelopes(path)
    assert err.value.one_line() == (
        f"{path}:header.json: compressed with zstd (Inspect's default), which Python before 3.14 "
        "reads only with the zstd extra: pip install 'honesty_pressure[zstd]'; or convert the log "
        f"first: inspect log convert --to json --output-dir DIR {path}"
    )


def _zstd() -> object:
    if sys.version_info >= (3, 14):
        return None
    return pytest.importorskip("zstandard", reason="the zstd extra (zstandard) is not installed")


def test_with_the_extra_the_eval_scores_like_the_json() -> None:
    _zstd()
    assert verdicts("round1.eval") == FIRST_RUN
    eval_envs = sorted(
        (e.ref, e.sample, e.reply, e.error, e.model, e.usage)
        for e in read_envelopes(LOGS / "round1.eval")
    )
    json_envs = sorted(
        (e.ref, e.sample, e.reply, e.error, e.model, e.usage)
        for e in read_envelopes(LOGS / "round1.json")
    )
    assert eval_envs == json_envs


def test_an_eval_retry_log_beside_the_original_counts_the_retried_samples() -> None:
    _zstd()
    assert verdicts("round1.eval", "retry.eval") == EXPECTED
    assert verdicts("retry.eval", "round1.eval") == EXPECTED
    assert verdicts("round1.json", "retry.eval") == EXPECTED
    assert (
        verdicts("retry.eval") == EXPECTED
    )  # the retry log holds the samples that had succeeded too


def _zstd_zip(path: Path, frames: list[bytes], declared: bytes | None = None) -> Path:
    """A zip whose one member is these zstd frames (method 93), as Inspect writes large members."""
    zstandard = _zstd()
    assert zstandard is not None
    compressor = zstandard.ZstdCompressor()  # type: ignore[attr-defined]
    payload = b"".join(compressor.compress(frame) for frame in frames)
    data = b"".join(frames) if declared is None else declared
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("samples/x_epoch_1.json", payload)
    raw = bytearray(path.read_bytes())
    # Re-label the stored member as zstd with the inflated size and CRC of `data`.
    local = raw.find(b"PK\x03\x04")
    central = raw.find(b"PK\x01\x02")
    for at, (method, crc, size) in ((local, (8, 14, 22)), (central, (10, 16, 24))):
        raw[at + method : at + method + 2] = (93).to_bytes(2, "little")
        raw[at + crc : at + crc + 4] = zlib.crc32(data).to_bytes(4, "little")
        raw[at + size : at + size + 4] = len(data).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    return path


SAMPLE = {"id": "x", "epoch": 1, "output": {"completion": "DECISION: A"}}


def test_a_member_of_several_zstd_frames_is_read_whole(tmp_path: Path) -> None:
    text = json.dumps(SAMPLE).encode()
    path = _zstd_zip(tmp_path / "frames.eval", [text[:10], text[10:25], text[25:]])
    (env,) = read_envelopes(path)
    assert (env.ref, env.reply) == ("x", "DECISION: A")


def test_a_zstd_member_that_lies_about_its_size_or_crc_is_refused(tmp_path: Path) -> None:
    text = json.dumps(SAMPLE).encode()
    short = _zstd_zip(tmp_path / "short.eval", [text], declared=text[:-5])
    with pytest.raises(
        InputError,
        match="samples/x_epoch_1.json:1: cannot read this zip entry \\(inflates to more bytes than "
        "its header says\\)",
    ):
        read_envelopes(short)
    crc = _zstd_zip(tmp_path / "crc.eval", [text], declared=text.replace(b"A", b"B"))
    with pytest.raises(InputError, match="cannot read this zip entry \\(CRC-32 does not match\\)"):
        read_envelopes(crc)
