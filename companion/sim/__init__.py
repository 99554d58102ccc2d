"""The simulated parts, apart from the real adapters in ``companion.hw``: mock pins wired
as the pads' diode matrix, the hub's firmware behind a pty, fake OLED panels under luma's
real drivers, the terminal's keys and the window. They stand in for the electrons only:
the real adapters run on them unchanged."""
