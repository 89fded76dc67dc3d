package egdb;

/** A legal move: its PDN string and the position after it. */
public record Move(String pdn, Position position) {}
