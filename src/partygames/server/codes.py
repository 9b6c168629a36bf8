"""Every error code the server sends a client, each with its meaning (the table in docs/protocol.md).

The server names a code only by its member: `ServerError` takes a `Code`, so mypy refuses a bare
string, and a test refuses one in the JSON error bodies written by hand. The engine's codes are here
too, as the server relays them; the engine keeps its literals, since it never imports the server.
tests/server/test_codes.py checks that every code in `src/` is listed here, that every member is used,
that docs/protocol.md lists the same codes with the same meanings, and that the web client knows no
other code.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """An error code: the value is what goes on the wire, `meaning` its one line in docs/protocol.md."""

    meaning: str

    def __new__(cls, value: str, meaning: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        return member

    @classmethod
    def lookup(cls, value: str) -> Code | None:
        """The member whose value is `value`, if any (`Code(value)` would type-check as needing a meaning)."""
        member = cls._value2member_map_.get(value)
        return member if isinstance(member, cls) else None

    ROOM_NOT_FOUND = "room/not_found", "No room with that code."
    ROOM_NOT_OPEN = "room/not_open", "The room has started or is over; joining and lobby changes are closed."
    ROOM_FULL = "room/full", "No free human seat is left."
    ROOM_SEATS_EMPTY = "room/seats_empty", "A human seat is still free; fill it with bots or wait."
    ROOM_NOT_STARTED = "room/not_started", "The match has not started."
    ROOM_NOT_OVER = "room/not_over", "Replays, logs and the room's next match open when the match is over."
    ROOM_MOVED = ("room/moved", "The room's match moved to another server process (a takeover); the action was not "
                  "applied: send it again. The connection is closed so that the client reconnects.")
    ROOM_CLOSED = "room/closed", "The room was closed: nobody was at the table for a long time."
    ROOM_SPECTATORS_FULL = "room/spectators_full", "The room has as many spectators as it takes (100); closed 1013."
    ROOM_SEAT_KINDS = ("room/seat_kinds",
                       "`seat_kinds` has the wrong length, or an entry that is neither `human` nor one of the "
                       "game's `bot:<kind>`.")
    HOST_BAD_TOKEN = "host/bad_token", "Missing or wrong `X-Host-Token`."
    SEAT_BAD_TOKEN = "seat/bad_token", "The seat token is not valid for this room."
    SEAT_TAKEN = "seat/taken", "That seat is already taken."
    SEAT_NO_SUCH_SEAT = "seat/no_such_seat", "The room has no seat with that number."
    SEAT_PRESENT = ("seat/present", "That seat's player is here: a bot may take over once they have run out of time "
                    "or been away the room's while (`standin_after`).")
    SEAT_NOT_HUMAN = "seat/not_human", "`host_seat` (or the seat a bot is to stand in for) is not a human seat of the room."
    SEAT_NOT_YOURS = "seat/not_yours", "The action names another seat than the token's."
    SEAT_SPECTATOR = "seat/spectator", "Spectators cannot act."
    NAME_INVALID = ("name/invalid", "A display name must be 1-24 characters after trimming, with a visible one, and no "
                    "control characters or letters that show as blank (U+3164, U+2800).")
    NAME_TAKEN = ("name/taken", "Someone at the table already has that name, or one that looks the same (compared "
                  "after NFKC, case folding and Unicode's confusable letters).")
    BOT_UNKNOWN = "bot/unknown", "The game has no bot of that kind."
    GAME_UNKNOWN = "game/unknown", "No game with that id."
    NIGHT_UNKNOWN = "night/unknown", "No tournament with that id (`GET /api/nights` lists them)."
    NIGHT_SEATS = "night/seats", "The tournament does not take that many seats."
    GAME_CANNOT_SEAT = ("game/cannot_seat",
                        "A room's next game must seat its people: this game's seat counts leave them out.")
    OPTIONS_INVALID = "options/invalid", "Options (or a seat count) the game does not allow; from the engine."
    ACTION_MALFORMED = ("action/malformed",
                        "The action is not an object with a `type`, or a field is unknown, missing or of the "
                        "wrong kind; from the engine.")
    ACTION_NOT_ALLOWED = "action/not_allowed", "That action type is not allowed now; from the engine."
    ACTION_OUT_OF_RANGE = "action/out_of_range", "A field's value is outside what is allowed now; from the engine."
    ACTION_NOT_YOUR_TURN = "action/not_your_turn", "The match is not waiting for this seat; from the engine."
    ACTION_NO_SUCH_SEAT = "action/no_such_seat", "The match has no such seat; from the engine."
    ACTION_MATCH_OVER = "action/match_over", "The match is over; from the engine."
    ACTION_ILLEGAL = "action/illegal", "A game's refusal of an action that gives no more specific code."
    ENGINE_ERROR = "engine/error", "An engine refusal that gives no more specific code."
    MSG_TOO_LARGE = "msg/too_large", "A frame over 4096 bytes, or an HTTP body over 16 KiB."
    MSG_MALFORMED_JSON = "msg/malformed_json", "The frame is not JSON (`NaN` and `Infinity` included)."
    MSG_NUMBER_TOO_LARGE = "msg/number_too_large", "An integer beyond ±2^53."
    MSG_TOO_DEEP = "msg/too_deep", "JSON (a frame, an HTTP body, the `options` parameter) nested over 32 levels deep."
    MSG_INVALID_TEXT = ("msg/invalid_text",
                        "Text that is not valid Unicode: invalid UTF-8, or an unpaired surrogate (`\\ud800`).")
    MSG_NOT_OBJECT = "msg/not_object", "The frame is not a JSON object."
    MSG_UNKNOWN_TYPE = "msg/unknown_type", "The frame's `type` is not one of the protocol's."
    MSG_TIMEOUT = "msg/timeout", "An HTTP request's body did not arrive within 10 s of its head: HTTP 408, connection closed."
    MSG_INVALID = ("msg/invalid",
                   "A frame or HTTP body lacks a field, has an unknown one, or has a value of the wrong kind or size.")
    RATE_LIMITED = "rate/limited", "Too many frames, or too many HTTP `POST`s; this one was dropped."
    RATE_ROOM_LOOKUPS = ("rate/room_lookups",
                         "Too many lookups of room codes that do not exist from this address (20, then 12 a "
                         "minute); every lookup by code waits. WebSocket: closed 1013.")
    RATE_SOCKETS = "rate/sockets", "This client address already holds as many WebSockets as it may (64); closed 1013."
    RATE_CONNECTIONS = ("rate/connections", "This client address already holds as many connections as it may (128, "
                        "HTTP and WebSocket alike): HTTP 429, and the connection is closed.")
    CHAT_CHANNEL = "chat/channel", "This connection may not post to that channel now."
    CHAT_EMPTY = "chat/empty", "The chat text is empty once cleaned."
    CHAT_TOO_LONG = "chat/too_long", "The chat text is over the limit (300 characters)."
    CHAT_RATE_LIMITED = "chat/rate_limited", "Too many chat messages (5 per 10 seconds per connection)."
    SERVER_STORAGE = ("server/storage", "A change could not be stored, so it was not applied, or the database does not "
                      "answer: try again (HTTP 503 with `Retry-After`; a WebSocket is closed 1013).")
    SERVER_INTERNAL = "server/internal", "The server failed on the action; the room is reloaded from storage."
    ORIGIN_REFUSED = ("origin/refused",
                      "A WebSocket, or a change of a profile, from a page on another site: its `Origin` is not the "
                      "address the request came to, the public URL or an allowed origin (HTTP 403, before the "
                      "handshake).")
    PROFILE_UNKNOWN = ("profile/unknown",
                       "The request's profile cookie names no profile (forged, or deleted); HTTP 401, the cookie "
                       "is cleared and nothing else changes.")
    PROFILE_NOT_FOUND = "profile/not_found", "No profile with that id."
    PROFILE_COLOUR = "profile/colour", "A profile's colour is `#rrggbb`."
    PROFILE_VISIBILITY = "profile/visibility", "Who sees a profile's matches is `members` or `public`."
    PROFILE_EMOJI = ("profile/emoji", "A profile's emoji is one emoji as Unicode lists them (a flag, a skin tone or "
                     "a family is one), or empty for none.")
    TRANSFER_INVALID = ("transfer/invalid",
                        "A transfer link's token is unknown, already used or expired (a link works once, for 10 "
                        "minutes); HTTP 410.")
    GROUP_NOT_FOUND = ("group/not_found",
                       "No group with that id that the asker is in (to anyone else a group's page does not exist); "
                       "HTTP 404.")
    GROUP_INVITE_INVALID = ("group/invite_invalid",
                            "A group invite link's token is not the group's current one (forged, or renewed by the "
                            "maker); HTTP 410.")
    GROUP_NOT_MAKER = "group/not_maker", "Only the group's maker renews its invite link or removes a member (HTTP 403)."
    GROUP_MEMBER_UNKNOWN = "group/member_unknown", "The profile to remove is not a member of the group (HTTP 404)."
    GROUP_FULL = "group/full", "The group has its 100 members already (HTTP 409)."
    PASSKEY_CHALLENGE = ("passkey/challenge",
                         "A passkey ceremony's challenge is unknown, already used, expired (5 minutes) or was begun "
                         "by another browser; HTTP 410, nothing changes.")
    PASSKEY_INVALID = ("passkey/invalid",
                       "A passkey's answer does not verify (a bad signature, another origin or RP ID, a counter "
                       "that went back, malformed), or the passkey is already registered; nothing changes.")
    PASSKEY_UNKNOWN = "passkey/unknown", "No such passkey here (never registered, removed, or its profile deleted)."
    PASSKEY_INSECURE = ("passkey/insecure",
                        "Passkeys need a secure page: https, or localhost; on plain http the one-time link moves a "
                        "profile instead.")
    REPLAY_FORBIDDEN = ("replay/forbidden", "Only the seat's own token or tied profile, or the room's host, may replay "
                        "the match as that seat saw it (`?seat=N`); the public view is anyone's.")
    REPLAY_NO_MATCH = "replay/no_match", "The room has no finished match of that number (`?match=N`: 1, 2, ...)."
    REVIEW_NONE = "review/none", "No review of that seat of the room's latest match was asked for yet (`POST` asks)."
    REVIEW_RUNNING = ("review/running", "The room's match is not finished: only a finished match is reviewed (no live "
                      "help).")
    REVIEW_FORBIDDEN = ("review/forbidden", "Only the seat's own token or tied profile, or the room's host, may see or "
                        "ask for that seat's review.")
    REVIEW_DISABLED = "review/disabled", "This server runs no reviews (`--review-workers 0`); HTTP 503."
    REVIEW_FAILED = "review/failed", "The review could not be made (in a job's `error`: the match could not be reviewed)."
    FILE_NOT_FOUND = "file/not_found", "A game has no such web file."
    PATH_NOT_FOUND = "path/not_found", "No page, file or API at that path."
    PATH_METHOD = "path/method", "That path does not take this HTTP method."
