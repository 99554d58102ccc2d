"""The page for phones: the board large, live; the history; the settings, once paired.

A layer under ``app``: it reads public views, the settings and the history, and puts
events on the loop's queue. The composition opens it as a watcher of the table
(``app.device.page`` around ``serve_table``).
"""
