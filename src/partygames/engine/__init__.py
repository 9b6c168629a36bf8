"""The engine: pure game state machines, no I/O. See docs/engine.md for the contract."""

from partygames.engine.actions import Action, ActionSpec, choice, int_range, sequence, spec
from partygames.engine.bots import Bot, Observation, RandomBot
from partygames.engine.chance import Chance
from partygames.engine.errors import EngineError, IllegalAction, InvalidOptions, UnknownGame
from partygames.engine.game import Game
from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.engine.log import Entry, MatchLog
from partygames.engine.match import Deadline, Event, Match, Result, SeatResult, TimeLimit
from partygames.engine.options import Options
from partygames.engine.session import Session, play, replay
from partygames.engine.text import Text

__all__ = [
    "Action", "ActionSpec", "Bot", "Chance", "Deadline", "Determiniser", "EngineError", "Entry", "Event", "Game",
    "IllegalAction", "InvalidOptions", "Match", "MatchLog", "Observation", "Options", "RandomBot", "Result",
    "SeatRecord", "SeatResult", "Session", "Text", "TimeLimit", "UnknownGame", "choice", "int_range", "play",
    "replay", "sequence", "spec",
]
