package egdb;

/**
 * A legal move: its PDN string (short, the full path only where two captures share their start
 * and end squares), the position after it, and its Hub string (every captured square listed, as
 * Hub engines and clients such as pydraughts and dame-rs exchange moves: {@code 28x19x23}).
 */
public record Move(String pdn, Position position, String hub) {}
