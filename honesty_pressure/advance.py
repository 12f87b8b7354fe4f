"""`advance`: freeze round-k replies and grow round k+1's independent forks (DESIGN.md section 4).

Parents come from a packet layer (round 1) or from a run folder (round k > 1), so a chain of
successive pushes is the same step repeated. All output is returned as bytes; the CLI writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .canonical import digest, dumps, jsonl, sha256_hex
from .construct import SURFACES, Envelope, Format, Ledger, MenuItem, Protocol, Surface
from .domains import by_name
from .envelopes import read_envelopes
from .errors import InputError
from .fork import Fork, Parent, make_forks, plan
from .menu import action_code
from .parse import parse_decision
from .progress import SILENT, Meter
from .score import match, menu_codes, request_digest, samples_of
from .store import JsonObject, PacketFolder, keyed, load_layer, read_json, read_jsonl

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


def from_layer(folder: PacketFolder) -> ParentSet:
    """Round-1 packets as parents; each key gains its twin's ledger and the source's A/B order."""
    keys: dict[str, JsonObject] = {}
    for source_id, record in folder.ledgers.items():
        packets = record.get("packets")
        if not isinstance(packets, list):
            raise InputError(f"source {source_id} has no packets list", file=str(folder.folder / "ledgers.jsonl"))
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
    )


def from_run(run: Path) -> ParentSet:
    """A run's round-k forks as parents (for round k+1)."""
    info = read_json(run / RUN_FILE)
    k = info.get("round")
    if not isinstance(k, int) or isinstance(k, bool) or k < 2:
        raise InputError("'round' must be a whole number of at least 2", file=str(run / RUN_FILE))
    return ParentSet(
        round=k,
        layer=str(info.get("layer")),
        packet_set=str(info.get("packet_set")),
        parent_set=str(info.get("run_set")),
        seed=int(str(info.get("seed"))),
        surface=_surface(info.get("surface"), str(run / RUN_FILE)),
        requests=keyed(run / f"round{k}.jsonl"),
        keys=keyed(run / f"round{k}.key.jsonl"),
    )


def _surface(value: object, where: str) -> Surface:
    """The phrasing half a packet set uses: follow-ups come from the same half as its packets."""
    for surface in SURFACES:
        if value == surface:
            return surface
    raise InputError("'surface' must be public or held_out", file=where)


def _parent(pid: str, sample: int, request: Mapping[str, object], key: Mapping[str, object], reply: str | None, decision: str | None) -> Parent:
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
    )


def sendable(parent: Parent) -> bool:
    """A parent can be continued only with a reply that has text in it: a missing reply, a runner
    error and an empty or blank reply (which the Anthropic Messages API rejects as an assistant
    turn) give forks that are never sent and score as `runner_error` (docs/FORKS.md, point 7)."""
    return parent.reply is not None and bool(parent.reply.strip())


def fork_request(fork: Fork, run_set: str) -> JsonObject:
    msgs = [{"role": r, "content": c} for r, c in fork.messages]
    return {
        "packet_id": fork.packet_id,
        "packet_set": run_set,
        "source_id": fork.ledger.source_id,
        "parent": fork.parent.packet_id,
        "parent_sample": fork.parent.sample,
        "parent_reply_sha256": fork.parent.reply_sha256,
        "messages": msgs,
        "menu": [{"code": m.code, "text": m.text} for m in fork.parent.menu],
        "request_sha256": request_digest(fork.packet_id, fork.messages),
    }


def fork_key(fork: Fork, parent_key: Mapping[str, object], round_: int) -> JsonObject:
    edit = None if fork.edit is None else {"slot": fork.edit.slot, "from": fork.edit.before, "to": fork.edit.after}
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
        "ledger": fork.ledger.to_json(),
        "sendable": sendable(fork.parent),
    }


def advance(
    parents: ParentSet,
    replies: Sequence[Path],
    *,
    fmt: Format | None = None,
    protocol: Protocol = "default",
    require_complete: bool = False,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    """frozen.jsonl, run.json, round{k+1}.jsonl and round{k+1}.key.jsonl, as bytes."""
    envelopes = [env for path in replies for env in read_envelopes(path, fmt)]
    return advance_envelopes(
        parents, envelopes, protocol=protocol, require_complete=require_complete, where=str(replies[0]) if replies else None, meter=meter
    )


def advance_envelopes(
    parents: ParentSet,
    envelopes: Sequence[Envelope],
    *,
    protocol: Protocol = "default",
    require_complete: bool = False,
    where: str | None = None,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    """The same from envelopes already read (a run's integrity check rebuilds it from frozen.jsonl)."""
    matched = match(envelopes, parents.requests, parents.parent_set)
    samples = samples_of(matched)
    frozen, parent_objs = [], []
    missing = 0
    for pid in sorted(parents.requests):
        for sample in samples:
            env = matched.get((pid, sample))
            reply = env.reply if env is not None else None
            missing += env is None
            parsed = parse_decision(reply, menu_codes(parents.requests[pid]), runner_error=env is not None and env.error is not None)
            frozen.append(
                {
                    "packet_id": pid,
                    "sample": sample,
                    "reply": reply,
                    "reply_sha256": sha256_hex(reply) if reply is not None else None,
                    "error": env.error if env is not None else "missing reply",
                    "model": env.model if env is not None else None,
                    "decision": parsed.decision,
                    "reason": parsed.reason,
                }
            )
            parent_objs.append(_parent(pid, sample, parents.requests[pid], parents.keys[pid], reply, parsed.decision))
    if require_complete and missing:
        raise InputError(f"{missing} round-{parents.round} packet-sample(s) have no reply", file=where)
    frozen_bytes = jsonl(frozen)
    run_set = digest({"parent_set": parents.parent_set, "frozen": sha256_hex(frozen_bytes), "protocol": protocol})[:12]
    escalation = {(p.packet_id, p.sample) for p in parent_objs if parents.keys[p.packet_id]["state"] == "escalation"}
    kinds = plan([(p.packet_id, p.sample) for p in parent_objs], parents.seed, protocol, escalation)
    forks = []
    meter.expect(len(parent_objs))
    for parent in parent_objs:
        meter.tick(1)
        domain = by_name(str(parents.keys[parent.packet_id]["domain"]))
        try:
            forks += make_forks(domain, parent, kinds[(parent.packet_id, parent.sample)], parents.seed, held_out=parents.surface == "held_out")
        except ValueError as exc:
            raise InputError(f"cannot continue packet {parent.packet_id}: {exc}", file=where) from None
    forks.sort(key=lambda f: f.packet_id)
    if len({f.packet_id for f in forks}) != len(forks):
        raise InputError("fork id collision; report this as a bug", file=where)
    k = parents.round + 1
    info = {
        "kit_version": __version__,
        "round": k,
        "layer": parents.layer,
        "packet_set": parents.packet_set,
        "parent_set": parents.parent_set,
        "run_set": run_set,
        "protocol": protocol,
        "seed": str(parents.seed),
        "surface": parents.surface,
        "frozen_sha256": sha256_hex(frozen_bytes),
        "counts": {
            "parents": len(parent_objs),
            "parents_without_reply": sum(1 for p in parent_objs if not sendable(p)),
            "forks": len(forks),
            "requests": sum(1 for f in forks if sendable(f.parent)),
        },
    }
    return {
        FROZEN_FILE: frozen_bytes,
        RUN_FILE: (dumps(info) + "\n").encode("utf-8"),
        f"round{k}.jsonl": jsonl(fork_request(f, run_set) for f in forks if sendable(f.parent)),
        f"round{k}.key.jsonl": jsonl(fork_key(f, parents.keys[f.parent.packet_id], k) for f in forks),
    }


def frozen_envelopes(run: Path) -> list[Envelope]:
    """The frozen parent replies of a run, as envelopes (a missing reply has none)."""
    out = []
    for number, line in read_jsonl(run / FROZEN_FILE):
        if line.get("error") == "missing reply":
            continue
        reply, error, model = line.get("reply"), line.get("error"), line.get("model")
        out.append(
            Envelope(
                ref=str(line["packet_id"]),
                reply=reply if isinstance(reply, str) else None,
                error=error if isinstance(error, str) else None,
                request_sha256=None,
                request_messages=None,
                model=model if isinstance(model, str) else None,
                sample=int(str(line["sample"])),
                file=str(run / FROZEN_FILE),
                line=number,
            )
        )
    return out


def check_run(run: Path, packets: Path) -> tuple[JsonObject, PacketFolder | None]:
    """A run folder is evidence: refuse one whose files were edited after `advance` wrote them.

    frozen.jsonl must match run.json's hash. A round-2 run is rebuilt from its frozen replies and
    the packets and must come out byte for byte (so no key, request or frozen reply can be edited);
    a later round, whose parents live in another run, is checked for internal consistency: every
    request's hash, and every fork's parent reply against the frozen one. Returns run.json and,
    for a round-2 run, the round-1 packets it was rebuilt from.
    """
    info = read_json(run / RUN_FILE)
    k = info.get("round")
    if not isinstance(k, int) or isinstance(k, bool) or k < 2:
        raise InputError("'round' must be a whole number of at least 2", file=str(run / RUN_FILE))
    frozen = run / FROZEN_FILE
    try:
        frozen_bytes = frozen.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(frozen)) from None
    if sha256_hex(frozen_bytes) != info.get("frozen_sha256"):
        raise InputError("does not match the frozen_sha256 recorded in run.json (edited after advance?)", file=str(frozen))
    names = [FROZEN_FILE, RUN_FILE, f"round{k}.jsonl", f"round{k}.key.jsonl"]
    if k == 2:
        folder = load_layer(packets, str(info.get("layer")))
        if folder.packet_set != info.get("packet_set"):
            raise InputError(f"run is for packet set {info.get('packet_set')}, {folder.folder} holds {folder.packet_set}", file=str(run / RUN_FILE))
        protocol = next((p for p in ("default", "full") if p == info.get("protocol")), None)
        if protocol is None:
            raise InputError("'protocol' must be default or full", file=str(run / RUN_FILE))
        rebuilt = advance_envelopes(from_layer(folder), frozen_envelopes(run), protocol=protocol, where=str(frozen))
        for name in names:
            path = run / name
            if not path.is_file() or path.read_bytes() != rebuilt[name]:
                raise InputError("differs from what advance makes from the frozen replies and the packets (edited?)", file=str(path))
        return info, folder
    replies = {(str(r["packet_id"]), int(str(r["sample"]))): r.get("reply_sha256") for _, r in read_jsonl(frozen)}
    path = run / f"round{k}.jsonl"
    for number, request in read_jsonl(path):
        msgs = request.get("messages")
        if not isinstance(msgs, list) or len(msgs) < 2:
            raise InputError("a fork request needs its messages", file=str(path), line=number)
        pairs = [(str(m.get("role")), str(m.get("content"))) for m in msgs if isinstance(m, dict)]
        if request_digest(str(request.get("packet_id")), pairs) != request.get("request_sha256"):
            raise InputError("request_sha256 does not match the request's messages (edited?)", file=str(path), line=number)
        parent = (str(request.get("parent")), int(str(request.get("parent_sample"))))
        if sha256_hex(pairs[-2][1]) != request.get("parent_reply_sha256") or replies.get(parent) != request.get("parent_reply_sha256"):
            raise InputError("the parent reply in this request is not the frozen one", file=str(path), line=number)
    return info, None
