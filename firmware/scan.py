# Scanning the diode matrix: one row (seat) driven active at a time, the columns (keys) read
# while it is; the diodes keep the other rows' closed keys out of that reading.


def scan(matrix, rows, debouncer):
    """Reads every row of ``matrix`` once and hands each reading to ``debouncer``."""
    for row in range(rows):
        matrix.select(row)
        raw = matrix.columns()
        matrix.deselect(row)
        debouncer.update(row, raw)
