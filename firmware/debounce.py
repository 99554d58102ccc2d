# Debouncing: a key's new level counts once it has read the same in several scans in a row,
# so a chattering contact never gives two presses. Keys are bits of one int per row (bit
# k = key k + 1), and an idle row costs one comparison: the Pico runs this every scan.


class Debouncer:
    def __init__(self, rows, readings, changed):
        """``changed(row, key, down)`` hears each debounced change (row and key from 0)."""
        self.down = bytearray(rows)  # the debounced levels: bit set = key down
        self._counting = bytearray(rows)  # keys read unlike ``down`` in the latest scans
        self._counts = bytearray(rows * 8)
        self._readings = readings
        self._changed = changed

    def busy(self):
        """Whether some key is between levels (the simulation scans faster then)."""
        return any(self._counting)

    def reading(self, row):
        """The bits of the keys of ``row`` that read closed in the latest scan: a key
        still counting reads unlike its debounced level (``update`` keeps it so)."""
        return self.down[row] ^ self._counting[row]

    def update(self, row, raw):
        """Takes one scan's reading of ``row``: ``raw`` has a bit set per closed key."""
        differ = raw ^ self.down[row]
        counting = self._counting[row]
        if not (differ | counting):
            return
        base = row * 8
        for key in range(8):
            bit = 1 << key
            if differ & bit:
                count = self._counts[base + key] + 1
                if count < self._readings:
                    self._counts[base + key] = count
                    counting |= bit
                    continue
                self.down[row] ^= bit
                self._changed(row, key, bool(raw & bit))
            elif not counting & bit:
                continue
            self._counts[base + key] = 0  # taken, or read back at its old level: a bounce
            counting &= ~bit
        self._counting[row] = counting
