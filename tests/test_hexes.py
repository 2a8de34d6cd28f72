"""Hex geometry (NOTATION §2)."""

from solver.hexes import EXTENDED, STANDARD, Board, Direction, Hex


def test_labels_match_the_notation_diagram():
    assert Hex.parse("c3") == Hex(0, 0)
    assert Hex.parse("a1") == Hex(-2, 0)
    assert Hex.parse("b1") == Hex(-1, -1)
    assert Hex.parse("d4") == Hex(1, 1)
    assert Hex.parse("e3") == Hex(2, 0)
    assert Hex.parse("(0,-3)") == Hex(0, -3)
    assert Hex(0, -3).label == "(0,-3)"


def test_neighbours_of_c3_follow_the_notation_example():
    c3 = Hex.parse("c3")
    names = {d.name: c3.neighbour(d).label for d in Direction}
    assert names == {"N": "c2", "NE": "d2", "SE": "d3", "S": "c4", "SW": "b3", "NW": "b2"}


def test_board_sizes():
    assert len(STANDARD) == 19
    assert len(EXTENDED) == 37


def test_line_of_fire_stops_at_the_board_edge():
    line = STANDARD.line_of_fire(Hex.parse("c5"), Direction.N)
    assert [h.label for h in line] == ["c4", "c3", "c2", "c1"]
    assert STANDARD.line_of_fire(Hex.parse("c1"), Direction.N) == ()


def test_rotation_turns_directions_and_hexes_together():
    c3 = Hex(0, 0)
    for d in Direction:
        assert c3.neighbour(d).rotated(1) == c3.neighbour(d.rotated(1))
    assert all(h.rotated(6) == h for h in STANDARD)
    assert {h.rotated(1) for h in STANDARD} == set(STANDARD.hexes)


def test_distance():
    assert Hex.parse("a1").distance(Hex.parse("e3")) == 4
    assert Hex.parse("c1").distance(Hex.parse("c5")) == 4


def test_custom_board():
    board = Board.custom([Hex(0, 0), Hex(1, -1)])
    assert Hex(0, 0) in board and Hex(0, 1) not in board
    assert str(board) == "custom (0,0) (1,-1)"
