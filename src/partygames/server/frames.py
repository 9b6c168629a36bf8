"""The wire form of server frames.

An update's view and events are serialised the moment they are made, while the match is at that
version: engine views and event data may share lists with the match's state, which later actions
change. The writer then only splices the ready JSON into the frame.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

Frame = dict[str, Any]

# The standard library's encoder, built once, for what orjson refuses (an integer beyond 64 bits: a
# client's `ref` may be any JSON number).
_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(value: Any) -> str:
    """Compact JSON, non-ASCII kept as is: every frame, view, event and stored row the server writes.
    Several a step, so orjson: it reads back as json.dumps's would (a float may be spelt differently,
    1e-7 for 1e-07), but NaN, which browsers refuse, is written as null."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return _json(value)


def view_json(view: dict[str, Any], stamps: Sequence[str]) -> tuple[str, str]:
    """A view's wire JSON and its content: the JSON without `stamps`, the fields that only say when the
    view was made (its version, a real-time game's current time), which lead the wire JSON in the order
    given. Spliced, so the view is dumped once."""
    stamped = [(k, view[k]) for k in stamps if k in view]
    if not stamped:
        content = dumps(view)
        return content, content
    rest = dict(view)  # the view is not ours to change
    for k, _ in stamped:
        del rest[k]
    content = dumps(rest)
    # Stamps are few and mostly whole numbers: written by hand, they cost no second encoder run.
    stamp = ",".join([f'"{k}":{v:d}' if type(v) is int else f"{dumps(k)}:{dumps(v)}" for k, v in stamped])
    return (f"{{{stamp}}}" if content == "{}" else f"{{{stamp},{content[1:]}"), content


def update(version: int, since: int | None, view_json: str, events_json: list[str], fresh: bool,
           acks: list[Any], deadline: dict[str, Any] | None, reveal: float | None = None) -> Frame:
    """An `update` frame (see docs/protocol.md); `since` is kept to know which updates may merge."""
    return {"type": "update", "version": version, "since": since, "view": view_json, "events": events_json,
            "fresh": fresh, "acks": acks, "deadline": deadline, "reveal": reveal}


def encode(frame: Frame) -> str:
    if frame["type"] != "update":
        return dumps(frame)
    return (f'{{"type":"update","version":{frame["version"]:d},"view":{frame["view"]},'
            f'"events":[{",".join(frame["events"])}],"fresh":{"true" if frame["fresh"] else "false"},'
            f'"acks":{_small(frame["acks"])},"deadline":{_small(frame["deadline"])},'
            f'"reveal":{_small(frame["reveal"])}}}')


def _small(value: Any) -> str:
    """A frame's small part (acks, deadline, reveal), mostly empty: those written without the encoder."""
    if value is None:
        return "null"
    return "[]" if value == [] else dumps(value)


def merge_updates(frames: list[Frame | int | None]) -> list[Frame | int | None]:
    """Merges runs of consecutive updates that continue each other (the latest view, all events, all
    acks, the latest reveal), unless an update is to stay `apart` (the events of a reveal an arriving connection
    is to watch, after the match as it was before it); other frames keep their place. A close marker (a close code, or None) is
    kept as is."""
    if len(frames) < 2:  # the usual case: one frame waiting
        return frames
    merged: list[Frame | int | None] = []
    for frame in frames:
        last = merged[-1] if merged else None
        if (isinstance(frame, dict) and isinstance(last, dict) and frame["type"] == "update" and last["type"] == "update"
                and (frame["fresh"] or frame["since"] == last["version"]) and not frame.get("apart")):
            # A fresh update's events are the recent history, which already ends with the newest events.
            events = frame["events"] if frame["fresh"] else last["events"] + frame["events"]
            merged[-1] = {**frame, "since": last["since"], "events": events,
                          "acks": last["acks"] + frame["acks"], "fresh": last["fresh"] or frame["fresh"]}
        else:
            merged.append(frame)
    return merged
