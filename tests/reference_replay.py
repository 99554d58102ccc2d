"""A straightforward reference replay: ``python tests/reference_replay.py FILE.jsonl``.

Reads JSON Lines of game records and prints the replay output of each, using the
independent model. The benchmark compares ``companion replay --json`` with it.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import model

BOARDS = json.loads(
    (Path(__file__).parent.parent / "companion" / "data" / "boards.json").read_text()
)


def replay(doc):
    board = doc.get("board", "standard")
    rates = BOARDS[board]["trader_rates"] if isinstance(board, str) else board["trader_rates"]
    game = model.new_game(doc["players"], rates, doc.get("target", 30))
    for r in doc.get("rounds", []):
        model.play(game, r["plays"], r.get("trades", []))
    return model.output(game)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        for line in f:
            if line.strip():
                print(json.dumps(replay(json.loads(line))))
