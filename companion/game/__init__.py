"""The game around the rules: records (the JSON codec), board profiles, narration.

Imports only ``companion.rules`` and the standard library.
"""
