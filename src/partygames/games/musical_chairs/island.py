"""The digital island: an ellipse of land with the totem pole at its centre, in whole metres.

Distances are whole metres (the straight line, rounded up), travel times whole milliseconds (rounded
up), so that every arrival is an exact moment. Everything here is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import isqrt
from typing import Any

from partygames.engine.chance import Chance

Point = tuple[int, int]

#: Chance labels of the set-up draws (scriptable in tests): chair and starting-spot coordinates.
CHAIR_X, CHAIR_Y = "chair:x", "chair:y"
START_X, START_Y = "start:x", "start:y"

#: How far from the totem and from each other the drawn chairs stand (metres), and from the shore.
PLAZA_RADIUS = 25
CHAIR_SPACING = 12
SHORE_MARGIN = 4


@dataclass(frozen=True, slots=True)
class Island:
    """An elliptic island inside the box [0, width] x [0, height]; the totem at the centre."""

    width: int
    height: int

    @property
    def totem(self) -> Point:
        return self.width // 2, self.height // 2

    def on_land(self, point: Point, margin: int = 0) -> bool:
        """Whether the point is on the island (and `margin` metres in from the shore)."""
        cx, cy = self.width // 2, self.height // 2  # the totem (drawn starts ask some 40 times a match)
        rx, ry = cx - margin, cy - margin
        if rx <= 0 or ry <= 0:
            return False
        dx, dy = point[0] - cx, point[1] - cy
        return (dx * ry) ** 2 + (dy * rx) ** 2 <= (rx * ry) ** 2

    def clamp(self, point: Point) -> Point:
        """The point, or if it is in the sea the last point on land on the way from the totem to it."""
        if self.on_land(point):
            return point
        cx, cy = self.totem
        low, high = 0, 1024  # the largest k/1024 of the way that stays on land
        while low < high:
            mid = (low + high + 1) // 2
            if self.on_land(_toward((cx, cy), point, mid, 1024)):
                low = mid
            else:
                high = mid - 1
        return _toward((cx, cy), point, low, 1024)

    def to_json(self) -> dict[str, Any]:
        cx, cy = self.totem
        return {"width": self.width, "height": self.height, "totem": [cx, cy],
                "rx": self.width // 2, "ry": self.height // 2}


#: The drawn island: 240 m by 160 m.
DRAWN = Island(240, 160)
#: The fixed test island: a disc of radius 100 m; chairs at whole distances from the totem (100, 100).
TEST = Island(200, 200)
TEST_CHAIRS: tuple[Point, ...] = (
    (130, 140),  # 1: 50 m from the totem
    (64, 148),   # 2: 60 m
    (100, 30),   # 3: 70 m
    (52, 36),    # 4: 80 m
    (154, 28),   # 5: 90 m
    (160, 100),  # 6: 60 m (as far as chair 2)
    (100, 140),  # 7: 40 m
    (20, 100),   # 8: 80 m (as far as chair 4)
)


def _toward(start: Point, end: Point, num: int, den: int) -> Point:
    """The point num/den of the way from start to end, rounded to whole metres."""
    return (start[0] + _round_div((end[0] - start[0]) * num, den),
            start[1] + _round_div((end[1] - start[1]) * num, den))


def _round_div(a: int, b: int) -> int:
    """a / b rounded half up, for b > 0."""
    return (2 * a + b) // (2 * b)


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """The straight-line distance in whole metres, rounded up."""
    square = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    root = isqrt(square)
    return root if root * root == square else root + 1


def travel_ms(metres: int, speed: int) -> int:
    """Milliseconds to cover `metres` at `speed` metres per second, rounded up."""
    return -(-metres * 1000 // speed)


def position(motion: dict[str, Any], now: int) -> Point:
    """Where a course {from, to, start, arrive} has got to at `now` (whole metres)."""
    start, arrive = motion["start"], motion["arrive"]
    if now >= arrive:
        return motion["to"][0], motion["to"][1]
    begin = motion["from"]
    if now <= start:
        return begin[0], begin[1]
    return _toward((begin[0], begin[1]), (motion["to"][0], motion["to"][1]), now - start, arrive - start)


def course(origin: Point, target: Point, now: int, speed: int) -> dict[str, Any]:
    """A straight course from origin to target starting at `now`."""
    x0, y0 = origin
    x1, y1 = target
    # `travel_ms(distance(origin, target), speed)` written out (a course is set at every step of a race)
    square = (x0 - x1) ** 2 + (y0 - y1) ** 2
    metres = isqrt(square)
    if metres * metres != square:
        metres += 1
    return {"from": [x0, y0], "to": [x1, y1], "start": now, "arrive": now - (-metres * 1000 // speed)}


def draw_chairs(island: Island, count: int, chance: Chance) -> list[Point]:
    """`count` chairs on land, off the plaza and apart from each other, drawn from the match's source."""
    chairs: list[Point] = []
    while len(chairs) < count:
        point = (chance.randint(CHAIR_X, 0, island.width), chance.randint(CHAIR_Y, 0, island.height))
        if (island.on_land(point, SHORE_MARGIN) and distance(point, island.totem) >= PLAZA_RADIUS
                and all(distance(point, other) >= CHAIR_SPACING for other in chairs)):
            chairs.append(point)
    return chairs


def draw_start(island: Island, chance: Chance) -> Point:
    """A starting spot anywhere on land."""
    while True:
        point = (chance.randint(START_X, 0, island.width), chance.randint(START_Y, 0, island.height))
        if island.on_land(point, SHORE_MARGIN):
            return point
