package egdb;

import java.util.OptionalInt;

/**
 * A legal move ranked by a distance probe. {@code value} is the result for the player making the
 * move; {@code distance} is in plies (DTW counts the move itself), empty for moves that draw.
 */
public record MoveDistance(String move, OptionalInt distance, Value value, Position position) {}
