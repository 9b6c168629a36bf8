"""A room's chat on its own (no server): who may post where, what is kept for someone arriving, and the
messages surviving a change of game."""

from __future__ import annotations

import pytest

from partygames.server.chat import RoomChat
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from tests.server.games import GAMES

TOY = GAMES["toy"]


def chat_of(game_id: str, seats: int = 4, per_channel: int = 2) -> RoomChat:
    game = GAMES[game_id]
    return RoomChat(game, seats, game.options_class.parse({}), per_channel)


def test_a_message_is_kept_escaped_and_shown_to_those_who_may_read_it() -> None:
    chat = chat_of("team-toy")
    channels = chat.channels(None)
    posted = chat.post(channels, "team:even", 2, "Aki", "<b>hi</b>", at=5.0)
    assert posted == {"type": "chat", "channel": "team:even", "seat": 2, "spectator": False, "name": "Aki",
                      "text": "&lt;b&gt;hi&lt;/b&gt;", "at": 5.0}
    assert chat.post(channels, "public", None, "watcher", "hello", at=6.0)["spectator"] is True
    assert chat.kept_for(channels, 0) == chat.log
    assert [m["text"] for m in chat.kept_for(channels, 1)] == ["hello"]  # odd seats never see the even team
    assert [m["text"] for m in chat.kept_for(channels, None)] == ["hello"]


def test_someone_arriving_gets_the_last_messages_of_each_channel() -> None:
    chat = chat_of("team-toy", per_channel=2)
    channels = chat.channels(None)
    for n in range(4):
        chat.post(channels, "public", 0, "Aki", f"p{n}", at=float(n))
        chat.post(channels, "team:odd", 1, "Ren", f"o{n}", at=float(n))
    assert [m["text"] for m in chat.kept_for(channels, 1)] == ["p2", "o2", "p3", "o3"]  # in order, 2 per channel
    assert [m["text"] for m in chat.kept_for(channels, 0)] == ["p2", "p3"]


def test_posting_where_the_seat_may_not_is_refused_and_keeps_nothing() -> None:
    chat = chat_of("team-toy")
    channels = chat.channels(None)
    for seat, channel in [(1, "team:even"), (None, "team:odd"), (0, "nowhere"), (0, "dm:0:1")]:
        with pytest.raises(ServerError) as refused:
            chat.post(channels, channel, seat, "X", "psst", at=1.0)
        assert refused.value.code == Code.CHAT_CHANNEL and refused.value.status == 403 and refused.value.ja
    assert chat.log == []


def test_private_messages_exist_for_any_two_seats_of_a_game_that_allows_them() -> None:
    chat = chat_of("dm-toy", seats=3)
    channels = chat.channels(None)
    chat.post(channels, "dm:0:2", 2, "Mio", "just us", at=1.0)
    assert [m["text"] for m in chat.kept_for(channels, 0)] == ["just us"] and chat.kept_for(channels, 1) == []
    with pytest.raises(ServerError):
        chat.post(channels, "dm:0:2", 1, "Ren", "me too", at=2.0)


def test_the_next_game_brings_its_own_channels_and_the_messages_stay() -> None:
    chat = chat_of("team-toy")
    chat.post(chat.channels(None), "team:even", 0, "Aki", "gg", at=1.0)
    chat.follow(TOY, TOY.options_class.parse({}))
    channels = chat.channels(None)
    assert not channels.named and not chat.follows_match
    assert chat.log[0]["text"] == "gg" and chat.kept_for(channels, 0) == []  # kept, but its channel is gone
    with pytest.raises(ServerError):
        chat.post(channels, "team:even", 0, "Aki", "still here?", at=2.0)
