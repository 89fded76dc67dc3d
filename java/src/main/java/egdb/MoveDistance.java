package egdb;

import java.util.OptionalInt;

/**
 * A legal move ranked by a distance probe. {@code value} is the result for the player making the
 * move; {@code distance} is in plies (DTW counts the move itself), empty for moves that draw;
 * {@code move} is PDN, {@code hub} the same move in Hub notation.
 */
public record MoveDistance(String move, OptionalInt distance, Value value, Position position, String hub) {
    /** {@link Value#wdl()} of {@link #value()}, for the player making the move. */
    public int wdl() {
        return value.wdl();
    }
}
