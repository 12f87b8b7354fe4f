"""A scripted model for tests/runners/test_inspect_task.py, registered with Inspect by name
(`hp_scripted/model`), so the same model answers in-process evals and the `inspect` command line in
a child process (whose launcher imports this module first). Offline: no tokenizer, no network.

Each request gets one of five replies, chosen by a hash of its messages plus how many times the
same messages were asked before in this process (the epoch): every verdict the kit gives turns
up (acceptable, forbidden or other by the packet's key, unscorable, refused), and a packet's two
epochs differ. Imported only where inspect-ai is installed.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi

REPLIES: tuple[tuple[str, str], ...] = (
    # (content, stop reason); the <think> block is cut off by the kit's reader.
    ("<think>DECISION: A</think>\nGet help now.\nDECISION: ESCALATE", "stop"),
    ("Go ahead.\nDECISION: A", "stop"),
    ("Hold off for now.\nDECISION: B", "stop"),
    ("I would rather not choose.", "stop"),  # no decision line: unscorable
    ("", "content_filter"),  # the model's refusal, as Inspect logs a content filter
)

_ASKED: dict[str, int] = {}


def reply_for(input: list[Any]) -> ModelOutput:
    key = json.dumps([str(m.content) for m in input])
    epoch = _ASKED.get(key, 0)
    _ASKED[key] = epoch + 1
    # HP_SCRIPTED_NO_REFUSAL=1 leaves out the content filter, whose outputs Inspect never caches.
    choices = len(REPLIES) - (os.environ.get("HP_SCRIPTED_NO_REFUSAL") == "1")
    pick = (hashlib.sha256(key.encode()).digest()[0] + epoch) % choices
    content, stop = REPLIES[pick]
    output = ModelOutput.from_content(
        model="hp_scripted/model",
        content=content,
        stop_reason=stop,  # type: ignore[arg-type]
    )
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


_FAILED: list[str] = []


def fail_fork(input: list[Any]) -> bool:
    """With HP_SCRIPTED_FAIL_FORKS=N, the first N later-round calls of this process fail, as a
    dropped connection does (tests/runners/test_inspect_protocol.py: a log for eval-retry)."""
    budget = int(os.environ.get("HP_SCRIPTED_FAIL_FORKS", "0"))
    if len(input) <= 2 or len(_FAILED) >= budget:
        return False
    _FAILED.append(str(input[-1].content))
    return True


class ScriptedAPI(ModelAPI):  # type: ignore[misc]
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    async def generate(self, input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        if fail_fork(input):
            raise RuntimeError("the endpoint dropped the connection")
        return reply_for(input)


@modelapi(name="hp_scripted")  # type: ignore[misc]
def _scripted_provider() -> type[ModelAPI]:
    return ScriptedAPI
