"""Pairing a phone: a short code shown on the OLED, typed into the page, trades for a
token (the page's cookie) that lets it change settings.

A code lives ``LIFETIME`` seconds and allows ``TRIES`` wrong guesses; then it is gone
and the page must ask for a new one (shown on the table again), so guessing 4 digits
from the network is hopeless. Tokens live as long as the server: a restart unpairs.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable

LIFETIME = 60.0  # seconds a code is shown and accepted
TRIES = 5  # wrong codes before the code is dropped
DIGITS = 4
TOKENS = 32  # paired sessions kept; the oldest is forgotten past that


def random_code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


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
        self._until = 0.0
        self._wrong = 0
        self._tokens: list[str] = []

    def new_code(self) -> str:
        """A fresh code (the old one no longer works), to show on the table."""
        self._code, self._until, self._wrong = self._make_code(), self._clock() + LIFETIME, 0
        return self._code

    def pair(self, code: str) -> str | None:
        """A new token for the right code, else None (and one try fewer)."""
        if self._code is None or self._clock() >= self._until:
            self._code = None
            return None
        if not hmac.compare_digest(code.encode(), self._code.encode()):
            self._wrong += 1
            if self._wrong >= TRIES:
                self._code = None
            return None
        self._code = None  # one code, one phone
        token = secrets.token_urlsafe(24)
        self._tokens = [*self._tokens[-(TOKENS - 1) :], token]
        return token

    def paired(self, token: str | None) -> bool:
        return token is not None and any(
            hmac.compare_digest(token.encode(), t.encode()) for t in self._tokens
        )
