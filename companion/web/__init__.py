"""The page for phones: the board large, live; the history; the settings, once paired.

A layer beside ``app``: it reads public views, the settings and the history, and puts
events on the loop's queue; ``cli`` wires it to a running table (``serve_table``).
"""
