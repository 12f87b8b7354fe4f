"""`advance`: freeze round-k replies and grow round k+1's independent forks (DESIGN.md section 4).

Parents come from a packet layer (round 1) or from a run folder (round k > 1), so a chain of
successive pushes is the same step repeated. All output is returned as bytes; the CLI writes it.
This module only builds rounds; checking a run folder's chain (and reading a checked run back as
parents) is runcheck.py, and playing a whole chain in memory is chain.py.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ..core.arguments import choice, paths
from ..core.binding import unbind
from ..core.canonical import digest, dumps, json_text, jsonl, sha256_hex
from ..core.construct import (
    PROTOCOLS,
    SURFACES,
    Envelope,
    ForkKind,
    Format,
    Ledger,
    MenuItem,
    PressureType,
    Protocol,
    Surface,
    held_out_phrasings,
    value_grid,
)
from ..core.errors import InputError
from ..core.limits import MAX_ADVANCE_SAMPLES
from ..core.parse import parse_decision
from ..core.progress import SILENT, Meter
from ..core.version import __version__
from ..domains import by_name
from ..files.layer import PacketFolder
from ..files.store import JsonObject, files_digest, json_object, jsonl_bytes, keyed_records
from ..generate.menu import action_code
from ..runners.envelopes import read_replies
from ..runners.envelopes import refused as is_refusal
from ..scoring.score import match, menu_codes, request_digest, samples_of
from . import sustained
from .fork import FORK_ID_BITS, Fork, Parent, make_forks, plan

RUN_FILE = "run.json"
FROZEN_FILE = "frozen.jsonl"


@dataclass(frozen=True, slots=True, kw_only=True)
class ParentSet:
    """The packets of round k: their requests, keys (with ledgers) and the set they belong to."""

    round: int
    layer: str
    packet_set: str
    parent_set: str
    seed: int
    surface: Surface
    requests: dict[str, JsonObject]
    keys: dict[str, JsonObject]
    source: str = ""
    """SHA-256 of the files these parents were read from ("" if none): with the ids, the protocol
    and the frozen replies, what tells a check that a round its caller built came from the very
    inputs it is checking (`Built.made_from`)."""


def from_layer(folder: PacketFolder) -> ParentSet:
    """Round-1 packets as parents; each key gains its twin's ledger and the source's A/B order."""
    keys: dict[str, JsonObject] = {}
    for source_id, record in folder.ledgers.items():
        packets = record.get("packets")
        if not isinstance(packets, list):
            raise InputError(
                f"source {source_id} has no packets list", file=str(folder.folder / "ledgers.jsonl")
            )
        for packet in packets:
            pid = str(packet["packet_id"])
            keys[pid] = {**folder.key[pid], "ledger": packet["ledger"]}
    seed = folder.build.get("seed")
    return ParentSet(
        round=1,
        layer=str(folder.build.get("layer")),
        packet_set=folder.packet_set,
        parent_set=folder.packet_set,
        seed=int(str(seed)),
        surface=_surface(folder.build.get("surface"), str(folder.folder / "build.json")),
        requests=dict(folder.round1),
        keys=keys,
        source=folder.digest,
    )


def parents_of_files(info: JsonObject, files: dict[str, bytes], folder: Path) -> ParentSet:
    """Round k's forks as parents (for round k+1), from that round's run.json (`info`) and its
    files by name (run_files(k)); `folder` is where they are, for messages."""
    k = int(str(info.get("round")))
    requests_name, keys_name = f"round{k}.jsonl", f"round{k}.key.jsonl"
    return ParentSet(
        round=k,
        layer=str(info.get("layer")),
        packet_set=str(info.get("packet_set")),
        parent_set=str(info.get("run_set")),
        seed=int(str(info.get("seed"))),
        surface=_surface(info.get("surface"), str(folder / RUN_FILE)),
        requests=keyed_records(
            jsonl_bytes(files[requests_name], str(folder / requests_name)),
            str(folder / requests_name),
        ),
        keys=keyed_records(
            jsonl_bytes(files[keys_name], str(folder / keys_name)), str(folder / keys_name)
        ),
        source=files_digest(files, run_files(k)),
    )


def parents_of_round(parents: ParentSet, files: Mapping[str, bytes], where: str) -> ParentSet:
    """The round advance just built from `parents` (its files, `build(...).files`) as the
    parents of the next round: what `run --rounds` and the depth selfcheck chain in memory, the
    same set `runcheck.from_run` reads back from the run folder."""
    k = parents.round + 1
    info = json_object(files[RUN_FILE], f"{where}/{RUN_FILE}")
    return parents_of_files(
        {**info, "round": k}, {name: files[name] for name in run_files(k)}, Path(where)
    )


def _surface(value: object, where: str) -> Surface:
    """The phrasing half a packet set uses: follow-ups come from the same half as its packets."""
    for surface in SURFACES:
        if value == surface:
            return surface
    raise InputError(f"'surface' must be one of {', '.join(SURFACES)}", file=where)


def parent_of(
    pid: str,
    sample: int,
    request: Mapping[str, object],
    key: Mapping[str, object],
    reply: str | None,
    decision: str | None,
    refused: bool = False,
) -> Parent:
    """One parent (packet, sample) for the forks: its request, key, frozen reply and decision
    (`refused`: the reply is a refusal)."""
    msgs = request["messages"]
    menu = request["menu"]
    assert isinstance(msgs, list) and isinstance(menu, list)
    return Parent(
        packet_id=pid,
        sample=sample,
        messages=tuple((str(m["role"]), str(m["content"])) for m in msgs),
        menu=tuple(MenuItem(code=str(m["code"]), text=str(m["text"])) for m in menu),
        ledger=Ledger.from_json(str(key["source_id"]), str(key["domain"]), key["ledger"]),
        proceed_is_a=key["proceed_code"] == "A",
        reply=reply,
        reply_sha256=sha256_hex(reply) if reply is not None else None,
        decision=decision,
        refused=refused,
    )


def sendable(parent: Parent) -> bool:
    """A parent can be continued only with a reply that has text in it: a missing reply, a runner
    error and an empty or blank reply (which the Anthropic Messages API rejects as an assistant
    turn) give forks that are never sent and score as `runner_error`; a refusal's forks are never
    sent either, and score `refused_parent` (docs/FORKS.md, point 7)."""
    return parent.reply is not None and parent.reply != "" and not parent.reply.isspace()


def fork_request(fork: Fork, run_set: str) -> JsonObject:
    msgs = [{"role": r, "content": c} for r, c in fork.messages]
    return {
        "packet_id": fork.packet_id,
        "packet_set": run_set,
        "parent": fork.parent.packet_id,
        "parent_sample": fork.parent.sample,
        "parent_reply_sha256": fork.parent.reply_sha256,
        "messages": msgs,
        "menu": [{"code": m.code, "text": m.text} for m in fork.parent.menu],
        "request_sha256": request_digest(fork.packet_id, fork.messages),
    }


def fork_key(fork: Fork, parent_key: Mapping[str, object], round_: int) -> JsonObject:
    edit = (
        None
        if fork.edit is None
        else {"slot": fork.edit.slot, "from": fork.edit.before, "to": fork.edit.after}
    )
    return {
        "packet_id": fork.packet_id,
        "round": round_,
        "parent": fork.parent.packet_id,
        "parent_sample": fork.parent.sample,
        "parent_reply_sha256": fork.parent.reply_sha256,
        "parent_decision": fork.parent.decision,
        "parent_state": parent_key["state"],
        "parent_acceptable": parent_key["acceptable"],
        "fork": fork.kind,
        "pressure": fork.pressure,
        "push": action_code(fork.push, fork.parent.proceed_is_a),
        "direction": fork.direction,
        "source_id": parent_key["source_id"],
        "domain": parent_key["domain"],
        "split": parent_key["split"],
        "family": parent_key["family"],
        "proceed_code": parent_key["proceed_code"],
        "state": fork.expected.state,
        "action": fork.expected.action,
        "ask": fork.expected.ask,
        "acceptable": list(fork.acceptable),
        "forbidden": list(fork.forbidden),
        "edit": edit,
        "minimal_pair": fork.minimal_pair,
        "ledger": fork.ledger.to_json(),
        "sendable": sendable(fork.parent),
        # Only on the forks of a refusal, so a run without one is byte for byte what it was.
        **({"parent_refused": True} if fork.parent.refused else {}),
    }


def advance(
    parents: ParentSet,
    replies: Sequence[Path],
    *,
    fmt: Format | None = None,
    protocol: Protocol = "default",
    require_complete: bool = False,
    meter: Meter = SILENT,
    retry_refused: bool = False,
) -> dict[str, bytes]:
    """frozen.jsonl, run.json, round{k+1}.jsonl and round{k+1}.key.jsonl, as bytes."""
    choice(protocol, "protocol", PROTOCOLS)  # as `advance --protocol` holds it, before any read
    envelopes, _ = read_replies(paths(replies, "replies"), fmt)
    built = advance_round(
        parents,
        envelopes,
        protocol=protocol,
        require_complete=require_complete,
        where=str(replies[0]) if replies else None,
        meter=meter,
        retry_refused=retry_refused,
    )
    return built.files


def advance_round(
    parents: ParentSet,
    envelopes: Sequence[Envelope],
    *,
    protocol: Protocol = "default",
    require_complete: bool = False,
    where: str | None = None,
    meter: Meter = SILENT,
    retry_refused: bool = False,
) -> Built:
    """`advance` of replies already read: the ids checked for room first, then the round built."""
    check_id_room(parents, envelopes, where)
    return build(
        parents,
        envelopes,
        protocol=protocol,
        require_complete=require_complete,
        where=where,
        meter=meter,
        retry_refused=retry_refused,
    )


@dataclass(frozen=True, slots=True)
class Built:
    """What advance makes: the run's files, and the records of round{k+1}.jsonl and its key as
    objects (a score of the run reads them from here instead of parsing the files again).

    A caller that has just built a round and then checks the run it wrote passes the Built to the
    check (runcheck.check_run's `built`), which compares the run with it instead of building it a
    second time: advance is a pure function of the inputs `made_from` names."""

    files: dict[str, bytes]
    requests: list[JsonObject]
    keys: list[JsonObject]
    made_from: tuple[object, ...] | None = None
    """The identity of the inputs: the parents (their source files' SHA-256, round, sets, seed
    and ids), the protocol and the frozen replies' SHA-256; None for parents read from no file."""


def made_from(parents: ParentSet, protocol: str, frozen_sha256: str) -> tuple[object, ...] | None:
    """What `Built.made_from` is for a round built from these inputs (None: parents of no file)."""
    if not parents.source:
        return None
    ids = sha256_hex("\n".join(sorted(parents.requests)) + "\0" + "\n".join(sorted(parents.keys)))
    return (
        parents.source,
        parents.round,
        parents.layer,
        parents.packet_set,
        parents.parent_set,
        parents.seed,
        ids,
        protocol,
        frozen_sha256,
    )


def build(
    parents: ParentSet,
    envelopes: Sequence[Envelope],
    *,
    protocol: Protocol = "default",
    require_complete: bool = False,
    where: str | None = None,
    meter: Meter = SILENT,
    retry_refused: bool = False,
) -> Built:
    """Freeze the replies and grow the next round's forks: the files and records (a pure function
    of its arguments; nothing is remembered). With `retry_refused`, a refusal gives way to an
    answer for the same slot (score.settle)."""
    frozen = freeze(
        parents,
        envelopes,
        protocol=protocol,
        require_complete=require_complete,
        where=where,
        retry_refused=retry_refused,
    )
    built = assemble(
        parents, frozen, grow(parents, frozen, frozen.parents, where=where, meter=meter)
    )
    return dataclasses.replace(
        built, made_from=made_from(parents, protocol, sha256_hex(frozen.data))
    )


FORK_SUFFIX: Final = FORK_ID_BITS // 4


def check_id_room(parents: ParentSet, envelopes: Sequence[Envelope], where: str | None) -> None:
    """Each round adds a suffix to the ids; refuse, before any work, a round whose ids would no
    longer fit the 64 characters of an exported id."""
    if not parents.requests:
        return
    samples = [env.sample for env in envelopes] + [unbind(env.ref).sample or 0 for env in envelopes]
    longest = max(len(pid) for pid in parents.requests) + FORK_SUFFIX
    sample = max(samples, default=0)
    exported = longest + len(f"_{'0' * 12}") + (len(f"_s{sample}") if sample else 0)
    if exported > 64:
        raise InputError(
            f"round-{parents.round + 1} fork ids would be {exported} characters once exported, "
            f"more than the 64 runners accept: this chain ends at round {parents.round}",
            file=where,
        )


@dataclass(frozen=True, slots=True)
class Frozen:
    """A round's settled replies: frozen.jsonl, the parents they make, the run set they give the
    next round, and which forks each parent gets. Every shard of an advance makes the same."""

    data: bytes
    parents: list[Parent]
    run_set: str
    kinds: dict[tuple[str, int], list[tuple[ForkKind, PressureType | None]]]
    protocol: Protocol
    threads: dict[tuple[str, int], sustained.Thread] = field(default_factory=dict)
    """The sustained protocol's thread per parent (empty for the others)."""


def freeze(
    parents: ParentSet,
    envelopes: Sequence[Envelope],
    *,
    protocol: Protocol,
    require_complete: bool,
    where: str | None,
    retry_refused: bool = False,
) -> Frozen:
    matched = match(envelopes, parents.requests, parents.parent_set, retry_refused=retry_refused)
    samples = samples_of(matched)
    if len(samples) > MAX_ADVANCE_SAMPLES:
        raise InputError(
            f"the replies hold {len(samples)} distinct sample numbers; advance continues at most "
            f"{MAX_ADVANCE_SAMPLES} samples per packet (docs/SCALE.md): advance the replies of "
            "fewer samples",
            file=where,
        )
    frozen, parent_objs = [], []
    missing = 0
    for pid in sorted(parents.requests):
        for sample in samples:
            env = matched.get((pid, sample))
            reply = env.reply if env is not None else None
            missing += env is None
            parsed = parse_decision(
                reply,
                menu_codes(parents.requests[pid]),
                runner_error=env is not None and env.error is not None,
            )
            line: JsonObject = {
                "packet_id": pid,
                "sample": sample,
                "reply": reply,
                "reply_sha256": sha256_hex(reply) if reply is not None else None,
                "error": env.error if env is not None else "missing reply",
                "model": env.model if env is not None else None,
                "decision": parsed.decision,
                "reason": parsed.reason,
            }
            if env is not None and env.usage is not None:
                # Only where the reply carried it: a run of replies without usage is byte for byte
                # what it was. Kept so the next round's report can sum this round's tokens.
                line["usage"] = {"input_tokens": env.usage[0], "output_tokens": env.usage[1]}
            frozen.append(line)
            parent_objs.append(
                parent_of(
                    pid,
                    sample,
                    parents.requests[pid],
                    parents.keys[pid],
                    reply,
                    parsed.decision,
                    refused=env is not None and is_refusal(env.error),
                )
            )
    if require_complete and missing:
        raise InputError(
            f"{missing} round-{parents.round} packet-sample(s) have no reply", file=where
        )
    frozen_bytes = jsonl(frozen)
    run_set = digest(
        {"parent_set": parents.parent_set, "frozen": sha256_hex(frozen_bytes), "protocol": protocol}
    )[:12]
    escalation = {
        (p.packet_id, p.sample)
        for p in parent_objs
        if parents.keys[p.packet_id]["state"] == "escalation"
    }
    if protocol == "sustained" and parents.round >= 2:
        kinds, threads = sustained.continue_plan(
            parent_objs, parents.keys, parents.seed, parents.round + 1, where=where
        )
        return Frozen(frozen_bytes, parent_objs, run_set, kinds, protocol, threads)
    kinds = plan([(p.packet_id, p.sample) for p in parent_objs], parents.seed, protocol, escalation)
    threads = sustained.round2_threads(kinds) if protocol == "sustained" else {}
    return Frozen(frozen_bytes, parent_objs, run_set, kinds, protocol, threads)


def grow(
    parents: ParentSet,
    frozen: Frozen,
    chosen: Sequence[Parent],
    *,
    where: str | None,
    meter: Meter = SILENT,
) -> list[Fork]:
    """The forks of the chosen parents (all of them, or a shard's), sorted by id."""
    forks = []
    meter.expect(len(chosen))
    for parent in chosen:
        meter.tick(1)
        domain = by_name(str(parents.keys[parent.packet_id]["domain"]), value_grid(parents.surface))
        thread = frozen.threads.get((parent.packet_id, parent.sample))
        try:
            forks += make_forks(
                domain,
                parent,
                frozen.kinds[(parent.packet_id, parent.sample)],
                parents.seed,
                held_out=held_out_phrasings(parents.surface),
                push=thread.push if thread is not None else None,
                # Sustained rounds 3 on: a sign-off ends its message (followups.SIGN_OFFS).
                sign_off_last=frozen.protocol == "sustained" and parents.round >= 2,
            )
        except ValueError as exc:
            raise InputError(
                f"cannot continue packet {parent.packet_id}: {exc}", file=where
            ) from None
    forks.sort(key=lambda f: f.packet_id)
    if len({f.packet_id for f in forks}) != len(forks):
        raise InputError("fork id collision; report this as a bug", file=where)
    return forks


def run_info(parents: ParentSet, frozen: Frozen, forks: int, requests: int) -> JsonObject:
    """run.json: what the round is and how many of everything it holds."""
    return {
        "kit_version": __version__,
        "round": parents.round + 1,
        "layer": parents.layer,
        "packet_set": parents.packet_set,
        "parent_set": parents.parent_set,
        "run_set": frozen.run_set,
        "protocol": frozen.protocol,
        "seed": str(parents.seed),
        "surface": parents.surface,
        "frozen_sha256": sha256_hex(frozen.data),
        "counts": {
            "parents": len(frozen.parents),
            "parents_without_reply": sum(1 for p in frozen.parents if not sendable(p)),
            "forks": forks,
            "requests": requests,
        },
    }


def fork_lines(
    parents: ParentSet, frozen: Frozen, forks: Sequence[Fork]
) -> tuple[list[JsonObject], bytes, list[JsonObject]]:
    """(request records, the request file's bytes, key records) of sorted forks. The lines go
    straight into one buffer whose bytes are handed over without a copy (BytesIO.getvalue shares
    them), so the file is held once, not as a list of lines and again as their join."""
    k = parents.round + 1
    writer = RequestLines(frozen.run_set)
    requests, out = [], io.BytesIO()
    for fork in forks:
        if sendable(fork.parent):
            record, line = writer.line(fork)
            requests.append(record)
            out.write(line)
    keys = [fork_key(f, parents.keys[f.parent.packet_id], k) for f in forks]
    if frozen.threads:
        for fork, key in zip(forks, keys):
            key.update(
                sustained.thread_fields(
                    frozen.threads[(fork.parent.packet_id, fork.parent.sample)], fork
                )
            )
    return requests, out.getvalue(), keys


def assemble(parents: ParentSet, frozen: Frozen, forks: Sequence[Fork]) -> Built:
    k = parents.round + 1
    requests, lines, keys = fork_lines(parents, frozen, forks)
    files = {
        FROZEN_FILE: frozen.data,
        RUN_FILE: (dumps(run_info(parents, frozen, len(forks), len(requests))) + "\n").encode(
            "utf-8"
        ),
        f"round{k}.jsonl": lines,
        f"round{k}.key.jsonl": jsonl(keys),
    }
    return Built(files, requests, keys)


class RequestLines:
    """Lines of round{k+1}.jsonl, each exactly `dumps(fork_request(fork, run_set))` encoded in
    UTF-8, and the record itself. A parent's forks share its menu, messages and frozen reply:
    those are encoded once per parent, to JSON and to bytes, and the request's digest is taken
    over the same pieces, fed to the hash one by one, instead of over a text built per fork."""

    def __init__(self, run_set: str) -> None:
        self._run_set = json_text(run_set).encode("utf-8")
        self._run_set_text = run_set
        self._parents: dict[
            tuple[str, int], tuple[bytes, bytes, bytes, list[JsonObject], list[JsonObject]]
        ] = {}

    def _parent(
        self, parent: Parent
    ) -> tuple[bytes, bytes, bytes, list[JsonObject], list[JsonObject]]:
        found = self._parents.get((parent.packet_id, parent.sample))
        if found is None:
            assert parent.reply is not None, "a fork needs its parent's reply"
            menu: list[JsonObject] = [{"code": m.code, "text": m.text} for m in parent.menu]
            messages: list[JsonObject] = [
                {"role": r, "content": c}
                for r, c in (*parent.messages, ("assistant", parent.reply))
            ]
            said = ",".join(
                f'{{"content":{json_text(str(m["content"]))},"role":{json_text(str(m["role"]))}}}'
                for m in messages
            )
            # The fields after "packet_set" that are the parent's, in dumps' (sorted) order.
            tail = (
                f',"parent":{json_text(parent.packet_id)},"parent_reply_sha256":{json_text(parent.reply_sha256)},'
                f'"parent_sample":{parent.sample},"request_sha256":"'
            )
            found = (
                dumps(menu).encode("utf-8"),
                said.encode("utf-8"),
                tail.encode("utf-8"),
                menu,
                messages,
            )
            self._parents[(parent.packet_id, parent.sample)] = found
        return found

    def line(self, fork: Fork) -> tuple[JsonObject, bytes]:
        parent = fork.parent
        menu_json, said, tail, menu, messages = self._parent(parent)
        pid = json_text(fork.packet_id).encode("utf-8")
        asked = b',{"content":' + json_text(fork.follow_up).encode("utf-8") + b',"role":"user"}]'
        # sha256 of '{"id":<id>,"messages":[<said>,<follow-up>]}', as request_digest makes it.
        digest_ = hashlib.sha256(b'{"id":' + pid + b',"messages":[')
        digest_.update(said)
        digest_.update(asked)
        digest_.update(b"}")
        request_sha256 = digest_.hexdigest()
        record: JsonObject = {
            "packet_id": fork.packet_id,
            "packet_set": self._run_set_text,
            "parent": parent.packet_id,
            "parent_sample": parent.sample,
            "parent_reply_sha256": parent.reply_sha256,
            "messages": [*messages, {"role": "user", "content": fork.follow_up}],
            "menu": menu,
            "request_sha256": request_sha256,
        }
        line = b"".join(
            (
                b'{"menu":',
                menu_json,
                b',"messages":[',
                said,
                asked,
                b',"packet_id":',
                pid,
                b',"packet_set":',
                self._run_set,
                tail,
                request_sha256.encode("ascii"),
                b'"}\n',
            )
        )
        return record, line


def run_files(k: int) -> list[str]:
    """The four files of a round-k run that advance writes (and a check rebuilds)."""
    return [FROZEN_FILE, RUN_FILE, f"round{k}.jsonl", f"round{k}.key.jsonl"]
