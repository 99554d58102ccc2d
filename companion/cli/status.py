"""Exit statuses: one per cause, the same in every command."""

from __future__ import annotations

EXIT_CRASHED = 1  # a fault of ours: systemd's Restart=on-failure starts the table again
EXIT_BAD_INPUT = 2  # the user's mistake (a config, a file, an argument): one line says it
# The hardware is not here, or not now (no GPIO chip, its library, a pin another program
# holds, the hub's port): systemd starts the table again, and it may be there by then.
EXIT_NO_HARDWARE = 3
