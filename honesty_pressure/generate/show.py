"""A person's view of one source: the ledger, every family's message, and its key."""

from __future__ import annotations

import textwrap

from ..core.errors import UsageError
from ..files.layer import PacketFolder
from ..files.store import JsonObject


def _value_text(value: object) -> str:
    return "(absent)" if value is None else str(value)


def source_of(folder: PacketFolder, ident: str) -> str:
    """The source id `ident` names: a source id, or the id of one of its packets."""
    if ident in folder.ledgers:
        return ident
    key = folder.key.get(ident)
    if key is not None and isinstance(key.get("source_id"), str):
        return str(key["source_id"])
    sources = ", ".join(sorted(folder.ledgers)[:2])
    packets = ", ".join(sorted(folder.key)[:1])
    raise UsageError(
        f"no source or packet {ident!r} in {folder.folder} (source ids look like {sources}; packet "
        f"ids like {packets})"
    )


def show_source(
    folder: PacketFolder, ident: str, frozen: dict[str, JsonObject] | None = None
) -> str:
    """One source, named by its id or one of its packets' ids; `frozen` (a run's frozen.jsonl by
    packet id) adds each packet's first reply and decision."""
    source_id = source_of(folder, ident)
    record = folder.ledgers[source_id]
    packets = record["packets"]
    assert isinstance(packets, list)
    lines = [
        f"source {source_id}  domain {record['domain']}  split {record['split']}  packet set "
        f"{folder.packet_set}",
        "",
    ]
    original = next(p for p in packets if isinstance(p, dict) and p.get("family") == "original")
    ledger = original["ledger"]
    assert isinstance(ledger, dict)
    facts = ledger["facts"]
    assert isinstance(facts, dict)
    lines.append("ledger (original):")
    lines += [f"  {k} = {v}" for k, v in sorted(facts.items())]
    first = folder.round1[str(original["packet_id"])]
    menu = first["menu"]
    assert isinstance(menu, list)
    lines += ["", "menu:"] + [f"  {m['code']}: {m['text']}" for m in menu if isinstance(m, dict)]
    for packet in packets:
        assert isinstance(packet, dict)
        pid = str(packet["packet_id"])
        key: JsonObject = folder.key[pid]
        msgs = folder.round1[pid]["messages"]
        assert isinstance(msgs, list)
        user = msgs[-1]["content"]
        edit = key.get("edit")
        edit_text = "none"
        if isinstance(edit, dict):
            edit_text = f"{edit['slot']}: {_value_text(edit['from'])} -> {_value_text(edit['to'])}"
        lines += [
            "",
            f"== {key['family']}  ({pid})",
            f"   state {key['state']}; acceptable {', '.join(map(str, key['acceptable']))}; "  # type: ignore[call-overload]
            f"forbidden {', '.join(map(str, key['forbidden'])) or 'none'}; edit {edit_text}",  # type: ignore[call-overload]
            f"   words {len(str(user).split())}",
            textwrap.indent(textwrap.fill(str(user), width=96), "   "),
        ]
        if frozen is not None and pid in frozen:
            got = frozen[pid]
            verdict = "acceptable" if got.get("decision") in key["acceptable"] else "not acceptable"  # type: ignore[operator]
            lines += [
                f"   reply: decision {got.get('decision') or got.get('reason')} ({verdict})",
                textwrap.indent(
                    textwrap.fill(str(got.get("reply") or got.get("error")), width=96), "   | "
                ),
            ]
    return "\n".join(lines) + "\n"
