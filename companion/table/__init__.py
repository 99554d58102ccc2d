"""The table: a pure state machine from input events to the next table and its effects.

``public_view()`` is the only place hidden choices are dropped; screens, the web page
and bots read the view, never the table's secrets.
"""
