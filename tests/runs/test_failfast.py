"""failfast.Watch: the runner's replies counted as they arrive, however its output is cut."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.limits import MAX_LINE_BYTES
from honesty_pressure.runs.failfast import Watch, runner_error

ANSWER = json.dumps(
    {
        "id": "a",
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}],
    }
).encode()
FAILED = json.dumps(
    {
        "id": "b",
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}],
        "error": "connection failed: [Errno 111]\n Connection refused",
    }
).encode()
BATCH_FAILED = json.dumps(
    {
        "custom_id": "c",
        "response": None,
        "error": {"code": "runner_error", "message": "HTTP 503: overloaded"},
    }
).encode()
REFUSED = json.dumps(
    {
        "custom_id": "d",
        "response": {
            "status_code": 200,
            "body": {
                "choices": [{"message": {"role": "assistant", "content": None, "refusal": "No."}}]
            },
        },
        "error": None,
    }
).encode()
KINDS = {"answer": ANSWER, "failed": FAILED, "batch": BATCH_FAILED, "refused": REFUSED}


def test_each_kind_of_line_is_judged_as_score_reads_it() -> None:
    # The runner's own words where it wrote them beside a chat-jsonl null content, on one line.
    assert runner_error(FAILED) == "connection failed: [Errno 111] Connection refused"
    assert runner_error(BATCH_FAILED) == "runner_error: HTTP 503: overloaded"
    assert runner_error(ANSWER) is None
    assert runner_error(REFUSED) is None, "a refusal is the model's answer"
    for junk in (b"Loading model...", b"[1, 2]", b'{"x": 1}', b"\xff", b"[" * 100_000):
        assert runner_error(junk) is None, "not read here: the round's own reading names it"


@given(
    st.lists(st.sampled_from(sorted(KINDS)), max_size=30),
    st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=20),
    st.integers(min_value=0, max_value=6),
)
def test_counts_do_not_depend_on_where_the_output_is_cut(
    kinds: list[str], cuts: list[int], fail_fast: int
) -> None:
    data = b"".join(KINDS[k] + b"\n" + (b"\n" if i % 7 == 3 else b"") for i, k in enumerate(kinds))
    head = kinds[:fail_fast]
    dead = fail_fast > 0 and len(head) == fail_fast and all(k in ("failed", "batch") for k in head)
    # Every line judged (a progress line shows the failures), or only the first fail_fast.
    for every, judged in ((True, kinds), (False, head)):
        watch, seen, fails, at, step = Watch(fail_fast, every), 0, 0, 0, 0
        while at < len(data):
            size = cuts[step % len(cuts)]
            got = watch.feed(data[at : at + size])
            seen, fails, at, step = seen + got[0], fails + got[1], at + size, step + 1
        failures = sum(k in ("failed", "batch") for k in judged)
        assert (seen, fails) == (watch.replies, watch.failures) == (len(kinds), failures)
        first = next((k for k in judged if k in ("failed", "batch")), None)
        assert watch.first_error == (runner_error(KINDS[first]) if first else "")
        assert watch.dead == dead


def test_a_line_too_long_to_hold_is_skipped_to_its_end() -> None:
    watch = Watch(2)
    watch.feed(b"x" * (MAX_LINE_BYTES // 2))
    watch.feed(b"x" * (MAX_LINE_BYTES // 2 + 1))
    assert len(watch._partial) == 0, "never held whole"
    assert watch.feed(b"still the same line\n" + FAILED + b"\n") == (1, 1)
    assert (watch.replies, watch.dead) == (1, False)
