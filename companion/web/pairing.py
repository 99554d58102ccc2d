"""Pairing a phone: a short code shown on the OLED, typed into the page, trades for a
token (the page's cookie) that lets it change settings.

A code lives ``LIFETIME`` seconds, and a new one is made at most once a ``LIFETIME``
(asking sooner is refused with the seconds to wait). Wrong guesses are counted across
codes: after ``TRIES`` of them the code is dropped and pairing is locked for a
``LIFETIME``, doubled at each lock-out up to ``LOCK_MAX``, until a phone pairs. So a
script gets 5 guesses a minute at first and 5 an hour after: about 3,600 a month
against a million codes, a chance of about 1 in 276 (docs/web.md).
Tokens live as long as the server: a restart unpairs.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable

LIFETIME = 60.0  # seconds a code is shown and accepted; one new code per LIFETIME
TRIES = 5  # wrong codes, in all, before a lock-out
LOCK_MAX = 3600.0  # the longest lock-out, seconds
DIGITS = 6  # a million codes: docs/web.md works out the odds of guessing one
TOKENS = 32  # paired sessions kept; the oldest is forgotten past that


def random_code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


def well_formed(code: str) -> bool:
    """Whether ``code`` looks like one: ``DIGITS`` ASCII digits (and nothing to encode)."""
    return len(code) == DIGITS and code.isascii() and code.isdigit()


class TooSoon(Exception):
    """No new code yet: ``seconds`` to wait, while a code is on show or, ``locked``, while
    pairing is locked after too many wrong codes."""

    def __init__(self, seconds: float, locked: bool = False):
        super().__init__(f"wait {seconds:.0f} s")
        self.seconds = seconds
        self.locked = locked


class NotPaired(Exception):
    """Why a code did not pair, so the page can say what is true."""


class WrongCode(NotPaired):
    """Not the code on show: it still works, ``tries`` wrong codes more lock pairing."""

    def __init__(self, tries: int):
        super().__init__(f"wrong code, {tries} tries left")
        self.tries = tries


class NoCode(NotPaired):
    """No code is on show: none was asked for, it expired, or it was used."""

    def __init__(self) -> None:
        super().__init__("no code on show")


class Locked(NotPaired):
    """Too many wrong codes: pairing is locked for ``seconds`` more (this guess was not
    compared)."""

    def __init__(self, seconds: float):
        super().__init__(f"locked for {seconds:.0f} s")
        self.seconds = seconds


class Pairing:
    """The code on offer and the paired tokens. ``clock`` and ``make_code`` are seams
    (tests pass their own); not thread-safe by itself: the server holds a lock."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        make_code: Callable[[], str] = random_code,
    ):
        self._clock = clock
        self._make_code = make_code
        self._code: str | None = None
        self._until = 0.0  # the code on show expires; no new one before
        self._wrong = 0  # wrong guesses since the last lock-out or pairing
        self._locks = 0  # lock-outs since the last pairing: each lasts twice the last
        self._locked_until = 0.0
        self._tokens: list[str] = []

    def new_code(self) -> str:
        """A fresh code to show on the table; TooSoon while one is on show or locked."""
        now = self._clock()
        if now < self._locked_until:
            raise TooSoon(self._locked_until - now, locked=True)
        if now < self._until:
            raise TooSoon(self._until - now)
        self._code, self._until = self._make_code(), now + LIFETIME
        return self._code

    def pair(self, code: str) -> str:
        """A new token for the right code. Else NotPaired says why: Locked (for how
        long: the guess that locks it too), WrongCode (one try fewer in all), NoCode."""
        now = self._clock()
        if now < self._locked_until:
            self._code = None
            raise Locked(self._locked_until - now)
        if self._code is None or now >= self._until:
            self._code = None
            raise NoCode()
        if not (well_formed(code) and hmac.compare_digest(code.encode(), self._code.encode())):
            self._wrong += 1
            if self._wrong >= TRIES:
                self._lock(now)
                raise Locked(self._locked_until - now)
            raise WrongCode(TRIES - self._wrong)
        self._code, self._wrong, self._locks = None, 0, 0  # one code, one phone
        token = secrets.token_urlsafe(24)
        self._tokens = [*self._tokens[-(TOKENS - 1) :], token]
        return token

    def _lock(self, now: float) -> None:
        self._code, self._wrong = None, 0
        self._locked_until = now + min(LIFETIME * 2**self._locks, LOCK_MAX)
        self._locks += 1

    def paired(self, token: str | None) -> bool:
        return token is not None and any(
            hmac.compare_digest(token.encode(), t.encode()) for t in self._tokens
        )
