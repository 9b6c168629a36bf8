"""Queued updates merge into one frame that still says everything: all events in order, the latest view,
deadline and reveal; a fresh update's events (the recent history) replace those before it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from partygames.server import frames


def _update(version: int, since: int | None, events: list[int], fresh: bool = False,
            reveal: float | None = None) -> frames.Frame:
    wire = [frames.dumps({"version": version, "type": "tick", "data": {"n": n}}) for n in events]
    return frames.update(version, since, frames.dumps({"version": version}), wire, fresh, [f"a{version}"], None, reveal)


def _events(frame: frames.Frame | int | None) -> list[int]:
    assert isinstance(frame, dict)
    return [e["data"]["n"] for e in json.loads(frames.encode(frame))["events"]]


def test_updates_that_continue_each_other_merge_with_the_latest_reveal() -> None:
    merged = frames.merge_updates([_update(2, 1, [1], reveal=2.5), _update(3, 2, [2, 3], reveal=4.0)])
    assert len(merged) == 1
    assert _events(merged[0]) == [1, 2, 3]
    assert isinstance(merged[0], dict)
    decoded = json.loads(frames.encode(merged[0]))
    assert decoded["reveal"] == 4.0 and decoded["view"] == {"version": 3} and decoded["acks"] == ["a2", "a3"]


def test_a_fresh_update_brings_its_own_recent_history_instead_of_adding_to_the_last() -> None:
    merged = frames.merge_updates([_update(2, 1, [1]), _update(9, None, [7, 8, 9], fresh=True)])
    assert len(merged) == 1 and _events(merged[0]) == [7, 8, 9]
    assert isinstance(merged[0], dict) and json.loads(frames.encode(merged[0]))["fresh"] is True
    assert json.loads(frames.encode(_update(2, 1, [1])))["reveal"] is None  # a server that does not pace


def test_a_view_is_its_content_with_the_stamps_spliced_in() -> None:
    stamps = ("version", "time")
    view = {"game": "g", "version": 7, "time": 1500, "log": [1, 2], "name": "a,b}"}
    wire, content = frames.view_json(view, stamps)
    assert json.loads(wire) == view and wire.startswith('{"version":7,"time":1500,')  # stamps lead, in order
    assert json.loads(content) == {"game": "g", "log": [1, 2], "name": "a,b}"}
    later, same = frames.view_json({**view, "version": 8, "time": 2000}, stamps)
    assert same == content and later != wire
    assert frames.view_json({"version": 1}, stamps) == ('{"version":1}', "{}")
    assert frames.view_json({"game": "g"}, stamps) == ('{"game":"g"}', '{"game":"g"}')


# JSON as frames, views, events and stored rows hold it: any number (a client's `ref` may be a huge one),
# non-ASCII text, nested lists and objects, and keys that are not text (views key some maps by seat).
_numbers = st.integers() | st.floats(allow_nan=False, allow_infinity=False)
_json_values = st.recursive(
    st.none() | st.booleans() | _numbers | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5) | st.integers(0, 99), inner, max_size=4),
    max_leaves=20)


@given(_json_values)
def test_the_server_s_json_reads_back_as_the_standard_library_s(value: object) -> None:
    wire = frames.dumps(value)
    standard = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(wire) == json.loads(standard)
    assert wire.isascii() == standard.isascii()  # non-ASCII text is written as it is, not escaped


def test_the_server_s_json_takes_what_its_fast_encoder_refuses_and_writes_no_nan() -> None:
    assert frames.dumps({"ref": 10**30, "n": "日本"}) == '{"ref":1000000000000000000000000000000,"n":"日本"}'
    assert frames.dumps({0: "a", "1": [1.5, None, True]}) == '{"0":"a","1":[1.5,null,true]}'
    assert frames.dumps([float("nan")]) == "[null]"  # the browser's JSON.parse refuses NaN
